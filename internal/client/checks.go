package client

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
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
	if !methods.IsNull() && isSet(behavior) && behavior.ValueString() != "pre_login_prompt" {
		resp.Diagnostics.AddAttributeError(path.Root("organization_discovery_methods"), "Invalid attribute combination", fmt.Sprintf(
			"Attribute organization_discovery_methods is used only with organization_require_behavior = \"pre_login_prompt\", got %q. "+
				"Set organization_require_behavior to \"pre_login_prompt\" or remove organization_discovery_methods.", behavior.ValueString()))
	}
}

// ModifyPlan keeps the state as the plan when the plan changes nothing (a
// value the tenant left out of an object would show "known after apply" at
// every plan otherwise), and warns, at plan time, about a client the tenant would not let
// run a custom token exchange: token_exchange allows
// custom_authentication, but the client is not first-party or not
// OIDC-conformant (token-exchange-flow.md §1). It warns rather than fails:
// the requirement is reported [R], not observed, and whether the tenant
// refuses the setting or only the exchange is not known. It needs no
// request.
func (r *clientResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	framework.KeepStateWhenUnchanged(req, resp)
	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}
	if !plan.allowsProfileType(ctx, "custom_authentication") {
		return
	}
	var unfit []string
	if isSet(plan.IsFirstParty) && !plan.IsFirstParty.ValueBool() {
		unfit = append(unfit, "is_first_party = false")
	}
	if isSet(plan.OIDCConformant) && !plan.OIDCConformant.ValueBool() {
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

// oidcConformantDefault plans oidc_conformant when the configuration leaves
// it out: the tenant's default for the planned app_type [O: true for
// resource_server and express_configuration clients, false for the
// others].
type oidcConformantDefault struct{}

func (oidcConformantDefault) Description(context.Context) string {
	return "Defaults to true for resource_server and express_configuration clients, false for the others."
}

func (m oidcConformantDefault) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (oidcConformantDefault) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	// The app_type the client will have: the configuration's, else the
	// state's (app_type keeps the tenant's value), else none (the tenant
	// sets none on create [O]). The plan's may not be settled yet.
	var appType types.String
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("app_type"), &appType)...); resp.Diagnostics.HasError() {
		return
	}
	if appType.IsNull() && !req.State.Raw.IsNull() {
		if resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("app_type"), &appType)...); resp.Diagnostics.HasError() {
			return
		}
	}
	if appType.IsUnknown() {
		resp.PlanValue = types.BoolUnknown()
		return
	}
	t := appType.ValueString()
	resp.PlanValue = types.BoolValue(t == "resource_server" || t == "express_configuration")
}

// infiniteDefault plans infinite_token_lifetime and
// infinite_idle_token_lifetime when the configuration leaves them out:
// true for non-expiring refresh tokens, false for expiring ones [O].
type infiniteDefault struct{}

func (infiniteDefault) Description(context.Context) string {
	return "Defaults to true for non-expiring refresh tokens and false for expiring ones."
}

func (m infiniteDefault) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (infiniteDefault) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var expiration types.String
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, req.Path.ParentPath().AtName("expiration_type"), &expiration)...); resp.Diagnostics.HasError() {
		return
	}
	if expiration.IsUnknown() || expiration.IsNull() {
		resp.PlanValue = types.BoolUnknown()
		return
	}
	resp.PlanValue = types.BoolValue(expiration.ValueString() != "expiring")
}

// secretPlan plans client_secret: null without client_secret_in_state; known
// after apply on create, when client_secret_in_state is switched on, and
// when client_secret_rotation changes to another value; otherwise the
// state's.
type secretPlan struct{}

func (secretPlan) Description(context.Context) string {
	return "The client secret with client_secret_in_state, known after a create or a rotation."
}

func (m secretPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (secretPlan) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var inState, wasInState types.Bool
	var rotation, prior types.Int64
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("client_secret_in_state"), &inState)...); resp.Diagnostics.HasError() {
		return
	}
	switch {
	case inState.IsUnknown():
		resp.PlanValue = types.StringUnknown()
		return
	case !inState.ValueBool():
		resp.PlanValue = types.StringNull()
		return
	case req.State.Raw.IsNull():
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("client_secret_in_state"), &wasInState)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("client_secret_rotation"), &rotation)...)
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("client_secret_rotation"), &prior)...); resp.Diagnostics.HasError() {
		return
	}
	if !wasInState.ValueBool() || req.StateValue.IsNull() || changed(rotation, prior) && !rotation.IsNull() {
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.PlanValue = req.StateValue
}
