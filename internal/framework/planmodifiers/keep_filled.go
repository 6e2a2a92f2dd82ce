// Package planmodifiers holds the plan rules more than one resource follows,
// one modifier a file; each resource's schema says which attribute follows
// which.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// KeepFilled is the rule of a top-level object whose optional and computed
// values the tenant fills when the configuration leaves them out, and that a
// PATCH sends whole:
//
//   - left out of the configuration (an optional and computed object), the
//     object is the state's;
//   - a value inside that the configuration leaves out is the state's when
//     the state holds one: the request sends it back if it sends the object;
//   - a value the tenant answered none for (null in the state) stays null
//     while the update does not send the object (what the configuration sets
//     in it is the state's, and nothing the state holds is removed), and is
//     known after apply when it sends it, since the tenant may fill it then;
//   - in an object added now, or on create, what the tenant fills is known
//     after apply.
//
// The framework marks every computed value the configuration leaves out
// unknown as soon as anything in the resource changes (and Terraform
// proposes null for an optional and computed object whose state holds a
// required value, which counts as a change): this rule settles each such
// mark inside the object, at the object, so the values inside need no
// modifier of their own.
func KeepFilled() planmodifier.Object { return keepFilled{} }

type keepFilled struct{}

func (keepFilled) Description(context.Context) string {
	return "Keeps the state's values of the object, and a null the tenant answered while the object is not sent."
}

func (m keepFilled) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (keepFilled) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	switch {
	case req.State.Raw.IsNull() || req.ConfigValue.IsUnknown():
		return
	case req.PlanValue.IsUnknown():
		if req.ConfigValue.IsNull() {
			resp.PlanValue = req.StateValue
		}
		return
	case req.PlanValue.IsNull() || req.StateValue.IsNull():
		return
	}
	kept := fill(ctx, req.ConfigValue, req.PlanValue, req.StateValue, true)
	if kept.Equal(req.StateValue) {
		resp.PlanValue = kept
		return
	}
	resp.PlanValue = fill(ctx, req.ConfigValue, req.PlanValue, req.StateValue, false)
}

// fill is plan with each unknown the configuration leaves out settled: the
// state's value, a null one only with keepNulls. Objects inside that the
// configuration, the plan and the state all hold are filled alike (the
// framework marks a computed object the configuration leaves out unknown as
// a whole, so an unknown inside stands where the configuration sets the
// object).
func fill(ctx context.Context, config, plan, state types.Object, keepNulls bool) types.Object {
	c, p, s := config.Attributes(), plan.Attributes(), state.Attributes()
	for name, pv := range p {
		cv, sv := c[name], s[name]
		if cv == nil || sv == nil || cv.IsUnknown() {
			continue
		}
		if pv.IsUnknown() {
			if cv.IsNull() && (keepNulls || !sv.IsNull()) {
				p[name] = sv
			}
			continue
		}
		co, isObject := cv.(types.Object)
		po, _ := pv.(types.Object)
		so, _ := sv.(types.Object)
		if isObject && !co.IsNull() && !po.IsNull() && !so.IsNull() {
			p[name] = fill(ctx, co, po, so, keepNulls)
		}
	}
	return types.ObjectValueMust(plan.AttributeTypes(ctx), p)
}
