package framework_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var modelSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"id":     schema.StringAttribute{Computed: true},
	"count":  schema.Int64Attribute{Optional: true},
	"names":  schema.ListAttribute{Optional: true, ElementType: types.StringType},
	"nested": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"on": schema.BoolAttribute{Optional: true}}},
	"switch": schema.BoolAttribute{Optional: true},
}}

type inner struct {
	ID     types.String `tfsdk:"id"`
	Count  types.Int64  `tfsdk:"count"`
	Names  types.List   `tfsdk:"names"`
	Nested types.Object `tfsdk:"nested"`
}

type outer struct {
	inner
	Switch types.Bool `tfsdk:"switch"`
}

// TestModel: what Model writes is what tfsdk's Set writes, and Get reads
// it back, embedded fields and unknowns included.
func TestModel(t *testing.T) {
	ctx := context.Background()
	m := framework.NewModel[outer](modelSchema)
	nested := map[string]attr.Type{"on": types.BoolType}
	for name, v := range map[string]outer{
		"values": {inner{types.StringValue("a"), types.Int64Value(3), types.ListValueMust(types.StringType, []attr.Value{types.StringValue("x")}),
			types.ObjectValueMust(nested, map[string]attr.Value{"on": types.BoolValue(true)})}, types.BoolValue(false)},
		"nulls and unknowns": {inner{types.StringUnknown(), types.Int64Null(), types.ListNull(types.StringType), types.ObjectUnknown(nested)},
			types.BoolNull()},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			raw := m.Value(ctx, &v, &diags)
			want := tfsdk.State{Schema: modelSchema}
			diags.Append(want.Set(ctx, &v)...)
			var back outer
			m.Get(ctx, raw, &back, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if !raw.Equal(want.Raw) {
				t.Fatalf("Value %v\nSet   %v", raw, want.Raw)
			}
			if !back.ID.Equal(v.ID) || !back.Count.Equal(v.Count) || !back.Names.Equal(v.Names) || !back.Nested.Equal(v.Nested) || !back.Switch.Equal(v.Switch) {
				t.Fatalf("Get %+v, want %+v", back, v)
			}
		})
	}
}

func TestModel_mismatch(t *testing.T) {
	type missing struct {
		ID types.String `tfsdk:"id"`
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a model without every attribute was taken")
		}
	}()
	framework.NewModel[missing](modelSchema)
}
