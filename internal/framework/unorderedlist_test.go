package framework_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

func names(elems ...string) framework.UnorderedList {
	vals := make([]attr.Value, len(elems))
	for i, e := range elems {
		vals[i] = types.StringValue(e)
	}
	return framework.UnorderedListOf(types.ListValueMust(types.StringType, vals))
}

func TestUnorderedList_equal(t *testing.T) {
	for name, tc := range map[string]struct {
		a, b framework.UnorderedList
		want bool
	}{
		"same order":       {names("a", "b", "c"), names("a", "b", "c"), true},
		"other order":      {names("a", "b", "c"), names("c", "a", "b"), true},
		"one differs":      {names("a", "b"), names("a", "c"), false},
		"one more":         {names("a"), names("a", "b"), false},
		"twice and once":   {names("a", "a", "b"), names("a", "b", "b"), false},
		"empty and null":   {names(), framework.UnorderedListNull(types.StringType), false},
		"null and null":    {framework.UnorderedListNull(types.StringType), framework.UnorderedListNull(types.StringType), true},
		"null and unknown": {framework.UnorderedListNull(types.StringType), framework.UnorderedListOf(types.ListUnknown(types.StringType)), false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.a.Equal(tc.b); got != tc.want {
				t.Errorf("Equal = %v, want %v", got, tc.want)
			}
			if got := tc.b.Equal(tc.a); got != tc.want {
				t.Errorf("Equal (swapped) = %v, want %v", got, tc.want)
			}
			same, diags := tc.a.ListSemanticEquals(context.Background(), tc.b)
			if diags.HasError() || same != tc.want {
				t.Errorf("ListSemanticEquals = %v (%v), want %v", same, diags, tc.want)
			}
		})
	}
	if names("a").Equal(types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")})) {
		t.Error("an UnorderedList equals a framework list; the types differ")
	}
}

// TestUnorderedListType_fromASet: a set's wire value decodes as the list,
// and the list as the set: the two travel alike.
func TestUnorderedListType_fromASet(t *testing.T) {
	ctx := context.Background()
	typ := framework.NewUnorderedListType(types.StringType)
	set := tftypes.Set{ElementType: tftypes.String}
	dv, err := tfprotov6.NewDynamicValue(set, tftypes.NewValue(set, []tftypes.Value{tftypes.NewValue(tftypes.String, "b"), tftypes.NewValue(tftypes.String, "a")}))
	if err != nil {
		t.Fatal(err)
	}
	asList, err := dv.Unmarshal(typ.TerraformType(ctx))
	if err != nil {
		t.Fatal(err)
	}
	got, err := typ.ValueFromTerraform(ctx, asList)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(names("a", "b")) || !got.Type(ctx).Equal(typ) {
		t.Fatalf("decoded %v (%T)", got, got)
	}
	back, err := got.ToTerraformValue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tfprotov6.NewDynamicValue(typ.TerraformType(ctx), back)
	if err != nil {
		t.Fatal(err)
	}
	asSet, err := out.Unmarshal(set)
	if err != nil || !asSet.Equal(tftypes.NewValue(set, []tftypes.Value{tftypes.NewValue(tftypes.String, "a"), tftypes.NewValue(tftypes.String, "b")})) {
		t.Fatalf("the list read as a set: %v %v", asSet, err)
	}
}

func TestSetsOnTheWire(t *testing.T) {
	list := tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}}
	s := &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "id", Type: tftypes.String}, {Name: "permissions", Type: list},
	}}}
	out, err := framework.SetsOnTheWire(s, "permissions")
	if err != nil {
		t.Fatal(err)
	}
	if want := (tftypes.Map{ElementType: tftypes.Set{ElementType: tftypes.String}}); !out.Block.Attributes[1].Type.Equal(want) {
		t.Errorf("rewritten to %v", out.Block.Attributes[1].Type)
	}
	if !s.Block.Attributes[1].Type.Equal(list) {
		t.Error("the framework's schema was changed in place")
	}
	if _, err := framework.SetsOnTheWire(s, "scopes"); err == nil || !strings.Contains(err.Error(), `no attribute "scopes"`) {
		t.Errorf("a missing attribute: %v", err)
	}
	if _, err := framework.SetsOnTheWire(s, "id"); err == nil || !strings.Contains(err.Error(), "holds no list") {
		t.Errorf("an attribute without a list: %v", err)
	}
}
