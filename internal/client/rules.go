package client

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planmodifiers"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/planrules"
)

// clientRules are tenant_client's rules: every attribute that a
// configuration may leave out, by class. The schema attaches each rule
// (TestPlanRules_schema checks that they agree, and that the resource's
// page shows this table); TestPlanRules shows each at work.
var clientRules = []planrules.Rule{
	{
		Class:      "assigned",
		Rule:       "The state's value: the tenant sets it.",
		By:         "`UseStateForUnknown`",
		Attributes: []string{"id", "client_id", "client_authentication_methods"},
	},
	{
		Class: "default",
		Rule:  "The tenant's default for a new client; removing the argument returns to it.",
		By:    "the schema's `Default`",
		Attributes: []string{
			"description", "is_first_party", "is_token_endpoint_ip_header_trusted", "sso_disabled", "cross_origin_authentication",
			"custom_login_page_on", "require_pushed_authorization_requests", "require_proof_of_possession", "client_secret_in_state",
			"native_social_login", "native_social_login.apple", "native_social_login.facebook", "native_social_login.google",
			"refresh_token", "refresh_token.rotation_type", "refresh_token.expiration_type", "refresh_token.leeway",
			"refresh_token.token_lifetime", "refresh_token.idle_token_lifetime"},
	},
	{
		Class: "derived default",
		Rule: "The tenant's default for another attribute's planned value (`app_type`, `expiration_type`); " +
			"removing the argument returns to it.",
		By: "`DefaultFrom`",
		Attributes: []string{
			"oidc_conformant", "refresh_token.infinite_token_lifetime", "refresh_token.infinite_idle_token_lifetime"},
	},
	{
		Class: "kept",
		Rule:  "The state's value, none included: removing the argument leaves the tenant's value as it is.",
		By:    "`UseStateForUnknown`",
		Attributes: []string{
			"app_type", "logo_uri", "sso", "cross_origin_loc", "custom_login_page", "custom_login_page_preview", "form_template",
			"token_endpoint_auth_method", "initiate_login_uri", "organization_usage", "organization_require_behavior",
			"third_party_security_mode", "redirection_policy", "fedcm_login", "identity_assertion_authorization_grant"},
	},
	{
		Class:      "kept, filled inside",
		Rule:       "The state's object, as `kept`; inside it, as `filled`.",
		By:         "`KeepFilled`",
		Attributes: []string{"jwt_configuration", "oidc_logout"},
	},
	{
		Class: "filled",
		Rule: "Inside an object the configuration sets: the state's value; where the tenant answered none, none while " +
			"the update does not send the object (nothing the configuration sets in it changes), known after apply when it " +
			"does (the tenant may fill it then) and in an object added now.",
		By: "`KeepFilled` of the top-level object",
		Attributes: []string{"jwt_configuration.alg", "jwt_configuration.lifetime_in_seconds", "jwt_configuration.secret_encoded",
			"oidc_logout.backchannel_logout_initiators", "oidc_logout.backchannel_logout_initiators.selected_initiators",
			"oidc_logout.backchannel_logout_session_metadata",
			"session_transfer.can_create_session_transfer_token", "session_transfer.allowed_authentication_methods",
			"session_transfer.enforce_device_binding", "session_transfer.allow_refresh_token",
			"session_transfer.enforce_online_refresh_tokens", "session_transfer.enforce_cascade_revocation",
			"session_transfer.delegation", "session_transfer.delegation.allow_delegated_access",
			"session_transfer.delegation.enforce_device_binding"},
	},
	{
		Class: "cleared",
		Rule:  "None: removing the argument clears the value on the tenant.",
		By:    "no rule",
		Attributes: []string{
			"callbacks", "allowed_origins", "web_origins", "client_aliases", "allowed_clients", "allowed_logout_urls",
			"client_metadata", "refresh_token.policies", "organization_discovery_methods",
			"compliance_level", "default_organization", "token_exchange", "token_quota", "resource_server_identifier",
			"skip_non_verifiable_callback_uri_confirmation_prompt", "async_approval_notification_channels"},
	},
	{
		Class: "cleared where the tenant lets go",
		Rule: "None: removing the argument sends none and shows it known after apply; a " +
			"tenant that keeps it anyway (one that merges the object into the one it holds) keeps it, the apply warns, and it " +
			"is the state's from then on.",
		By:         "`KeepFilled` of the top-level object",
		Attributes: []string{"jwt_configuration.scopes"},
	},
	{
		Class:      "cleared, filled inside",
		Rule:       "None, as `cleared`; inside an object the configuration sets, as `filled`.",
		By:         "`KeepFilled`",
		Attributes: []string{"session_transfer"},
	},
	{
		Class: "shown",
		Rule: "The state's list, as `kept`; when the state holds none (no answer showed one), none while the update " +
			"changes nothing else, known after apply when it does (its answer may show the list).",
		By:         "`ModifyPlan`",
		Attributes: []string{"grant_types"},
	},
	{
		Class:      "switch",
		Rule:       "None: the resource's own setting, never sent; removing it changes nothing on the tenant.",
		By:         "no rule",
		Attributes: []string{"client_secret_rotation"},
	},
	{
		Class: "secret",
		Rule: "None without `client_secret_in_state`; with it, known after apply on create, when switched on and when " +
			"`client_secret_rotation` changes, else the state's.",
		By:         "`secretPlan`",
		Attributes: []string{"client_secret"},
	},
}

