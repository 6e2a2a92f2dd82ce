package framework_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var (
	jwtType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"alg": tftypes.String, "lifetime": tftypes.Number}}
	objType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"name": tftypes.String,
		"jwt":  jwtType,
		"urls": tftypes.List{ElementType: tftypes.String},
	}}
	unknownNumber = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	nullNumber    = tftypes.NewValue(tftypes.Number, nil)
)

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func jwt(alg, lifetime tftypes.Value) tftypes.Value {
	return tftypes.NewValue(jwtType, map[string]tftypes.Value{"alg": alg, "lifetime": lifetime})
}

func obj(name string, jwt tftypes.Value, urls ...tftypes.Value) tftypes.Value {
	l := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)
	if urls != nil {
		l = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, urls)
	}
	return tftypes.NewValue(objType, map[string]tftypes.Value{"name": str(name), "jwt": jwt, "urls": l})
}

// withName is o with its name replaced.
func withName(o, name tftypes.Value) tftypes.Value {
	var old map[string]tftypes.Value
	if err := o.As(&old); err != nil {
		panic(err)
	}
	attrs := map[string]tftypes.Value{"name": name}
	for k, v := range old {
		if k != "name" {
			attrs[k] = v
		}
	}
	return tftypes.NewValue(objType, attrs)
}

// TestKeepStateWhenUnchanged_set: a set's elements cannot be paired with
// the state's, so a set holding an unknown leaves the plan alone.
func TestKeepStateWhenUnchanged_set(t *testing.T) {
	setType := tftypes.Set{ElementType: tftypes.String}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"names": setType}}
	of := func(v tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"names": v})
	}
	state := of(tftypes.NewValue(setType, []tftypes.Value{str("a")}))
	plan := of(tftypes.NewValue(setType, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}))
	if got := keepStateWhenUnchanged(of(tftypes.NewValue(setType, nil)), plan, state); !got.Equal(plan) {
		t.Errorf("plan changed to %v, want it left as %v", got, plan)
	}
}

// keepStateWhenUnchanged is the plan KeepStateWhenUnchanged makes.
func keepStateWhenUnchanged(config, plan, state tftypes.Value) tftypes.Value {
	req := resource.ModifyPlanRequest{Config: tfsdk.Config{Raw: config}, Plan: tfsdk.Plan{Raw: plan}, State: tfsdk.State{Raw: state}}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	framework.KeepStateWhenUnchanged(req, &resp)
	return resp.Plan.Raw
}

func TestKeepStateWhenUnchanged(t *testing.T) {
	state := obj("a", jwt(str("RS256"), nullNumber), str("https://a"))
	nullJWT := tftypes.NewValue(jwtType, nil)
	for name, tc := range map[string]struct {
		config, plan, state tftypes.Value
		wantState           bool
	}{
		"unknown where the configuration is null": {
			config:    obj("a", jwt(str("RS256"), nullNumber), str("https://a")),
			plan:      obj("a", jwt(str("RS256"), unknownNumber), str("https://a")),
			state:     state,
			wantState: true,
		},
		"an object unknown as a whole": {
			config: obj("a", nullJWT, str("https://a")),
			plan:   obj("a", tftypes.NewValue(jwtType, tftypes.UnknownValue), str("https://a")),
			state:  state,
		},
		"unknown list element the configuration leaves out": {
			config:    obj("a", nullJWT),
			plan:      obj("a", jwt(str("RS256"), nullNumber), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)),
			state:     state,
			wantState: true,
		},
		"unknown in the configuration": {
			config: obj("a", jwt(str("RS256"), unknownNumber), str("https://a")),
			plan:   obj("a", jwt(str("RS256"), unknownNumber), str("https://a")),
			state:  state,
		},
		"a known change beside the unknown": {
			config: obj("b", jwt(str("RS256"), nullNumber), str("https://a")),
			plan:   obj("b", jwt(str("RS256"), unknownNumber), str("https://a")),
			state:  state,
		},
		"a known change inside the object": {
			config: obj("a", jwt(str("HS256"), nullNumber), str("https://a")),
			plan:   obj("a", jwt(str("HS256"), unknownNumber), str("https://a")),
			state:  state,
		},
		"a list of another length": {
			config: obj("a", nullJWT),
			plan: obj("a", jwt(str("RS256"), nullNumber),
				tftypes.NewValue(tftypes.String, tftypes.UnknownValue), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)),
			state: state,
		},
		"an attribute unknown as a whole": {
			config: withName(obj("a", nullJWT, str("https://a")), tftypes.NewValue(tftypes.String, nil)),
			plan:   withName(state, tftypes.NewValue(tftypes.String, tftypes.UnknownValue)),
			state:  state,
		},
		"a create": {
			config: obj("a", nullJWT),
			plan:   obj("a", tftypes.NewValue(jwtType, tftypes.UnknownValue)),
			state:  tftypes.NewValue(objType, nil),
		},
	} {
		t.Run(name, func(t *testing.T) {
			planned := keepStateWhenUnchanged(tc.config, tc.plan, tc.state)
			if got := planned.Equal(tc.state); got != tc.wantState {
				t.Errorf("plan is the state: %v, want %v; plan %v", got, tc.wantState, planned)
			}
			if !tc.wantState && !planned.Equal(tc.plan) {
				t.Errorf("plan changed to %v, want it left as %v", planned, tc.plan)
			}
		})
	}
}
