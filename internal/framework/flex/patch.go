package flex

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// Changed reports whether the plan changes an attribute: known, and not
// equal to the state.
func Changed(plan, state attr.Value) bool { return !plan.IsUnknown() && !plan.Equal(state) }

// Removal is what a PATCH sends for an attribute the plan removes (null in
// the plan, a value in the state): how the API returns that field to unset.
type Removal int

const (
	// Keep leaves the field out: the API has no way to unset it, or
	// removing the argument leaves the tenant's value as it is.
	Keep Removal = iota
	// Clear sends null, which the API takes as unset.
	Clear
	// Empty sends the empty value (a list the API keeps as sent).
	Empty
)

// Patch is the PATCH field of one attribute: left out when the plan does
// not change it (Changed), what removal says when the plan removes it, else
// value().
func Patch[T any](plan, state attr.Value, removal Removal, value func() T) mgmt.Patch[T] {
	switch {
	case !Changed(plan, state):
		return mgmt.Patch[T]{}
	case plan.IsNull() && removal == Clear:
		return mgmt.Null[T]()
	case plan.IsNull() && removal == Keep:
		return mgmt.Patch[T]{}
	}
	return mgmt.Set(value())
}

// PatchString is Patch for a string attribute.
func PatchString(plan, state types.String, removal Removal) mgmt.Patch[string] {
	return Patch(plan, state, removal, plan.ValueString)
}

// PatchBool is Patch for a bool attribute.
func PatchBool(plan, state types.Bool, removal Removal) mgmt.Patch[bool] {
	return Patch(plan, state, removal, plan.ValueBool)
}

// PatchInt64 is Patch for an int64 attribute.
func PatchInt64(plan, state types.Int64, removal Removal) mgmt.Patch[int64] {
	return Patch(plan, state, removal, plan.ValueInt64)
}

// PatchStrings is Patch for a list of strings; the list is sent whole.
func PatchStrings(ctx context.Context, plan, state types.List, removal Removal, diags *diag.Diagnostics) mgmt.Patch[[]string] {
	return Patch(plan, state, removal, func() []string {
		if v := Strings(ctx, plan, diags); v != nil {
			return v
		}
		return []string{}
	})
}

// PatchObject is Patch for an object that expand converts (nil, when it
// cannot, leaves the field out); the object is sent whole, and Empty sends
// T's zero value.
func PatchObject[T any](plan, state attr.Value, removal Removal, expand func() *T) mgmt.Patch[T] {
	if !Changed(plan, state) || plan.IsNull() {
		return Patch(plan, state, removal, func() (zero T) { return zero })
	}
	v := expand()
	if v == nil {
		return mgmt.Patch[T]{}
	}
	return mgmt.Set(*v)
}
