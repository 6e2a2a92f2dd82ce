package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// UnorderedListType is a list whose order means nothing, for a collection
// that can hold a thousand elements: the provider's schema tells Terraform
// it is a set (SetsOnTheWire rewrites it), so Terraform plans a reordered
// collection as no change and shows an element changed as that element
// alone, while the framework handles it as a list.
//
// The framework compares whole values as terraform-plugin-go's tftypes
// values, whose set comparison looks each element up among the other
// set's (tftypes.Value.Equal: quadratic in the set's size), in each read
// and plan; a list compares element by element. A set and a list travel
// alike between Terraform and the provider (one array of the elements), so
// the values Terraform sends decode as this list, in the order Terraform
// keeps the set in, and what the provider answers decodes in Terraform as
// the set. Terraform's sets hold no element twice, so neither does a value
// of this type that comes from Terraform.
type UnorderedListType struct {
	basetypes.ListType
}

var (
	_ basetypes.ListTypable                    = UnorderedListType{}
	_ basetypes.ListValuableWithSemanticEquals = UnorderedList{}
)

// NewUnorderedListType is the UnorderedListType of elements of type elem.
func NewUnorderedListType(elem attr.Type) UnorderedListType {
	return UnorderedListType{ListType: basetypes.ListType{ElemType: elem}}
}

// Equal reports whether o is an UnorderedListType of the same elements.
func (t UnorderedListType) Equal(o attr.Type) bool {
	other, ok := o.(UnorderedListType)
	return ok && t.ListType.Equal(other.ListType)
}

func (t UnorderedListType) String() string {
	return fmt.Sprintf("framework.UnorderedListType[%s]", t.ElementType())
}

// ValueType is the value this type produces.
func (t UnorderedListType) ValueType(ctx context.Context) attr.Value {
	return UnorderedList{ListValue: basetypes.NewListNull(t.ElementType())}
}

// ValueFromList wraps a framework list.
func (t UnorderedListType) ValueFromList(_ context.Context, in basetypes.ListValue) (basetypes.ListValuable, diag.Diagnostics) {
	return UnorderedList{ListValue: in}, nil
}

// ValueFromTerraform converts a Terraform value.
func (t UnorderedListType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.ListType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	list, ok := v.(basetypes.ListValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return UnorderedList{ListValue: list}, nil
}

// UnorderedList is the value of an UnorderedListType.
type UnorderedList struct {
	basetypes.ListValue
}

// UnorderedListOf wraps a framework list.
func UnorderedListOf(l basetypes.ListValue) UnorderedList { return UnorderedList{ListValue: l} }

// UnorderedListNull is a null list of elements of type elem.
func UnorderedListNull(elem attr.Type) UnorderedList {
	return UnorderedList{ListValue: basetypes.NewListNull(elem)}
}

// Type is the value's UnorderedListType.
func (v UnorderedList) Type(ctx context.Context) attr.Type {
	return NewUnorderedListType(v.ElementType(ctx))
}

// Equal reports whether o is an UnorderedList with the same elements, in
// any order, each as many times.
func (v UnorderedList) Equal(o attr.Value) bool {
	other, ok := o.(UnorderedList)
	if !ok {
		return false
	}
	if v.IsNull() || v.IsUnknown() || other.IsNull() || other.IsUnknown() {
		return v.ListValue.Equal(other.ListValue)
	}
	ctx := context.Background()
	a, b := v.Elements(), other.Elements()
	if len(a) != len(b) || !v.ElementType(ctx).Equal(other.ElementType(ctx)) {
		return false
	}
	same, err := sameKeys(a, b)
	return err == nil && same
}

// ListSemanticEquals keeps the prior value when the elements are the same
// in another order.
func (v UnorderedList) ListSemanticEquals(_ context.Context, prior basetypes.ListValuable) (bool, diag.Diagnostics) {
	p, ok := prior.(UnorderedList)
	return ok && v.Equal(p), nil
}

// SetsOnTheWire returns the schema Terraform is to see of s, a copy in
// which every list type in the type of each of the named attributes is a
// set: the attributes whose framework type holds an UnorderedListType. An
// attribute that is not there is an error, so a schema that changes cannot
// silently drop the rewrite.
func SetsOnTheWire(s *tfprotov6.Schema, attributes ...string) (*tfprotov6.Schema, error) {
	if s == nil || s.Block == nil {
		return nil, fmt.Errorf("no schema")
	}
	block := *s.Block
	block.Attributes = make([]*tfprotov6.SchemaAttribute, len(s.Block.Attributes))
	copy(block.Attributes, s.Block.Attributes)
	for _, name := range attributes {
		found := false
		for i, a := range block.Attributes {
			if a.Name != name {
				continue
			}
			rewritten := *a
			var changed bool
			rewritten.Type, changed = setsForLists(a.Type)
			if !changed {
				return nil, fmt.Errorf("attribute %q holds no list", name)
			}
			block.Attributes[i], found = &rewritten, true
		}
		if !found {
			return nil, fmt.Errorf("no attribute %q", name)
		}
	}
	out := *s
	out.Block = &block
	return &out, nil
}

// setsForLists is t with every list type in it a set, and whether it held
// one.
func setsForLists(t tftypes.Type) (tftypes.Type, bool) {
	switch tt := t.(type) {
	case tftypes.List:
		elem, _ := setsForLists(tt.ElementType)
		return tftypes.Set{ElementType: elem}, true
	case tftypes.Set:
		elem, changed := setsForLists(tt.ElementType)
		return tftypes.Set{ElementType: elem}, changed
	case tftypes.Map:
		elem, changed := setsForLists(tt.ElementType)
		return tftypes.Map{ElementType: elem}, changed
	}
	return t, false
}
