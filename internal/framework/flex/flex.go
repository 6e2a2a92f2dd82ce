// Package flex converts between the framework's values and the Go values
// of the mgmt client's requests and answers, in one place for every family
// (as terraform-provider-aws's internal/framework/flex does): a model value
// into what a request sends (nil for a null or unknown value: it is not
// sent), an answer's value into a model value, and a PATCH field from the
// plan and the state.
package flex

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// IsSet reports whether v holds a value to convert: neither null nor
// unknown.
func IsSet(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// StringPointer is v's value, nil when v is null or unknown (the
// framework's own pointer getter turns unknown into "").
func StringPointer(v types.String) *string {
	if !IsSet(v) {
		return nil
	}
	return v.ValueStringPointer()
}

// BoolPointer is StringPointer for a bool.
func BoolPointer(v types.Bool) *bool {
	if !IsSet(v) {
		return nil
	}
	return v.ValueBoolPointer()
}

// Int64Pointer is StringPointer for an int64.
func Int64Pointer(v types.Int64) *int64 {
	if !IsSet(v) {
		return nil
	}
	return v.ValueInt64Pointer()
}

// NullIfEmpty is s, or null for "": for an answer that shows an unset
// string as "" (or leaves it out of a struct field that is not a pointer).
func NullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// StringOr is *v, or def when the answer leaves the field out.
func StringOr(v *string, def string) types.String {
	if v == nil {
		return types.StringValue(def)
	}
	return types.StringValue(*v)
}

// BoolOr is StringOr for a bool.
func BoolOr(v *bool, def bool) types.Bool {
	if v == nil {
		return types.BoolValue(def)
	}
	return types.BoolValue(*v)
}

// Int64Or is StringOr for an int64.
func Int64Or(v *int64, def int64) types.Int64 {
	if v == nil {
		return types.Int64Value(def)
	}
	return types.Int64Value(*v)
}
