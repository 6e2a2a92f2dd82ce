package framework

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestSameKeys: elements are matched by their encoding, whatever their
// order and type; a null string is not the empty string, and a repeated
// element counts twice.
func TestSameKeys(t *testing.T) {
	obj := func(n int64) attr.Value {
		return types.ObjectValueMust(map[string]attr.Type{"n": types.Int64Type}, map[string]attr.Value{"n": types.Int64Value(n)})
	}
	s := types.StringValue
	for name, tc := range map[string]struct {
		a, b []attr.Value
		want bool
	}{
		"objects reordered":     {[]attr.Value{obj(1), obj(2)}, []attr.Value{obj(2), obj(1)}, true},
		"objects differ":        {[]attr.Value{obj(1), obj(2)}, []attr.Value{obj(1), obj(3)}, false},
		"strings reordered":     {[]attr.Value{s("a"), s("b")}, []attr.Value{s("b"), s("a")}, true},
		"null is not empty":     {[]attr.Value{types.StringNull()}, []attr.Value{s("")}, false},
		"a repeat counts twice": {[]attr.Value{s("a"), s("a")}, []attr.Value{s("a"), s("b")}, false},
	} {
		got, err := sameKeys(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("%s: sameKeys = %v, %v; want %v", name, got, err, tc.want)
		}
	}
}
