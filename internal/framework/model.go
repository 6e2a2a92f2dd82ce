package framework

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Model converts a resource's model, a struct whose fields are attr.Values
// tagged `tfsdk:"name"` (embedded structs of such fields included), to and
// from the state's or plan's value, as tfsdk's Get and Set do, with the
// struct's fields read once. terraform-plugin-framework v1.19 reads them
// again on every Get and Set, compiling a regular expression per field: for
// a resource of fifty attributes, a third of what a refresh costs.
type Model[T any] struct {
	typ    tftypes.Type
	fields []modelField
}

type modelField struct {
	index []int
	name  string
	typ   attr.Type
}

// NewModel reads T's fields against the schema s. It panics when a field
// and an attribute do not match one to one, which the resource's tests meet
// first.
func NewModel[T any](s schema.Schema) *Model[T] {
	ctx := context.Background()
	obj := s.Type()
	attrTypes := obj.(interface{ AttributeTypes() map[string]attr.Type }).AttributeTypes()
	m := &Model[T]{typ: obj.TerraformType(ctx)}
	seen := map[string]bool{}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			at := append(append([]int{}, index...), i)
			if f.Anonymous {
				walk(f.Type, at)
				continue
			}
			name := f.Tag.Get("tfsdk")
			typ, ok := attrTypes[name]
			if !ok || seen[name] {
				panic(fmt.Sprintf("NewModel: %s.%s (tfsdk %q) is no attribute of the schema, or a second field of it", t, f.Name, name))
			}
			seen[name] = true
			m.fields = append(m.fields, modelField{index: at, name: name, typ: typ})
		}
	}
	walk(reflect.TypeFor[T](), nil)
	if len(seen) != len(attrTypes) {
		panic(fmt.Sprintf("NewModel: %s has %d of the schema's %d attributes", reflect.TypeFor[T](), len(seen), len(attrTypes)))
	}
	return m
}

// Get reads raw (a state, plan or configuration's Raw) into v.
func (m *Model[T]) Get(ctx context.Context, raw tftypes.Value, v *T, diags *diag.Diagnostics) {
	var vals map[string]tftypes.Value
	if err := raw.As(&vals); err != nil {
		diags.AddError("Unable to read the resource's data", err.Error()+". This is a bug in the provider; please report it.")
		return
	}
	rv := reflect.ValueOf(v).Elem()
	for _, f := range m.fields {
		av, err := f.typ.ValueFromTerraform(ctx, vals[f.name])
		if err != nil {
			diags.AddError("Unable to read the resource's data", f.name+": "+err.Error()+". This is a bug in the provider; please report it.")
			return
		}
		rv.FieldByIndex(f.index).Set(reflect.ValueOf(av))
	}
}

// Value is v as a state or plan's Raw.
func (m *Model[T]) Value(ctx context.Context, v *T, diags *diag.Diagnostics) tftypes.Value {
	rv := reflect.ValueOf(v).Elem()
	vals := make(map[string]tftypes.Value, len(m.fields))
	for _, f := range m.fields {
		tv, err := rv.FieldByIndex(f.index).Interface().(attr.Value).ToTerraformValue(ctx)
		if err != nil {
			diags.AddError("Unable to write the resource's data", f.name+": "+err.Error()+". This is a bug in the provider; please report it.")
			return tftypes.NewValue(m.typ, nil)
		}
		vals[f.name] = tv
	}
	return tftypes.NewValue(m.typ, vals)
}
