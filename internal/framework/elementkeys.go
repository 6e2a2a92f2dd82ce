package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Element keys: the equality of large collections in linear time, by
// keying each element on its encoding (UnorderedList).

// sameKeys reports whether a and b hold the same element encodings.
func sameKeys(a, b []attr.Value) (bool, error) {
	counts := make(map[string]int, len(a))
	for _, e := range a {
		k, err := valueKey(e)
		if err != nil {
			return false, err
		}
		counts[k]++
	}
	for _, e := range b {
		k, err := valueKey(e)
		if err != nil {
			return false, err
		}
		if counts[k] == 0 {
			return false, nil
		}
		counts[k]--
	}
	return true, nil
}

// valueKey is the key of an element of a set or list: its value for a
// known string (which no encoding of another string value starts like:
// MessagePack never begins a string, null or unknown with "s"), its
// elementKey otherwise.
func valueKey(v attr.Value) (string, error) {
	if s, ok := v.(basetypes.StringValue); ok && !s.IsNull() && !s.IsUnknown() {
		return "s" + s.ValueString(), nil
	}
	tv, err := v.ToTerraformValue(context.Background())
	if err != nil {
		return "", err
	}
	return elementKey(tv)
}

// elementKey is the MessagePack encoding of v (object attributes in sorted
// order), which two values share only when they are equal.
func elementKey(v tftypes.Value) (string, error) {
	dv, err := tfprotov6.NewDynamicValue(v.Type(), v)
	if err != nil {
		return "", err
	}
	return string(dv.MsgPack), nil
}
