package flex

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Strings is the list's values: nil when the list is null or unknown, never
// nil otherwise (an empty list is sent as one).
func Strings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if !IsSet(l) {
		return nil
	}
	out := []string{}
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// StringsPointer is Strings as an optional field: nil when the list is
// null or unknown.
func StringsPointer(ctx context.Context, l types.List, diags *diag.Diagnostics) *[]string {
	if !IsSet(l) {
		return nil
	}
	out := Strings(ctx, l, diags)
	return &out
}

// StringMap is the map's values, empty (not nil) when the map is null or
// unknown.
func StringMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	if IsSet(m) {
		diags.Append(m.ElementsAs(ctx, &out, false)...)
	}
	return out
}

// ObjectAs reads a set object into a model of type T; ok is false when the
// object is null or unknown. A nested object the model holds as a struct
// reads as its zero value when null or unknown.
func ObjectAs[T any](ctx context.Context, o types.Object, diags *diag.Diagnostics) (m T, ok bool) {
	if !IsSet(o) {
		return m, false
	}
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true})...)
	return m, true
}

// ListOf is a list of the values, null for none (nil or empty).
func ListOf(values *[]string) types.List {
	if values == nil || len(*values) == 0 {
		return types.ListNull(types.StringType)
	}
	elems := make([]attr.Value, len(*values))
	for i, v := range *values {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

// ListOrEmpty is ListOf, but an empty list for none.
func ListOrEmpty(values *[]string) types.List {
	if values == nil || len(*values) == 0 {
		return types.ListValueMust(types.StringType, []attr.Value{})
	}
	return ListOf(values)
}

// MapOf is a map of the values, null for none (nil or empty).
func MapOf(m *map[string]string) types.Map {
	if m == nil || len(*m) == 0 {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(*m))
	for k, v := range *m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// ObjectOf is v (a model whose tfsdk tags name t's attributes) as an
// object of type t.
func ObjectOf(ctx context.Context, t types.ObjectType, v any, diags *diag.Diagnostics) types.Object {
	o, d := types.ObjectValueFrom(ctx, t.AttrTypes, v)
	diags.Append(d...)
	return o
}
