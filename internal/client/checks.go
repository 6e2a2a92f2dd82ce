package client

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
)

// ValidateConfig checks the rules that span attributes, before any
// request: organization_discovery_methods needs organization_require_behavior
// pre_login_prompt [S].
func (r *clientResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var methods types.List
	var behavior types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("organization_discovery_methods"), &methods)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("organization_require_behavior"), &behavior)...); resp.Diagnostics.HasError() {
		return
	}
	if !methods.IsNull() && flex.IsSet(behavior) && behavior.ValueString() != "pre_login_prompt" {
		resp.Diagnostics.AddAttributeError(path.Root("organization_discovery_methods"), "Invalid attribute combination", fmt.Sprintf(
			"Attribute organization_discovery_methods is used only with organization_require_behavior = \"pre_login_prompt\", got %q. "+
				"Set organization_require_behavior to \"pre_login_prompt\" or remove organization_discovery_methods.", behavior.ValueString()))
	}
}

// ModifyPlan plans grant_types, whose rule looks at the whole plan (see
// planGrantTypes), and warns, at plan time, about a client the tenant would
// not let run a custom token exchange: token_exchange allows
// custom_authentication, but the client is not first-party or not
// OIDC-conformant (token-exchange-flow.md §1). It warns rather than fails:
// the requirement is reported [R], not observed, and whether the tenant
// refuses the setting or only the exchange is not known. It needs no
// request.
func (r *clientResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	planGrantTypes(ctx, req, resp)
	var exchange types.Object
	if resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("token_exchange"), &exchange)...); resp.Diagnostics.HasError() {
		return
	}
	if !(clientModel{TokenExchange: exchange}).allowsProfileType(ctx, "custom_authentication") {
		return
	}
	var firstParty, conformant types.Bool
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("is_first_party"), &firstParty)...)
	if resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("oidc_conformant"), &conformant)...); resp.Diagnostics.HasError() {
		return
	}
	var unfit []string
	if flex.IsSet(firstParty) && !firstParty.ValueBool() {
		unfit = append(unfit, "is_first_party = false")
	}
	if flex.IsSet(conformant) && !conformant.ValueBool() {
		unfit = append(unfit, "oidc_conformant = false")
	}
	if len(unfit) == 0 {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("token_exchange"), "Custom token exchange on an unfit client", fmt.Sprintf(
		"token_exchange allows custom_authentication, but the client has %s. The tenant runs custom token exchanges only for "+
			"first-party, OIDC-conformant clients, so it may refuse this setting or the exchanges. Set is_first_party = true and "+
			"oidc_conformant = true.", joinAnd(unfit)))
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return fmt.Sprintf("%s and %s", items[0], items[1])
}
