package client

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// keepNestedSchema has a top-level object ("st") with a setting, a value
// of its own and an object inside ("d") with a value two levels down.
var keepNestedSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"st": schema.SingleNestedAttribute{Optional: true, Computed: true, Attributes: map[string]schema.Attribute{
		"flag":     schema.BoolAttribute{Optional: true},
		"lifetime": schema.StringAttribute{Optional: true, Computed: true},
		"d": schema.SingleNestedAttribute{Optional: true, Computed: true, Attributes: map[string]schema.Attribute{
			"allow":   schema.BoolAttribute{Optional: true},
			"binding": schema.StringAttribute{Optional: true, Computed: true},
		}},
	}},
}}

var (
	dType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"allow": tftypes.Bool, "binding": tftypes.String}}
	stType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"flag": tftypes.Bool, "lifetime": tftypes.String, "d": dType}}
	top    = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"st": stType}}
	unk    = tftypes.UnknownValue
)

// st is the resource with st = {flag, lifetime, d}; d nil is a null d,
// else {allow = true, binding}.
func st(flag, lifetime, binding any, d bool) tftypes.Value {
	dv := tftypes.NewValue(dType, nil)
	if d {
		dv = tftypes.NewValue(dType, map[string]tftypes.Value{"allow": tftypes.NewValue(tftypes.Bool, true), "binding": tftypes.NewValue(tftypes.String, binding)})
	}
	return tftypes.NewValue(top, map[string]tftypes.Value{"st": tftypes.NewValue(stType, map[string]tftypes.Value{
		"flag": tftypes.NewValue(tftypes.Bool, flag), "lifetime": tftypes.NewValue(tftypes.String, lifetime), "d": dv,
	})})
}

func TestKeepNested(t *testing.T) {
	ctx := context.Background()
	binding := path.Root("st").AtName("d").AtName("binding")
	lifetime := path.Root("st").AtName("lifetime")
	for name, tc := range map[string]struct {
		at                  path.Path
		config, plan, state tftypes.Value
		wantKept            bool
	}{
		"two levels down, nothing sent": {
			at: binding, config: st(true, nil, nil, true), plan: st(true, unk, unk, true), state: st(true, nil, nil, true), wantKept: true,
		},
		"two levels down, the top-level object changed": {
			at: binding, config: st(false, nil, nil, true), plan: st(false, unk, unk, true), state: st(true, nil, nil, true),
		},
		"two levels down, the object added now": {
			at: binding, config: st(true, nil, nil, true), plan: st(true, unk, unk, true), state: st(true, nil, nil, false),
		},
		"one level down, nothing sent": {
			at: lifetime, config: st(true, nil, nil, false), plan: st(true, unk, nil, false), state: st(true, nil, nil, false), wantKept: true,
		},
		"one level down, a setting removed": {
			at: lifetime, config: st(nil, nil, nil, false), plan: st(nil, unk, nil, false), state: st(true, nil, nil, false),
		},
		"one level down, an object inside changed": {
			at: lifetime, config: st(true, nil, "asn", true), plan: st(true, unk, "asn", true), state: st(true, nil, "ip", true),
		},
	} {
		t.Run(name, func(t *testing.T) {
			req := planmodifier.StringRequest{
				Path:   tc.at,
				Config: tfsdk.Config{Schema: keepNestedSchema, Raw: tc.config},
				Plan:   tfsdk.Plan{Schema: keepNestedSchema, Raw: tc.plan},
				State:  tfsdk.State{Schema: keepNestedSchema, Raw: tc.state},
			}
			diags := req.Config.GetAttribute(ctx, tc.at, &req.ConfigValue)
			diags.Append(req.Plan.GetAttribute(ctx, tc.at, &req.PlanValue)...)
			if diags.Append(req.State.GetAttribute(ctx, tc.at, &req.StateValue)...); diags.HasError() {
				t.Fatal(diags)
			}
			resp := planmodifier.StringResponse{PlanValue: req.PlanValue}
			keepNested{}.PlanModifyString(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			if kept := !resp.PlanValue.IsUnknown(); kept != tc.wantKept {
				t.Errorf("kept = %v, want %v (plan %v)", kept, tc.wantKept, resp.PlanValue)
			}
		})
	}
}
