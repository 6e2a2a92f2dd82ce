package tokenexchangeprofile

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// ExchangeTypeName is the ephemeral resource that performs a custom token
// exchange.
const ExchangeTypeName = "tenant_token_exchange"

var (
	_ ephemeral.EphemeralResource              = (*exchangeResource)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*exchangeResource)(nil)
)

// NewExchange returns the tenant_token_exchange ephemeral resource.
func NewExchange() ephemeral.EphemeralResource { return &exchangeResource{} }

type exchangeResource struct {
	framework.EphemeralWithTenant
}

func (e *exchangeResource) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = ExchangeTypeName
}

func (e *exchangeResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Exchanges a subject token for the tenant's tokens, as an application does: " +
			"`POST /oauth/token` with the token-exchange grant, which runs the action of the token exchange profile " +
			"of `subject_token_type`. Ephemeral: the subject token, the client secret and the tokens are in no state, " +
			"no plan and no log. It runs at every plan and apply that reads it, so a configuration's tests (and a CI job's " +
			"`terraform plan`) prove the exchange with `lifecycle { postcondition { ... } }` on the claims, or on the refusal " +
			"with `accept_refusal`; see the testing guide. **Early Access.**",
		Attributes: map[string]schema.Attribute{
			"client_id": schema.StringAttribute{
				MarkdownDescription: "The client ID of the application that exchanges: a first-party, OIDC-conformant client " +
					"whose `token_exchange.allow_any_profile_of_type` lists `custom_authentication`.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "The application's client secret, sent in the request body. Leave it out for a public " +
					"client (`token_endpoint_auth_method = \"none\"`). Ephemeral values are accepted.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"subject_token_type": schema.StringAttribute{
				MarkdownDescription: "The type of the subject token, which chooses the token exchange profile: an absolute " +
					"URI of 8 to 100 characters, outside the reserved prefixes (as `tenant_token_exchange_profile` takes it).",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(8, 100),
					validate.AbsoluteURI(),
					validate.NoPrefix("reserved by the platform", reservedPrefixes...),
				},
			},
			"subject_token": schema.StringAttribute{
				MarkdownDescription: "The subject token the profile's action checks, handed to it as " +
					"`event.transaction.subject_token`. Ephemeral values are accepted.",
				Required:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"actor_token": schema.StringAttribute{
				MarkdownDescription: "The acting party's token, for delegation (a support agent acting on behalf of the " +
					"user): handed to the action as `event.transaction.actor_token`, whose `api.authentication.setActor` " +
					"puts an `act` claim in the tokens. Needs `actor_token_type`. Ephemeral values are accepted.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.AlsoRequires(path.MatchRoot("actor_token_type"))},
			},
			"actor_token_type": schema.StringAttribute{
				MarkdownDescription: "The type of `actor_token`, an absolute URI (`event.transaction.actor_token_type`). " +
					"Needs `actor_token`.",
				Optional:   true,
				Validators: []validator.String{validate.AbsoluteURI(), stringvalidator.AlsoRequires(path.MatchRoot("actor_token"))},
			},
			"organization": schema.StringAttribute{
				MarkdownDescription: "The organization the exchange is for, its id (`org_...`) or its name (the request's " +
					"`organization` parameter): the action sees it as `event.organization` (it may also choose one with " +
					"`api.authentication.setOrganization`), and the tokens carry its id in `org_id`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"audience": schema.StringAttribute{
				MarkdownDescription: "The identifier of the API the access token is for. Without it the tenant's default " +
					"audience applies, if it has one.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, 600)},
			},
			"scopes": schema.SetAttribute{
				MarkdownDescription: "The scopes asked for, each 1 to 280 characters without white space; `openid` asks " +
					"for an ID token.",
				Optional:    true,
				ElementType: types.StringType,
				Validators:  []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validate.ScopeValue()...)},
			},
			"accept_refusal": schema.BoolAttribute{
				MarkdownDescription: "Whether the tenant's refusal of the exchange is a result instead of an error: " +
					"`error`, `error_description` and `status_code` hold it, and the tokens and claims are null. For tests " +
					"that check a subject token is refused, and why. Defaults to `false`.",
				Optional: true,
			},
			"access_token": schema.StringAttribute{
				MarkdownDescription: "The access token the tenant issued, for other ephemeral uses (a provider's " +
					"configuration, a write-only argument).",
				Computed:  true,
				Sensitive: true,
			},
			"id_token": schema.StringAttribute{
				MarkdownDescription: "The ID token, issued when `scopes` holds `openid`.",
				Computed:            true,
				Sensitive:           true,
			},
			"token_type": schema.StringAttribute{
				MarkdownDescription: "The token type of the answer, `Bearer`.",
				Computed:            true,
			},
			"expires_in": schema.Int64Attribute{
				MarkdownDescription: "The access token's lifetime in seconds, from the answer.",
				Computed:            true,
			},
			"granted_scopes": schema.ListAttribute{
				MarkdownDescription: "The scopes the answer says were granted, in its order.",
				Computed:            true,
				ElementType:         types.StringType,
			},
			"user_id": schema.StringAttribute{
				MarkdownDescription: "The user the tokens are for: the access token's `sub`, the user the action set.",
				Computed:            true,
			},
			"claims": schema.SingleNestedAttribute{
				MarkdownDescription: "The access token's claims (read from the token, whose signature is not checked here: " +
					"it came straight from the tenant).",
				Computed: true,
				Attributes: map[string]schema.Attribute{
					"sub": schema.StringAttribute{MarkdownDescription: "The user (`sub`).", Computed: true},
					"iss": schema.StringAttribute{MarkdownDescription: "The issuer (`iss`).", Computed: true},
					"aud": schema.ListAttribute{
						MarkdownDescription: "The audiences (`aud`), as a list also when the token holds one string.",
						Computed:            true,
						ElementType:         types.StringType,
					},
					"azp": schema.StringAttribute{
						MarkdownDescription: "The client (`azp`, or `client_id` in the RFC 9068 profile).",
						Computed:            true,
					},
					"scope": schema.ListAttribute{
						MarkdownDescription: "The scopes (`scope`, split at spaces).",
						Computed:            true,
						ElementType:         types.StringType,
					},
					"permissions": schema.ListAttribute{
						MarkdownDescription: "The permissions (`permissions`, under the APIs' RBAC token dialects).",
						Computed:            true,
						ElementType:         types.StringType,
					},
					"iat": schema.Int64Attribute{MarkdownDescription: "Issued at (`iat`), in seconds since the epoch.", Computed: true},
					"exp": schema.Int64Attribute{MarkdownDescription: "Expires at (`exp`), in seconds since the epoch.", Computed: true},
				},
			},
			"claims_json": schema.StringAttribute{
				MarkdownDescription: "Every claim of the access token, as JSON (`jsondecode` it for custom claims).",
				Computed:            true,
			},
			"id_token_claims_json": schema.StringAttribute{
				MarkdownDescription: "Every claim of the ID token, as JSON; null without an ID token.",
				Computed:            true,
			},
			"act_json": schema.StringAttribute{
				MarkdownDescription: "The access token's `act` claim as JSON (`jsondecode(...).sub` is the acting party), " +
					"set when the action delegated (`api.authentication.setActor`); null otherwise.",
				Computed: true,
			},
			"refresh_token_issued": schema.BoolAttribute{
				MarkdownDescription: "Whether the answer held a refresh token (asked for with `offline_access`, for an " +
					"API that allows offline access; never with an actor). The refresh token itself is not kept.",
				Computed: true,
			},
			"org_id": schema.StringAttribute{
				MarkdownDescription: "The access token's `org_id` claim: the organization the exchange was for (the " +
					"`organization` argument or the action's `setOrganization`); null without one.",
				Computed: true,
			},
			"error": schema.StringAttribute{
				MarkdownDescription: "With `accept_refusal`, the refusal's OAuth error code (`error`), such as " +
					"`invalid_request` for a subject token the action rejected, or the code it denied with; null on success.",
				Computed: true,
			},
			"error_description": schema.StringAttribute{
				MarkdownDescription: "With `accept_refusal`, the refusal's `error_description`: the reason the action " +
					"gave; null on success.",
				Computed: true,
			},
			"status_code": schema.Int64Attribute{
				MarkdownDescription: "With `accept_refusal`, the HTTP status of the refusal (400, 401, 403, 429, 500); null on success.",
				Computed:            true,
			},
		},
	}
}

