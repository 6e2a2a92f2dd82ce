package flex_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestIsSet(t *testing.T) {
	for _, c := range []struct {
		v    attr.Value
		want bool
	}{
		{types.StringNull(), false},
		{types.StringUnknown(), false},
		{types.StringValue(""), true},
		{types.BoolValue(false), true},
		{types.ListNull(types.StringType), false},
		{types.ListValueMust(types.StringType, nil), true},
	} {
		if got := flex.IsSet(c.v); got != c.want {
			t.Errorf("IsSet(%s) = %v, want %v", c.v, got, c.want)
		}
	}
}

// show is a pointer's value for a message, <nil> for none.
func show[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestStringPointer(t *testing.T) {
	for v, want := range map[types.String]any{
		types.StringNull():     "<nil>",
		types.StringUnknown():  "<nil>",
		types.StringValue(""):  "",
		types.StringValue("a"): "a",
	} {
		if got := show(flex.StringPointer(v)); got != want {
			t.Errorf("StringPointer(%s) = %v, want %v", v, got, want)
		}
	}
}

func TestBoolPointer(t *testing.T) {
	for v, want := range map[types.Bool]any{
		types.BoolNull():       "<nil>",
		types.BoolUnknown():    "<nil>",
		types.BoolValue(false): false,
		types.BoolValue(true):  true,
	} {
		if got := show(flex.BoolPointer(v)); got != want {
			t.Errorf("BoolPointer(%s) = %v, want %v", v, got, want)
		}
	}
}

func TestInt64Pointer(t *testing.T) {
	for v, want := range map[types.Int64]any{
		types.Int64Null():    "<nil>",
		types.Int64Unknown(): "<nil>",
		types.Int64Value(0):  int64(0),
		types.Int64Value(7):  int64(7),
	} {
		if got := show(flex.Int64Pointer(v)); got != want {
			t.Errorf("Int64Pointer(%s) = %v, want %v", v, got, want)
		}
	}
}

func TestNullIfEmpty(t *testing.T) {
	if got := flex.NullIfEmpty(""); !got.IsNull() {
		t.Errorf(`NullIfEmpty("") = %s, want null`, got)
	}
	if got := flex.NullIfEmpty("a"); !got.Equal(types.StringValue("a")) {
		t.Errorf(`NullIfEmpty("a") = %s, want "a"`, got)
	}
}

func TestStringOr(t *testing.T) {
	if got := flex.StringOr(nil, "def"); !got.Equal(types.StringValue("def")) {
		t.Errorf("StringOr(nil) = %s, want the default", got)
	}
	if got := flex.StringOr(mgmt.Ptr(""), "def"); !got.Equal(types.StringValue("")) {
		t.Errorf(`StringOr("") = %s, want ""`, got)
	}
}

func TestBoolOr(t *testing.T) {
	if got := flex.BoolOr(nil, true); !got.Equal(types.BoolValue(true)) {
		t.Errorf("BoolOr(nil) = %s, want the default", got)
	}
	if got := flex.BoolOr(mgmt.Ptr(false), true); !got.Equal(types.BoolValue(false)) {
		t.Errorf("BoolOr(false) = %s, want false", got)
	}
}

func TestInt64Or(t *testing.T) {
	if got := flex.Int64Or(nil, 9); !got.Equal(types.Int64Value(9)) {
		t.Errorf("Int64Or(nil) = %s, want the default", got)
	}
	if got := flex.Int64Or(mgmt.Ptr[int64](0), 9); !got.Equal(types.Int64Value(0)) {
		t.Errorf("Int64Or(0) = %s, want 0", got)
	}
}

func strs(values ...string) types.List {
	elems := make([]attr.Value, 0, len(values))
	for _, v := range values {
		elems = append(elems, types.StringValue(v))
	}
	return types.ListValueMust(types.StringType, elems)
}

// asJSON shows a Go value as the request body would.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStrings(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		in   types.List
		want string
	}{
		"null":    {types.ListNull(types.StringType), "null"},
		"unknown": {types.ListUnknown(types.StringType), "null"},
		"empty":   {strs(), "[]"},
		"values":  {strs("b", "a"), `["b","a"]`},
	} {
		var diags diag.Diagnostics
		if got := asJSON(t, flex.Strings(ctx, c.in, &diags)); got != c.want || diags.HasError() {
			t.Errorf("%s: Strings = %s (%v), want %s", name, got, diags, c.want)
		}
	}
}

func TestStringsPointer(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		in   types.List
		want string
	}{
		"null":    {types.ListNull(types.StringType), "null"},
		"unknown": {types.ListUnknown(types.StringType), "null"},
		"empty":   {strs(), "[]"},
		"values":  {strs("a"), `["a"]`},
	} {
		var diags diag.Diagnostics
		got := flex.StringsPointer(ctx, c.in, &diags)
		if s := asJSON(t, got); s != c.want || diags.HasError() || (c.want == "null") != (got == nil) {
			t.Errorf("%s: StringsPointer = %s (%v), want %s", name, s, diags, c.want)
		}
	}
}