// grantRules are tenant_client_grant's rules, as clientRules.
var grantRules = []planrules.Rule{
	{
		Class:      "assigned",
		Rule:       "The state's value: the tenant sets it.",
		By:         "`UseStateForUnknown`",
		Attributes: []string{"id", "is_system"},
	},
	{
		Class:      "default",
		Rule:       "The tenant's default for a new grant; removing the argument returns to it.",
		By:         "the schema's `Default`",
		Attributes: []string{"allow_all_scopes", "subject_type", "organization_usage", "allow_any_organization"},
	},
	{
		Class:      "derived default",
		Rule:       "None (an empty set), or null with `allow_all_scopes`.",
		By:         "`DefaultFrom`",
		Attributes: []string{"scopes"},
	},
	{
		Class:      "cleared",
		Rule:       "None: removing the argument clears the value on the tenant.",
		By:         "no rule",
		Attributes: []string{"authorization_details_types"},
	},
}

// The modifiers of the rules above.
var (
	keptObject   = []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}
	filledObject = []planmodifier.Object{planmodifiers.KeepFilled()}
	// jwtObject clears scopes the configuration removes, where the tenant
	// lets them go (see clearScopes).
	jwtObject = []planmodifier.Object{planmodifiers.KeepFilled("scopes")}

	// oidcConformantDefault is the tenant's default for the app_type [O:
	// true for resource_server and express_configuration clients, false
	// for the others, and for a client created without one: the tenant
	// sets none on create].
	oidcConformantDefault = planmodifiers.DefaultFrom("app_type",
		"Defaults to true for resource_server and express_configuration clients, false for the others.",
		func(v attr.Value) attr.Value {
			t := v.(types.String).ValueString()
			return types.BoolValue(t == "resource_server" || t == "express_configuration")
		})

	// infiniteDefault is true for non-expiring refresh tokens, false for
	// expiring ones [O].
	infiniteDefault = planmodifiers.DefaultFrom("expiration_type",
		"Defaults to true for non-expiring refresh tokens and false for expiring ones.",
		func(v attr.Value) attr.Value {
			if v.IsNull() {
				return types.BoolUnknown()
			}
			return types.BoolValue(v.(types.String).ValueString() != "expiring")
		})

	// scopesDefault is none for a grant of listed scopes and null with
	// allow_all_scopes, which takes no scope [S].
	scopesDefault = planmodifiers.DefaultFrom("allow_all_scopes", "Defaults to no scopes; null with allow_all_scopes.",
		func(v attr.Value) attr.Value {
			if v.(types.Bool).ValueBool() {
				return types.SetNull(types.StringType)
			}
			return types.SetValueMust(types.StringType, []attr.Value{})
		})
)

// planGrantTypes is grant_types' rule, "shown" above. The tenant always
// holds a list (its default for the app_type on create), and the reference
// shows it only sometimes in the answers to GET and PATCH
// (clients-and-grants.md, observed routes), though every recorded answer
// that names a client does: a state without one means no answer showed
// it, and the PATCH answer of any update may. Whether the update changes
// something is known only once every attribute is planned, so the rule is
// the resource's (ModifyPlan), not an attribute's.
func planGrantTypes(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return // created: the configuration's list, or the tenant's default
	}
	at := path.Root("grant_types")
	var config, plan, state types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, at, &config)...)
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, at, &plan)...)
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, at, &state)...); resp.Diagnostics.HasError() || !config.IsNull() {
		return
	}
	if !plan.Equal(state) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at, state)...)
	}
	if state.IsNull() && !resp.Plan.Raw.Equal(req.State.Raw) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at, types.ListUnknown(types.StringType))...)
	}
}

// scopesPath is jwt_configuration.scopes, which KeepFilled clears where the
// tenant lets go.
var scopesPath = path.Root("jwt_configuration").AtName("scopes")

// keptScopes is the other half of the scopes rule: when an update cleared
// jwt_configuration.scopes (planned known after apply) and the tenant's
// answer still holds them, the tenant merges the object into the one it
// holds and takes no request that removes them (the reference does not say
// how they are cleared: an empty object clears them where the tenant
// replaces the object, and a null is refused): they are the tenant's, the
// apply warns, and the resource records it so that later plans keep them.
func keptScopes(ctx context.Context, req resource.UpdateRequest, answered clientModel, resp *resource.UpdateResponse) {
	var configured, planned types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, scopesPath, &configured)...)
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, scopesPath, &planned)...); resp.Diagnostics.HasError() ||
		!configured.IsNull() || !planned.IsUnknown() {
		return
	}
	j, ok := flex.ObjectAs[jwtModel](ctx, answered.JWTConfiguration, &resp.Diagnostics)
	if !ok || j.Scopes.IsNull() {
		return
	}
	planmodifiers.MarkTenantKept(ctx, resp.Private, scopesPath, &resp.Diagnostics)
	resp.Diagnostics.AddAttributeWarning(scopesPath, "Scopes kept by the tenant", fmt.Sprintf(
		"The configuration no longer sets jwt_configuration.scopes, but the tenant kept them (%s) when the update sent none: "+
			"it merges jwt_configuration into the one it holds. They stay as the tenant's; to change them, set scopes.",
		strings.Join(slices.Sorted(maps.Keys(j.Scopes.Elements())), ", ")))
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
	if !wasInState.ValueBool() || req.StateValue.IsNull() || flex.Changed(rotation, prior) && !rotation.IsNull() {
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.PlanValue = req.StateValue
}