func (e *exchangeResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m exchangeModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	x := m.request(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !e.Tenant.Configured() {
		resp.Diagnostics.AddError("Unable to exchange token", "The provider is not configured yet (its domain or credentials "+
			"are unknown until apply), so the exchange cannot run at plan. Give the provider known values, or let the "+
			"exchange run at apply.")
		return
	}
	tokens, err := e.Tenant.API.ExchangeToken(ctx, x)
	var refused *mgmt.OAuthError
	switch {
	case errors.As(err, &refused) && m.AcceptRefusal.ValueBool():
		m.refused(refused)
	case errors.As(err, &refused):
		resp.Diagnostics.AddError("Unable to exchange token", exchangeRefusedDetail(x, refused))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to exchange token", framework.APIErrorDetail(
			fmt.Sprintf("Exchanging a subject token of type %q for client %s", x.SubjectTokenType, x.ClientID), err))
		return
	default:
		if err := m.issued(tokens); err != nil {
			resp.Diagnostics.AddError("Unable to read exchanged token", fmt.Sprintf(
				"The tenant answered the exchange for client %s with an access token that is not a JWT: %v. "+
					"The provider reads claims from JWT access tokens only.", x.ClientID, err))
			return
		}
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// exchangeRefusedDetail says what the tenant answered and what to do. A
// 429 too_many_attempts is the Suspicious IP Throttling of the caller's
// address (token-exchange-flow.md §4), which no configuration checks for.
// A 5xx is a failure, not a refusal: an action that crashed, threw or
// outlived its time limit (§5: 20 s) answers 500 server_error, the
// description saying which (§4 [?]: the emulator's words), and the cause is
// in the logs.
func exchangeRefusedDetail(x mgmt.TokenExchangeRequest, e *mgmt.OAuthError) string {
	if e.StatusCode >= http.StatusInternalServerError {
		return fmt.Sprintf("The exchange of a %q subject token for client %s failed in the tenant: %s. The profile's action "+
			"crashed, threw or did not end within its time limit, or the tenant failed: this is not a refusal of the subject token.\n\n"+
			"Find the action's error in the tenant's logs (a fecte entry; against the emulator, in its log), correct the action "+
			"and deploy it, then run again.", x.SubjectTokenType, x.ClientID, refusalWords(e))
	}
	what := fmt.Sprintf("The tenant refused the exchange of a %q subject token for client %s: %s.",
		x.SubjectTokenType, x.ClientID, refusalWords(e))
	if e.StatusCode == http.StatusTooManyRequests && e.Code == "too_many_attempts" {
		return what + " This address is throttled after repeated rejected subject tokens.\n\n" +
			"Wait (attempts come back over time), raise the threshold of the tenant's Suspicious IP Throttling " +
			"stage pre-custom-token-exchange, or, against the emulator, start it with --no-exchange-throttle."
	}
	return what + "\n\nIf a refusal is what this configuration checks, set accept_refusal = true and check error and " +
		"error_description in a postcondition."
}

// refusalWords is the tenant's answer as one sentence without its final
// period: the tenant's descriptions end with one, or do not.
func refusalWords(e *mgmt.OAuthError) string {
	if d := strings.TrimSuffix(strings.TrimSpace(e.Description), "."); d != "" {
		return fmt.Sprintf("%d %s: %s", e.StatusCode, e.Code, d)
	}
	return fmt.Sprintf("%d %s", e.StatusCode, e.Code)
}
