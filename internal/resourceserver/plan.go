package resourceserver

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// webLifetimePlan plans token_lifetime_for_web when the configuration leaves
// it unset: the tenant's 7200 seconds, but never more than token_lifetime,
// which the API requires (reference §4). The plan then shows the value the
// API will hold, and a shorter token_lifetime brings it down in the same
// request instead of being refused for a value the user never wrote.
type webLifetimePlan struct{}

func (webLifetimePlan) Description(context.Context) string {
	return "Defaults to 7200, or to token_lifetime when that is shorter."
}

func (m webLifetimePlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (webLifetimePlan) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var life types.Int64
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("token_lifetime"), &life)...); resp.Diagnostics.HasError() {
		return
	}
	if life.IsUnknown() {
		resp.PlanValue = types.Int64Unknown()
		return
	}
	resp.PlanValue = types.Int64Value(min(defaultTokenLifetimeForWeb, life.ValueInt64()))
}

// thumbprintPlan keeps the key's thumbprint while its PEM is unchanged; a new
// PEM gets the thumbprint the tenant computes (unknown until apply).
type thumbprintPlan struct{}

func (thumbprintPlan) Description(context.Context) string {
	return "Known after apply when the key's PEM changes; otherwise unchanged."
}

func (m thumbprintPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (thumbprintPlan) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.StateValue.IsNull() {
		return
	}
	pemPath := req.Path.ParentPath().AtName("pem")
	var planPEM, statePEM types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pemPath, &planPEM)...)
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, pemPath, &statePEM)...); resp.Diagnostics.HasError() {
		return
	}
	if !planPEM.IsUnknown() && planPEM.Equal(statePEM) {
		resp.PlanValue = req.StateValue
	}
}

// enforcePoliciesPlan plans enforce_policies when the configuration leaves
// it unset. On create the tenant decides (unknown until apply: a new API
// shows it omitted, which means not enforced, reference §4; another tenant
// may fill it in). After that the state's value is kept, but for true:
// removing enforce_policies = true turns enforcement off, as on an API that
// never set it, by sending false (the API has no documented way to clear
// the field, and false is what the tenant then shows).
type enforcePoliciesPlan struct{}

func (enforcePoliciesPlan) Description(context.Context) string {
	return "Not enforced when not set; removing true turns enforcement off."
}

func (m enforcePoliciesPlan) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (enforcePoliciesPlan) PlanModifyBool(_ context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	resp.PlanValue = req.StateValue
	if req.StateValue.ValueBool() {
		resp.PlanValue = types.BoolValue(false)
	}
}
