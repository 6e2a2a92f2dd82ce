package planmodifiers_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planmodifiers"
)

// TestDefaultFrom: flag defaults to whether kind, its sibling, is "big";
// (configuration, plan, state of the two) → flag's plan.
func TestDefaultFrom(t *testing.T) {
	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"flag": schema.BoolAttribute{Optional: true, Computed: true},
		"kind": schema.StringAttribute{Optional: true, Computed: true},
	}}
	typ := s.Type().TerraformType(ctx)
	obj := func(flag, kind any) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{
			"flag": tftypes.NewValue(tftypes.Bool, flag), "kind": tftypes.NewValue(tftypes.String, kind),
		})
	}
	unknown := tftypes.UnknownValue
	rule := planmodifiers.DefaultFrom("kind", "Defaults to whether kind is big.", func(v attr.Value) attr.Value {
		return types.BoolValue(v.(types.String).ValueString() == "big")
	})
	for name, tc := range map[string]struct {
		config, plan, state tftypes.Value
		want                types.Bool
	}{
		"set: the configuration's": {
			config: obj(false, "big"), plan: obj(false, "big"), state: obj(true, "big"), want: types.BoolValue(false),
		},
		"the sibling set": {
			config: obj(nil, "big"), plan: obj(unknown, "big"), state: obj(false, "small"), want: types.BoolValue(true),
		},
		"the sibling's plan known (a default, or an unmarked plan)": {
			config: obj(nil, nil), plan: obj(unknown, "big"), state: obj(false, "small"), want: types.BoolValue(true),
		},
		"the sibling's plan unknown (marked): the state's": {
			config: obj(nil, nil), plan: obj(unknown, unknown), state: obj(true, "big"), want: types.BoolValue(true),
		},
		"create, the sibling left out: none": {
			config: obj(nil, nil), plan: obj(unknown, unknown), state: tftypes.NewValue(typ, nil), want: types.BoolValue(false),
		},
		"the sibling unknown until the apply": {
			config: obj(nil, unknown), plan: obj(unknown, unknown), state: obj(true, "big"), want: types.BoolUnknown(),
		},
	} {
		t.Run(name, func(t *testing.T) {
			at := path.Root("flag")
			req := planmodifier.BoolRequest{
				Path:   at,
				Config: tfsdk.Config{Schema: s, Raw: tc.config},
				Plan:   tfsdk.Plan{Schema: s, Raw: tc.plan},
				State:  tfsdk.State{Schema: s, Raw: tc.state},
			}
			diags := req.Config.GetAttribute(ctx, at, &req.ConfigValue)
			diags.Append(req.Plan.GetAttribute(ctx, at, &req.PlanValue)...)
			if diags.Append(req.State.GetAttribute(ctx, at, &req.StateValue)...); diags.HasError() {
				t.Fatal(diags)
			}
			resp := planmodifier.BoolResponse{PlanValue: req.PlanValue}
			rule.PlanModifyBool(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("plan %v, want %v", resp.PlanValue, tc.want)
			}
		})
	}
}
