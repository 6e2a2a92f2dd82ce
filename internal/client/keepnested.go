package client

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// keepNested is the plan modifier of an optional and computed value inside
// an object, left out of the configuration: the state's value when the
// state holds one. A null in the state is the tenant's answer too (it
// leaves the value out) and is kept, while the enclosing object is in the
// state, as long as the update does not send the top-level attribute the
// value is in (the PATCH sends a top-level object whole): what the
// configuration sets in it is what the state holds and nothing set in the
// state is removed. When the attribute is sent, or the object added now,
// the tenant's value is unknown until the apply. It is for values whose
// enclosing object is a single nested attribute (read as an object).
type keepNested struct{}

func (keepNested) Description(context.Context) string {
	return "Keeps the state's value while the top-level attribute it is in is not sent."
}

func (m keepNested) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m keepNested) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if m.keep(ctx, req.Path, req.Config, req.Plan, req.State, req.ConfigValue, req.PlanValue, req.StateValue, &resp.Diagnostics) {
		resp.PlanValue = req.StateValue
	}
}

func (m keepNested) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if m.keep(ctx, req.Path, req.Config, req.Plan, req.State, req.ConfigValue, req.PlanValue, req.StateValue, &resp.Diagnostics) {
		resp.PlanValue = req.StateValue
	}
}

func (m keepNested) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if m.keep(ctx, req.Path, req.Config, req.Plan, req.State, req.ConfigValue, req.PlanValue, req.StateValue, &resp.Diagnostics) {
		resp.PlanValue = req.StateValue
	}
}

func (m keepNested) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if m.keep(ctx, req.Path, req.Config, req.Plan, req.State, req.ConfigValue, req.PlanValue, req.StateValue, &resp.Diagnostics) {
		resp.PlanValue = req.StateValue
	}
}

func (m keepNested) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if m.keep(ctx, req.Path, req.Config, req.Plan, req.State, req.ConfigValue, req.PlanValue, req.StateValue, &resp.Diagnostics) {
		resp.PlanValue = req.StateValue
	}
}

// keep reports whether the plan of the value at p is the state's.
func (keepNested) keep(ctx context.Context, p path.Path, config tfsdk.Config, plan tfsdk.Plan, state tfsdk.State,
	configValue, planValue, stateValue attr.Value, diags *diag.Diagnostics) bool {
	switch {
	case state.Raw.IsNull() || !planValue.IsUnknown() || configValue.IsUnknown():
		return false
	case !stateValue.IsNull():
		return true
	}
	parent := p.ParentPath()
	name, ok := p.Steps()[0].(path.PathStepAttributeName)
	if len(parent.Steps()) == 0 || !ok {
		return false // a top-level value: no enclosing object
	}
	var enclosing, inConfig, inPlan, inState types.Object
	if diags.Append(state.GetAttribute(ctx, parent, &enclosing)...); diags.HasError() || enclosing.IsNull() {
		return false
	}
	top := path.Root(string(name))
	diags.Append(config.GetAttribute(ctx, top, &inConfig)...)
	diags.Append(plan.GetAttribute(ctx, top, &inPlan)...)
	if diags.Append(state.GetAttribute(ctx, top, &inState)...); diags.HasError() {
		return false
	}
	return unsent(inConfig, inPlan, inState)
}

// unsent reports whether an object whose configuration, plan and state are
// given stays as the state holds it: every value the configuration sets is
// the state's (objects compared value by value), and none the state holds
// is planned null (an optional value removed).
func unsent(config, plan, state types.Object) bool {
	if config.IsUnknown() || plan.IsUnknown() {
		return false
	}
	if config.IsNull() {
		return true
	}
	c, p, s := config.Attributes(), plan.Attributes(), state.Attributes()
	for name, cv := range c {
		pv, sv := p[name], s[name]
		switch {
		case cv.IsUnknown():
			return false
		case cv.IsNull():
			if pv != nil && pv.IsNull() && sv != nil && !sv.IsNull() {
				return false
			}
		default:
			co, isObject := cv.(types.Object)
			po, _ := pv.(types.Object)
			so, _ := sv.(types.Object)
			if isObject && !so.IsNull() {
				if !unsent(co, po, so) {
					return false
				}
			} else if !cv.Equal(sv) {
				return false
			}
		}
	}
	return true
}
