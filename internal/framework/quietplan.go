package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KeepStateWhenUnchanged makes the plan of an update the state when the
// plan changes nothing: every known value equals the state's and every
// unknown stands where the configuration is null. The framework marks each
// computed value the configuration leaves out unknown as soon as the
// proposed state differs from the prior state anywhere, and Terraform
// proposes null for an optional and computed nested object the
// configuration leaves out when the state's object holds a required
// attribute; plan modifiers bring the known values back, but not a value
// that is null in the state, which then shows "known after apply" at every
// plan. Only unknowns inside an attribute count as such marks: an
// attribute that is unknown as a whole is a plan modifier's word that the
// apply will change it (a secret to fetch), and is left alone. Call it
// first in ModifyPlan.
func KeepStateWhenUnchanged(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var plan, state, config map[string]tftypes.Value
	if req.Plan.Raw.As(&plan) != nil || req.State.Raw.As(&state) != nil || req.Config.Raw.As(&config) != nil {
		return
	}
	for name, p := range plan {
		if !p.IsKnown() || !onlyUnknownsDiffer(child(config, name, p), p, state[name]) {
			return
		}
	}
	resp.Plan.Raw = req.State.Raw.Copy()
}

// onlyUnknownsDiffer reports whether plan equals state but for unknowns
// where config is null. A config value that is itself unknown (it depends
// on another resource) is a change to come.
func onlyUnknownsDiffer(config, plan, state tftypes.Value) bool {
	switch {
	case !plan.IsKnown():
		return config.IsNull()
	case plan.IsFullyKnown():
		return plan.Equal(state)
	case state.IsNull() || !state.IsKnown() || !config.IsKnown():
		return false
	}
	typ := plan.Type()
	switch {
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var p, s, c map[string]tftypes.Value
		if plan.As(&p) != nil || state.As(&s) != nil || (!config.IsNull() && config.As(&c) != nil) || len(p) != len(s) {
			return false
		}
		for k, pv := range p {
			sv, ok := s[k]
			if !ok || !onlyUnknownsDiffer(child(c, k, pv), pv, sv) {
				return false
			}
		}
		return true
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Tuple{}):
		var p, s, c []tftypes.Value
		if plan.As(&p) != nil || state.As(&s) != nil || (!config.IsNull() && config.As(&c) != nil) || len(p) != len(s) {
			return false
		}
		for i, pv := range p {
			cv := tftypes.NewValue(pv.Type(), nil)
			if i < len(c) {
				cv = c[i]
			}
			if !onlyUnknownsDiffer(cv, pv, s[i]) {
				return false
			}
		}
		return true
	}
	// A set's elements cannot be paired with the state's.
	return false
}

// child is config's value at key, null when config is null or lacks it.
func child(config map[string]tftypes.Value, key string, plan tftypes.Value) tftypes.Value {
	if v, ok := config[key]; ok {
		return v
	}
	return tftypes.NewValue(plan.Type(), nil)
}