func TestStringMap(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		in   types.Map
		want string
	}{
		"null":    {types.MapNull(types.StringType), "{}"},
		"unknown": {types.MapUnknown(types.StringType), "{}"},
		"values":  {types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")}), `{"k":"v"}`},
	} {
		var diags diag.Diagnostics
		if got := asJSON(t, flex.StringMap(ctx, c.in, &diags)); got != c.want || diags.HasError() {
			t.Errorf("%s: StringMap = %s (%v), want %s", name, got, diags, c.want)
		}
	}
}

type innerModel struct {
	On types.Bool `tfsdk:"on"`
}

type outerModel struct {
	Name  types.String `tfsdk:"name"`
	Inner innerModel   `tfsdk:"inner"`
}

var (
	innerType = types.ObjectType{AttrTypes: map[string]attr.Type{"on": types.BoolType}}
	outerType = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "inner": innerType}}
)

func TestObjectAs(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	if _, ok := flex.ObjectAs[outerModel](ctx, types.ObjectNull(outerType.AttrTypes), &diags); ok {
		t.Error("ObjectAs(null) is ok, want not")
	}
	if _, ok := flex.ObjectAs[outerModel](ctx, types.ObjectUnknown(outerType.AttrTypes), &diags); ok {
		t.Error("ObjectAs(unknown) is ok, want not")
	}
	// A nested object the model holds as a struct reads as its zero value
	// when null.
	o := types.ObjectValueMust(outerType.AttrTypes, map[string]attr.Value{"name": types.StringValue("n"), "inner": types.ObjectNull(innerType.AttrTypes)})
	m, ok := flex.ObjectAs[outerModel](ctx, o, &diags)
	if !ok || diags.HasError() || m.Name.ValueString() != "n" || m.Inner.On.ValueBool() {
		t.Errorf("ObjectAs = %+v, %v (%v), want name n and a zero inner", m, ok, diags)
	}
}

func TestListOf(t *testing.T) {
	for name, c := range map[string]struct {
		in   *[]string
		want types.List
	}{
		"nil":    {nil, types.ListNull(types.StringType)},
		"empty":  {&[]string{}, types.ListNull(types.StringType)},
		"values": {&[]string{"b", "a"}, strs("b", "a")},
	} {
		if got := flex.ListOf(c.in); !got.Equal(c.want) {
			t.Errorf("%s: ListOf = %s, want %s", name, got, c.want)
		}
	}
}

func TestListOrEmpty(t *testing.T) {
	for name, c := range map[string]struct {
		in   *[]string
		want types.List
	}{
		"nil":    {nil, strs()},
		"empty":  {&[]string{}, strs()},
		"values": {&[]string{"a"}, strs("a")},
	} {
		if got := flex.ListOrEmpty(c.in); !got.Equal(c.want) {
			t.Errorf("%s: ListOrEmpty = %s, want %s", name, got, c.want)
		}
	}
}

