package tokenexchangeprofile

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
)

// namePlan plans name when the configuration leaves it unset. A profile
// that exists keeps its name: the tenant has no default name to return to.
// A create must send one (reference §1: all four fields are required), so
// it is the subject token type, cut to the 50 characters a name may have
// (a subject token type has at least 8, a name needs 3).
type namePlan struct{}

func (namePlan) Description(context.Context) string {
	return "The subject token type on create; otherwise the profile's name is kept."
}

func (m namePlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (namePlan) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if !req.State.Raw.IsNull() {
		resp.PlanValue = req.StateValue
		return
	}
	var sst types.String
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("subject_token_type"), &sst)...); resp.Diagnostics.HasError() {
		return
	}
	resp.PlanValue = nameFor(sst)
}

// nameFor is the name of a profile created for sst without one.
func nameFor(sst types.String) types.String {
	if !flex.IsSet(sst) {
		return types.StringUnknown()
	}
	r := []rune(sst.ValueString())
	return types.StringValue(string(r[:min(len(r), 50)]))
}
