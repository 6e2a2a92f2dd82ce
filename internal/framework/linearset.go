package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// LinearSetType is a set type for sets that grow large (a role's permission
// names on one API). The framework's own set compares every element with
// every other one when it validates the set (looking for duplicates), when
// it tests equality and when it looks for semantic equality after a read.
// This type does the same checks by keying each element on its encoding, in
// linear time, so a set far past the API's limits is refused at once by its
// size validator. (The comparisons terraform-plugin-go makes of whole
// values stay quadratic in a set's size; the API bounds the size.)
type LinearSetType struct {
	basetypes.SetType
}

var (
	_ basetypes.SetTypable                    = LinearSetType{}
	_ basetypes.SetValuableWithSemanticEquals = LinearSet{}
)

// NewLinearSetType is the LinearSetType of elements of type elem.
func NewLinearSetType(elem attr.Type) LinearSetType {
	return LinearSetType{SetType: basetypes.SetType{ElemType: elem}}
}

// Equal reports whether o is a LinearSetType of the same elements.
func (t LinearSetType) Equal(o attr.Type) bool {
	other, ok := o.(LinearSetType)
	return ok && t.SetType.Equal(other.SetType)
}

func (t LinearSetType) String() string {
	return fmt.Sprintf("framework.LinearSetType[%s]", t.ElementType())
}

// ValueType is the value this type produces.
func (t LinearSetType) ValueType(ctx context.Context) attr.Value {
	return LinearSet{SetValue: basetypes.NewSetNull(t.ElementType())}
}

// ValueFromSet wraps a framework set.
func (t LinearSetType) ValueFromSet(_ context.Context, in basetypes.SetValue) (basetypes.SetValuable, diag.Diagnostics) {
	return LinearSet{SetValue: in}, nil
}

// ValueFromTerraform converts a Terraform value.
func (t LinearSetType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.SetType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	set, ok := v.(basetypes.SetValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return LinearSet{SetValue: set}, nil
}

// Validate refuses a set that holds one element twice, as the framework's
// set type does (the framework calls it through xattr.TypeWithValidate),
// and validates each element whose type has checks of its own.
func (t LinearSetType) Validate(ctx context.Context, in tftypes.Value, p path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	if in.Type() == nil || !in.IsKnown() || in.IsNull() {
		return diags
	}
	var elems []tftypes.Value
	if err := in.As(&elems); err != nil {
		diags.AddAttributeError(p, "Set Type Validation Error", "The set could not be read: "+err.Error())
		return diags
	}
	//lint:ignore SA1019 elements are validated the way the framework's set type does
	validatable, _ := t.ElementType().(xattr.TypeWithValidate)
	seen := make(map[string]struct{}, len(elems))
	for _, elem := range elems {
		if !elem.IsFullyKnown() {
			continue
		}
		if validatable != nil {
			v, err := t.ElementType().ValueFromTerraform(ctx, elem)
			if err != nil {
				diags.AddAttributeError(p, "Set Type Validation Error", "An element could not be read: "+err.Error())
				return diags
			}
			diags.Append(validatable.Validate(ctx, elem, p.AtSetValue(v))...)
		}
		key, err := elementKey(elem)
		if err != nil {
			diags.AddAttributeError(p, "Set Type Validation Error", "An element could not be encoded: "+err.Error())
			return diags
		}
		if _, dup := seen[key]; dup {
			diags.AddAttributeError(p, "Duplicate Set Element", fmt.Sprintf("This attribute contains duplicate values of: %s", elem))
			continue
		}
		seen[key] = struct{}{}
	}
	return diags
}

// LinearSet is the value of a LinearSetType.
type LinearSet struct {
	basetypes.SetValue
}

// LinearSetOf wraps a framework set.
func LinearSetOf(s basetypes.SetValue) LinearSet { return LinearSet{SetValue: s} }

// LinearSetNull is a null set of elements of type elem.
func LinearSetNull(elem attr.Type) LinearSet {
	return LinearSet{SetValue: basetypes.NewSetNull(elem)}
}

// Type is the value's LinearSetType.
func (v LinearSet) Type(ctx context.Context) attr.Type {
	return NewLinearSetType(v.ElementType(ctx))
}

// Equal reports whether o is a LinearSet with the same elements. Elements
// are compared by their encoding; when the encodings differ the elements
// may still be equal (a set nested in an element can list its own elements
// in any order), so the framework's comparison decides then.
func (v LinearSet) Equal(o attr.Value) bool {
	other, ok := o.(LinearSet)
	if !ok {
		return false
	}
	if v.IsNull() || v.IsUnknown() || other.IsNull() || other.IsUnknown() {
		return v.SetValue.Equal(other.SetValue)
	}
	ctx := context.Background()
	a, b := v.Elements(), other.Elements()
	if len(a) != len(b) || !v.ElementType(ctx).Equal(other.ElementType(ctx)) {
		return false
	}
	if same, err := sameKeys(a, b); err == nil && same {
		return true
	}
	return v.SetValue.Equal(other.SetValue)
}

// SetSemanticEquals keeps the prior value when nothing changed, so the
// framework does not compare each new element with each prior one.
func (v LinearSet) SetSemanticEquals(_ context.Context, prior basetypes.SetValuable) (bool, diag.Diagnostics) {
	p, ok := prior.(LinearSet)
	return ok && v.Equal(p), nil
}

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
