package planmodifiers_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planmodifiers"
)

// The object of the tests: a setting of the configuration (flag, optional),
// a value the tenant fills (lifetime, optional and computed) and an object
// inside, optional and computed, with a setting (allow, required) and a
// value the tenant fills (binding).
var (
	dTypes  = map[string]attr.Type{"allow": types.BoolType, "binding": types.StringType}
	stTypes = map[string]attr.Type{"flag": types.BoolType, "lifetime": types.StringType, "d": types.ObjectType{AttrTypes: dTypes}}
	unknown = struct{}{}
)

// value is a string or bool value of v: nil is null, unknown unknown.
func value(t attr.Type, v any) attr.Value {
	switch {
	case v == nil && t == types.BoolType:
		return types.BoolNull()
	case v == nil:
		return types.StringNull()
	case v == unknown && t == types.BoolType:
		return types.BoolUnknown()
	case v == unknown:
		return types.StringUnknown()
	case t == types.BoolType:
		return types.BoolValue(v.(bool))
	}
	return types.StringValue(v.(string))
}

// d is the object inside: nil null, unknown unknown, else {allow = true,
// binding}.
func d(v any, binding any) types.Object {
	switch v {
	case nil:
		return types.ObjectNull(dTypes)
	case unknown:
		return types.ObjectUnknown(dTypes)
	}
	return types.ObjectValueMust(dTypes, map[string]attr.Value{"allow": types.BoolValue(true), "binding": value(types.StringType, binding)})
}

func st(flag, lifetime any, inside types.Object) types.Object {
	return types.ObjectValueMust(stTypes, map[string]attr.Value{
		"flag": value(types.BoolType, flag), "lifetime": value(types.StringType, lifetime), "d": inside,
	})
}

// TestKeepFilled: (configuration, the framework's plan, state) → plan. The
// plan marks unknown every computed value the configuration leaves out, as
// the framework does once anything in the resource changes.
func TestKeepFilled(t *testing.T) {
	ctx := context.Background()
	none := types.ObjectNull(stTypes)
	for name, tc := range map[string]struct {
		create                    bool
		cleared                   []string
		config, plan, state, want types.Object
	}{
		"create: what the tenant fills is known after apply": {
			create: true,
			config: st(true, nil, d(nil, nil)), plan: st(true, unknown, d(unknown, nil)), state: none,
			want: st(true, unknown, d(unknown, nil)),
		},
		"left out: the state's object": {
			config: none, plan: types.ObjectUnknown(stTypes), state: st(true, nil, d(true, "ip")),
			want: st(true, nil, d(true, "ip")),
		},
		"left out, the state has none: null": {
			config: none, plan: types.ObjectUnknown(stTypes), state: none, want: none,
		},
		"unknown in the configuration: left alone": {
			config: types.ObjectUnknown(stTypes), plan: types.ObjectUnknown(stTypes), state: st(true, "x", d(nil, nil)),
			want: types.ObjectUnknown(stTypes),
		},
		"added now: the tenant fills it": {
			config: st(true, nil, d(nil, nil)), plan: st(true, unknown, d(unknown, nil)), state: none,
			want: st(true, unknown, d(unknown, nil)),
		},
		"not sent: a value and a null the tenant answered are kept": {
			config: st(true, nil, d(nil, nil)), plan: st(true, unknown, d(unknown, nil)), state: st(true, nil, d(true, "ip")),
			want: st(true, nil, d(true, "ip")),
		},
		"not sent: a null two levels down is kept": {
			config: st(true, nil, d(true, nil)), plan: st(true, unknown, d(true, unknown)), state: st(true, "36000", d(true, nil)),
			want: st(true, "36000", d(true, nil)),
		},
		"sent (a setting changed): a value is kept, a null is known after apply": {
			config: st(false, nil, d(nil, nil)), plan: st(false, unknown, d(unknown, nil)), state: st(true, nil, d(true, "ip")),
			want: st(false, unknown, d(true, "ip")),
		},
		"sent (a setting removed): a null is known after apply": {
			config: st(nil, nil, d(nil, nil)), plan: st(nil, unknown, d(unknown, nil)), state: st(true, nil, d(nil, nil)),
			want: st(nil, unknown, types.ObjectUnknown(dTypes)),
		},
		"sent (an object inside changed): a null two levels down is known after apply": {
			config: st(true, nil, d(true, "asn")), plan: st(true, unknown, d(true, "asn")), state: st(true, nil, d(true, nil)),
			want: st(true, unknown, d(true, "asn")),
		},
		"sent: a null two levels down is known after apply": {
			config: st(false, nil, d(true, nil)), plan: st(false, unknown, d(true, unknown)), state: st(true, "36000", d(true, nil)),
			want: st(false, "36000", d(true, unknown)),
		},
		"sent, a setting unknown until the apply: nulls are known after apply": {
			config: st(unknown, nil, d(nil, nil)), plan: st(unknown, unknown, d(unknown, nil)), state: st(true, nil, d(true, "ip")),
			want: st(unknown, unknown, d(true, "ip")),
		},
		"cleared, left out while the state holds one: known after apply, the object sent": {
			cleared: []string{"lifetime"},
			config:  st(true, nil, d(true, nil)), plan: st(true, unknown, d(true, unknown)), state: st(true, "36000", d(true, nil)),
			want: st(true, unknown, d(true, unknown)),
		},
		"cleared, left out in an unmarked plan: known after apply": {
			cleared: []string{"lifetime"},
			config:  st(true, nil, d(nil, nil)), plan: st(true, "36000", d(true, nil)), state: st(true, "36000", d(true, nil)),
			want: st(true, unknown, d(true, nil)),
		},
		"cleared, left out while the state holds none: none": {
			cleared: []string{"lifetime"},
			config:  st(true, nil, d(true, nil)), plan: st(true, unknown, d(true, unknown)), state: st(true, nil, d(true, nil)),
			want: st(true, nil, d(true, nil)),
		},
		"cleared, set: the configuration's": {
			cleared: []string{"lifetime"},
			config:  st(true, "60", d(true, nil)), plan: st(true, "60", d(true, unknown)), state: st(true, "36000", d(true, nil)),
			want: st(true, "60", d(true, unknown)),
		},
		"cleared, on create: none": {
			create: true, cleared: []string{"lifetime"},
			config: st(true, nil, d(nil, nil)), plan: st(true, unknown, d(unknown, nil)), state: none,
			want: st(true, nil, d(unknown, nil)),
		},
		"nothing marked: the plan stays": {
			config: st(true, nil, d(nil, nil)), plan: st(true, nil, d(true, "ip")), state: st(true, nil, d(true, "ip")),
			want: st(true, nil, d(true, "ip")),
		},
	} {
		t.Run(name, func(t *testing.T) {
			stateRaw := tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})
			if tc.create {
				stateRaw = tftypes.NewValue(tftypes.Object{}, nil)
			}
			req := planmodifier.ObjectRequest{
				State:       tfsdk.State{Raw: stateRaw},
				ConfigValue: tc.config,
				PlanValue:   tc.plan,
				StateValue:  tc.state,
			}
			resp := planmodifier.ObjectResponse{PlanValue: req.PlanValue}
			planmodifiers.KeepFilled(tc.cleared...).PlanModifyObject(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("plan\n %v\nwant\n %v", resp.PlanValue, tc.want)
			}
		})
	}
}