func TestMapOf(t *testing.T) {
	for name, c := range map[string]struct {
		in   *map[string]string
		want types.Map
	}{
		"nil":    {nil, types.MapNull(types.StringType)},
		"empty":  {&map[string]string{}, types.MapNull(types.StringType)},
		"values": {&map[string]string{"k": "v"}, types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")})},
	} {
		if got := flex.MapOf(c.in); !got.Equal(c.want) {
			t.Errorf("%s: MapOf = %s, want %s", name, got, c.want)
		}
	}
}

func TestObjectOf(t *testing.T) {
	var diags diag.Diagnostics
	got := flex.ObjectOf(context.Background(), innerType, innerModel{On: types.BoolValue(true)}, &diags)
	want := types.ObjectValueMust(innerType.AttrTypes, map[string]attr.Value{"on": types.BoolValue(true)})
	if !got.Equal(want) || diags.HasError() {
		t.Errorf("ObjectOf = %s (%v), want %s", got, diags, want)
	}
	flex.ObjectOf(context.Background(), innerType, struct{ Other types.Bool }{}, &diags)
	if !diags.HasError() {
		t.Error("ObjectOf of a model without the type's attributes has no error")
	}
}

func TestChanged(t *testing.T) {
	a, b := types.StringValue("a"), types.StringValue("b")
	for name, c := range map[string]struct {
		plan, state types.String
		want        bool
	}{
		"equal":   {a, a, false},
		"unknown": {types.StringUnknown(), a, false},
		"other":   {b, a, true},
		"removed": {types.StringNull(), a, true},
		"added":   {a, types.StringNull(), true},
	} {
		if got := flex.Changed(c.plan, c.state); got != c.want {
			t.Errorf("%s: Changed = %v, want %v", name, got, c.want)
		}
	}
}

// body is a Patch as the request shows it: absent, or its JSON.
func body[T any](t *testing.T, p mgmt.Patch[T]) string {
	if p.IsZero() {
		return "absent"
	}
	return asJSON(t, p)
}

func TestPatch(t *testing.T) {
	set, other, null := types.Int64Value(1), types.Int64Value(2), types.Int64Null()
	for name, c := range map[string]struct {
		plan, state types.Int64
		removal     flex.Removal
		want        string
	}{
		"unchanged":       {set, set, flex.Clear, "absent"},
		"unknown":         {types.Int64Unknown(), set, flex.Clear, "absent"},
		"changed":         {other, set, flex.Keep, "2"},
		"added":           {set, null, flex.Keep, "1"},
		"removed, keep":   {null, set, flex.Keep, "absent"},
		"removed, clear":  {null, set, flex.Clear, "null"},
		"removed, empty":  {null, set, flex.Empty, "0"},
		"null, unchanged": {null, null, flex.Clear, "absent"},
	} {
		got := body(t, flex.Patch(c.plan, c.state, c.removal, c.plan.ValueInt64))
		if got != c.want {
			t.Errorf("%s: Patch = %s, want %s", name, got, c.want)
		}
	}
}

func TestPatchString(t *testing.T) {
	if got := body(t, flex.PatchString(types.StringValue("b"), types.StringValue("a"), flex.Keep)); got != `"b"` {
		t.Errorf("PatchString = %s, want \"b\"", got)
	}
	if got := body(t, flex.PatchString(types.StringNull(), types.StringValue("a"), flex.Clear)); got != "null" {
		t.Errorf("PatchString removed = %s, want null", got)
	}
}

func TestPatchBool(t *testing.T) {
	if got := body(t, flex.PatchBool(types.BoolValue(false), types.BoolValue(true), flex.Keep)); got != "false" {
		t.Errorf("PatchBool = %s, want false", got)
	}
	if got := body(t, flex.PatchBool(types.BoolNull(), types.BoolValue(true), flex.Keep)); got != "absent" {
		t.Errorf("PatchBool removed = %s, want absent", got)
	}
}

func TestPatchInt64(t *testing.T) {
	if got := body(t, flex.PatchInt64(types.Int64Value(5), types.Int64Null(), flex.Clear)); got != "5" {
		t.Errorf("PatchInt64 = %s, want 5", got)
	}
	if got := body(t, flex.PatchInt64(types.Int64Null(), types.Int64Value(5), flex.Clear)); got != "null" {
		t.Errorf("PatchInt64 removed = %s, want null", got)
	}
}

func TestPatchStrings(t *testing.T) {
	ctx := context.Background()
	null := types.ListNull(types.StringType)
	for name, c := range map[string]struct {
		plan, state types.List
		removal     flex.Removal
		want        string
	}{
		"unchanged":      {strs("a"), strs("a"), flex.Empty, "absent"},
		"changed":        {strs("b", "a"), strs("a"), flex.Keep, `["b","a"]`},
		"emptied":        {strs(), strs("a"), flex.Clear, "[]"},
		"removed, empty": {null, strs("a"), flex.Empty, "[]"},
		"removed, clear": {null, strs("a"), flex.Clear, "null"},
		"removed, keep":  {null, strs("a"), flex.Keep, "absent"},
	} {
		var diags diag.Diagnostics
		if got := body(t, flex.PatchStrings(ctx, c.plan, c.state, c.removal, &diags)); got != c.want || diags.HasError() {
			t.Errorf("%s: PatchStrings = %s (%v), want %s", name, got, diags, c.want)
		}
	}
}

func TestPatchObject(t *testing.T) {
	ctx := context.Background()
	on := func(b bool) types.Object {
		return types.ObjectValueMust(innerType.AttrTypes, map[string]attr.Value{"on": types.BoolValue(b)})
	}
	null, unknown := types.ObjectNull(innerType.AttrTypes), types.ObjectUnknown(innerType.AttrTypes)
	type wire struct {
		On bool `json:"on"`
	}
	for name, c := range map[string]struct {
		plan, state types.Object
		removal     flex.Removal
		want        string
	}{
		"unchanged":      {on(true), on(true), flex.Clear, "absent"},
		"unknown":        {unknown, on(true), flex.Clear, "absent"},
		"changed":        {on(false), on(true), flex.Keep, `{"on":false}`},
		"removed, keep":  {null, on(true), flex.Keep, "absent"},
		"removed, clear": {null, on(true), flex.Clear, "null"},
		"removed, empty": {null, on(true), flex.Empty, `{"on":false}`},
	} {
		var diags diag.Diagnostics
		expanded := false
		got := body(t, flex.PatchObject(c.plan, c.state, c.removal, func() *wire {
			expanded = true
			m, ok := flex.ObjectAs[innerModel](ctx, c.plan, &diags)
			if !ok {
				return nil
			}
			return &wire{On: m.On.ValueBool()}
		}))
		if got != c.want || diags.HasError() {
			t.Errorf("%s: PatchObject = %s (%v), want %s", name, got, diags, c.want)
		}
		if expanded && c.plan.IsNull() {
			t.Errorf("%s: a removed object was expanded", name)
		}
	}
	// An object expand cannot convert is left out.
	if got := body(t, flex.PatchObject(on(true), null, flex.Clear, func() *wire { return nil })); got != "absent" {
		t.Errorf("PatchObject of nothing = %s, want absent", got)
	}
}
