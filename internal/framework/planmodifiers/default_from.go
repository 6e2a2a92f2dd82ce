package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// DefaultFrom is the rule of an optional and computed attribute whose
// default follows another attribute of the same object (sibling): when the
// configuration leaves it out, the plan is def of the sibling's planned
// value, and known after apply while that value is. The sibling's planned
// value is the configuration's when set, else the plan's when known (a
// default of its own, or the state's in a plan the framework left
// unmarked), else the state's (null on create): a sibling the
// configuration leaves out either has a default or keeps the state's
// value, and is none on create unless it has a default. def gets a known value
// (null included) and returns the attribute's type: a types.Bool for
// PlanModifyBool, a types.Set for PlanModifySet. desc says the rule.
func DefaultFrom(sibling, desc string, def func(attr.Value) attr.Value) DefaultFromModifier {
	return DefaultFromModifier{sibling: sibling, desc: desc, def: def}
}

// DefaultFromModifier is DefaultFrom's modifier, for each type it plans.
type DefaultFromModifier struct {
	sibling, desc string
	def           func(attr.Value) attr.Value
}

var (
	_ planmodifier.Bool = DefaultFromModifier{}
	_ planmodifier.Set  = DefaultFromModifier{}
)

func (m DefaultFromModifier) Description(context.Context) string { return m.desc }

func (m DefaultFromModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m DefaultFromModifier) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	resp.PlanValue = types.BoolUnknown()
	if v, known := m.planned(ctx, req.Path, req.Config, req.Plan, req.State, &resp.Diagnostics); known {
		resp.PlanValue, _ = m.def(v).(types.Bool)
	}
}

func (m DefaultFromModifier) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	resp.PlanValue = types.SetUnknown(req.PlanValue.ElementType(ctx))
	if v, known := m.planned(ctx, req.Path, req.Config, req.Plan, req.State, &resp.Diagnostics); known {
		resp.PlanValue, _ = m.def(v).(types.Set)
	}
}

// planned is the sibling's planned value, and whether it is known.
func (m DefaultFromModifier) planned(ctx context.Context, p path.Path, config tfsdk.Config, plan tfsdk.Plan, state tfsdk.State,
	diags *diag.Diagnostics) (attr.Value, bool) {
	at := p.ParentPath().AtName(m.sibling)
	var v attr.Value
	diags.Append(config.GetAttribute(ctx, at, &v)...)
	if !diags.HasError() && v.IsNull() {
		diags.Append(plan.GetAttribute(ctx, at, &v)...)
		if !diags.HasError() && v.IsUnknown() {
			diags.Append(state.GetAttribute(ctx, at, &v)...)
		}
	}
	return v, !diags.HasError() && !v.IsUnknown()
}
