package client

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TypeName is the client resource, data source and list resource type.
const TypeName = "tenant_client"

// The enums of the client's fields: the SDK's doc comments [S], and where
// they give none the values recorded [O] or assumed (see each).
var (
	// appTypes [S].
	appTypes = []string{"spa", "native", "non_interactive", "regular_web", "resource_server", "rms", "box", "cloudbees", "concur",
		"dropbox", "mscrm", "echosign", "egnyte", "newrelic", "office365", "salesforce", "sentry", "sharepoint", "slack", "springcm",
		"zendesk", "zoom", "sso_integration", "oag", "express_configuration"}
	tokenEndpointAuthMethods = []string{"none", "client_secret_post", "client_secret_basic"} // [S]
	jwtAlgs                  = []string{"HS256", "RS256", "PS256"}                           // [S]
	rotationTypes            = []string{"rotating", "non-rotating"}                          // [S]
	expirationTypes          = []string{"expiring", "non-expiring"}                          // [S]
	// profileTypes are the token exchange profile types a client may be
	// allowed [O shape, S values].
	profileTypes = []string{"custom_authentication", "on_behalf_of_token_exchange"}
	// organizationUsages: the grant's documented values [S], assumed for the
	// client (its SDK doc gives none; allow and require are recorded).
	organizationUsages = []string{"deny", "allow", "require"}
	// organizationRequireBehaviors: pre_login_prompt and post_login_prompt
	// are recorded [O]; no_prompt is assumed.
	organizationRequireBehaviors = []string{"no_prompt", "pre_login_prompt", "post_login_prompt"}
	discoveryMethods             = []string{"email", "organization_name"}               // [S]
	asyncChannels                = []string{"guardian-push", "email"}                   // [S]
	thirdPartySecurityModes      = []string{"strict", "permissive"}                     // [S]
	redirectionPolicies          = []string{"allow_always", "open_redirect_protection"} // [S]
	// sessionAuthMethods and deviceBindings: the recorded values [O] and the
	// delegation's documented ones [S].
	sessionAuthMethods   = []string{"cookie", "query"}
	deviceBindings       = []string{"ip", "asn", "none"}
	delegationBindings   = []string{"ip", "asn"}
	defaultOrgFlows      = []string{"client_credentials"} // [O]
	logoutInitiatorModes = []string{"custom", "all"}      // custom [O]; all assumed
)

// The tenant's defaults for a new client [O].
const (
	defaultRefreshLifetime     = 2592000
	defaultRefreshIdleLifetime = 1296000
	maxDescription             = 140 // [S]
	maxMetadataKeys            = 10  // [S]
	maxMetadataLength          = 255 // [S]
)

// metadataKey is the SDK's set of characters for client_metadata keys [S].
var metadataKey = regexp.MustCompile(`^[A-Za-z0-9:,\-+=_*?"/\\()<>@\t ]+$`)

// httpsNoFragment is initiate_login_uri's rule [S].
var httpsNoFragment = regexp.MustCompile(`^https://[^#\s]+$`)

func (r *clientResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = clientSchema()
}

// keepString is an Optional + Computed string the tenant may fill, whose
// removal from the configuration keeps the tenant's value: the reference
// does not say how the API clears it.
func keepString(desc string, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: desc + " When not set, the tenant's value is kept (removing the argument does not clear it).",
		Optional:            true,
		Computed:            true,
		Validators:          validators,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

func keepBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: desc + " When not set, the tenant's value is kept.",
		Optional:            true,
		Computed:            true,
		PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
	}
}

func defaultBool(desc string, def bool) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: fmt.Sprintf("%s Defaults to `%t`, the tenant's default; removing it returns to `%t`.", desc, def, def),
		Optional:            true,
		Computed:            true,
		Default:             booldefault.StaticBool(def),
	}
}

// urlList is an optional list of URLs or names the API keeps as sent; its
// removal sends an empty list.
func urlList(desc string) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: desc + " At least one when set, without repeats; removing the argument empties the list.",
		Optional:            true,
		ElementType:         types.StringType,
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
		},
	}
}

// enumList is an optional list of values of enum, cleared with null on
// removal (the SDK documents null for it [S]).
func enumList(desc string, enum []string) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: desc + " At least one when set, without repeats; removing the argument unsets it.",
		Optional:            true,
		ElementType:         types.StringType,
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(stringvalidator.OneOf(enum...)),
		},
	}
}

func clientSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "An application (a client of the tenant): how it signs users in, which tokens it gets, and " +
			"whether it may run custom token exchanges (`token_exchange`). Its `client_secret` is generated by the tenant and kept " +
			"out of plans and state: hand it where it is needed with the `tenant_client_secret` ephemeral resource, or rotate it " +
			"with `client_secret_rotation`. A few families of the API's fields are not managed here and are left as they are " +
			"(see the notes below).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The client's ID (its `client_id`, 32 characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "The client's ID, as applications send it (the same as `id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The client's name, at least 1 character. Not unique: several clients may share a name.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("What the client is for, up to %d characters. Defaults to an empty string "+
					"(none, the tenant's default); removing it clears the description.", maxDescription),
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(""),
				Validators: []validator.String{stringvalidator.UTF8LengthAtMost(maxDescription)},
			},
			"app_type": keepString("The kind of application, which decides the settings that apply: `spa`, `native`, "+
				"`non_interactive` (machine to machine), `regular_web`, `resource_server`, or one of the SSO integrations "+
				"(`rms`, `box`, `cloudbees`, `concur`, `dropbox`, `mscrm`, `echosign`, `egnyte`, `newrelic`, `office365`, "+
				"`salesforce`, `sentry`, `sharepoint`, `slack`, `springcm`, `zendesk`, `zoom`, `sso_integration`, `oag`, "+
				"`express_configuration`).", stringvalidator.OneOf(appTypes...)),
			"logo_uri": keepString("URL of the client's logo (150x150 pixels recommended)."),
			"is_first_party": defaultBool("Whether the client is a first-party application. A custom token exchange needs "+
				"a first-party client.", true),
			"is_token_endpoint_ip_header_trusted": defaultBool("Whether the `auth0-forwarded-for` header is trusted at the "+
				"token endpoint as the end user's IP address, for brute-force protection.", false),
			"oidc_conformant": schema.BoolAttribute{
				MarkdownDescription: "Whether the client follows the OIDC specification strictly. A custom token exchange needs " +
					"an OIDC-conformant client. Defaults to the tenant's default for the `app_type`: `true` for `resource_server` " +
					"and `express_configuration` clients, `false` for the others; removing it returns to that default.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{oidcConformantDefault},
			},
			"callbacks":           urlList("URLs the tenant may redirect to after a sign-in (the allowed callback URLs)."),
			"allowed_origins":     urlList("URLs allowed to embed the login in an iframe (allowed origins)."),
			"web_origins":         urlList("URLs allowed for cross-origin authentication, device flow and web message response mode (allowed web origins)."),
			"client_aliases":      urlList("Other names of the client, used by the WS-Federation protocol (realms)."),
			"allowed_clients":     urlList("IDs of the clients allowed to delegate access to this one."),
			"allowed_logout_urls": urlList("URLs the tenant may redirect to after a sign-out."),
			"grant_types": schema.ListAttribute{
				MarkdownDescription: "The grant types the client may use (`authorization_code`, `implicit`, `refresh_token`, " +
					"`client_credentials`, `password`, ...), without repeats. A machine-to-machine client needs " +
					"`client_credentials`. When not set, the tenant's default for the `app_type` is kept (for a new client " +
					"usually `authorization_code`, `implicit`, `refresh_token` and `client_credentials`); removing the argument " +
					"keeps the current list. Should the tenant's answer leave the list out, the last one known is kept, and a " +
					"change made outside Terraform is not seen until an answer shows the list again.",
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
			},
			"jwt_configuration": schema.SingleNestedAttribute{
				MarkdownDescription: "How the client's ID tokens are signed. When not set, the tenant's settings are kept; " +
					"a setting left out of the object keeps its value too.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: jwtObject,
				Attributes: map[string]schema.Attribute{
					"alg": schema.StringAttribute{
						MarkdownDescription: "The signing algorithm: `HS256`, `RS256` or `PS256`.",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.String{stringvalidator.OneOf(jwtAlgs...)},
					},
					"lifetime_in_seconds": schema.Int64Attribute{
						MarkdownDescription: "Lifetime of the ID tokens, in seconds (0 or more; the tenant sets 36000 for a new client).",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.Int64{int64validator.AtLeast(0)},
					},
					"secret_encoded": schema.BoolAttribute{
						MarkdownDescription: "Whether the client secret is base64-encoded (`false` for a new client).",
						Optional:            true,
						Computed:            true,
					},
					"scopes": schema.MapAttribute{
						MarkdownDescription: "Claims added to the ID token per scope. Removing it clears them where the tenant " +
							"lets them go: a tenant that merges `jwt_configuration` into the one it holds keeps them, the apply " +
							"warns, and they are kept from then on.",
						Optional:    true,
						Computed:    true,
						ElementType: types.StringType,
						Validators:  []validator.Map{mapvalidator.SizeAtLeast(1)},
					},
				},
			},
			"sso":          keepBool("Whether the tenant, not the identity provider, does single sign-on (a legacy setting)."),
			"sso_disabled": defaultBool("Whether single sign-on is turned off for the client.", false),
			"cross_origin_authentication": defaultBool("Whether the client may make cross-origin authentication requests "+
				"(embedded login).", false),
			"cross_origin_loc": keepString("URL of the page of the application that verifies a cross-origin authentication, " +
				"for browsers without third-party cookies."),
			"custom_login_page_on":      defaultBool("Whether the tenant's custom login page is used.", true),
			"custom_login_page":         keepString("The HTML of the client's custom login page."),
			"custom_login_page_preview": keepString("The HTML of the preview of the custom login page."),
			"form_template":             keepString("The HTML of the form used by WS-Federation."),
			"token_endpoint_auth_method": keepString("How the client authenticates at the token endpoint: `none` (a public "+
				"client, without a secret), `client_secret_post` or `client_secret_basic`.", stringvalidator.OneOf(tokenEndpointAuthMethods...)),
			"client_metadata": schema.MapAttribute{
				MarkdownDescription: fmt.Sprintf("Metadata of the client: at most %d keys of 1 to %d characters (letters, "+
					"digits, space, tab and `:,-+=_*?\"/\\()<>@`), each mapped to a string of up to %d characters. Keys added "+
					"outside Terraform are removed on the next apply; removing the argument removes every key.",
					maxMetadataKeys, maxMetadataLength, maxMetadataLength),
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.SizeBetween(1, maxMetadataKeys),
					mapvalidator.KeysAre(
						stringvalidator.LengthBetween(1, maxMetadataLength),
						stringvalidator.RegexMatches(metadataKey, "must use letters, digits, space, tab and :,-+=_*?\"/\\()<>@ only"),
					),
					mapvalidator.ValueStringsAre(stringvalidator.LengthAtMost(maxMetadataLength)),
				},
			},
			"initiate_login_uri": keepString("URL the tenant sends users to for a sign-in started elsewhere (an `https://` "+
				"URL without a fragment).", stringvalidator.RegexMatches(httpsNoFragment, "must be an https:// URL without a fragment (#)")),
			"native_social_login": schema.SingleNestedAttribute{
				MarkdownDescription: "Native social login per identity provider. Each defaults to not enabled; removing one " +
					"(or the whole argument) turns it off.",
				Optional: true,
				Computed: true,
				Default:  objectdefault.StaticValue(nativeSocialLoginValue(false, false, false)),
				Attributes: map[string]schema.Attribute{
					"apple":    socialProvider("Sign in with Apple."),
					"facebook": socialProvider("Facebook."),
					"google":   socialProvider("Google (the Credential Manager on Android)."),
				},
			},
			"refresh_token": schema.SingleNestedAttribute{
				MarkdownDescription: "How the client's refresh tokens rotate and expire. Each setting defaults to the tenant's " +
					"default for a new client; removing one (or the whole argument) returns it to that default.",
				Optional: true,
				Computed: true,
				Default:  objectdefault.StaticValue(defaultRefreshToken()),
				Attributes: map[string]schema.Attribute{
					"rotation_type": schema.StringAttribute{
						MarkdownDescription: "`rotating` or `non-rotating` (the default).",
						Optional:            true,
						Computed:            true,
						Default:             stringdefault.StaticString("non-rotating"),
						Validators:          []validator.String{stringvalidator.OneOf(rotationTypes...)},
					},
					"expiration_type": schema.StringAttribute{
						MarkdownDescription: "`expiring` or `non-expiring` (the default).",
						Optional:            true,
						Computed:            true,
						Default:             stringdefault.StaticString("non-expiring"),
						Validators:          []validator.String{stringvalidator.OneOf(expirationTypes...)},
					},
					"leeway": schema.Int64Attribute{
						MarkdownDescription: "Seconds during which a rotated refresh token may still be used (default 0).",
						Optional:            true,
						Computed:            true,
						Default:             int64default.StaticInt64(0),
						Validators:          []validator.Int64{int64validator.AtLeast(0)},
					},
					"token_lifetime": schema.Int64Attribute{
						MarkdownDescription: fmt.Sprintf("Lifetime of a refresh token, in seconds (default %d).", defaultRefreshLifetime),
						Optional:            true,
						Computed:            true,
						Default:             int64default.StaticInt64(defaultRefreshLifetime),
						Validators:          []validator.Int64{int64validator.AtLeast(0)},
					},
					"infinite_token_lifetime": schema.BoolAttribute{
						MarkdownDescription: "Whether refresh tokens never expire. Defaults to `true` with `expiration_type = " +
							"\"non-expiring\"` and `false` with `expiring`, as the tenant sets it.",
						Optional:      true,
						Computed:      true,
						PlanModifiers: []planmodifier.Bool{infiniteDefault},
					},
					"idle_token_lifetime": schema.Int64Attribute{
						MarkdownDescription: fmt.Sprintf("Seconds after which an unused refresh token expires (default %d).", defaultRefreshIdleLifetime),
						Optional:            true,
						Computed:            true,
						Default:             int64default.StaticInt64(defaultRefreshIdleLifetime),
						Validators:          []validator.Int64{int64validator.AtLeast(0)},
					},
					"infinite_idle_token_lifetime": schema.BoolAttribute{
						MarkdownDescription: "Whether unused refresh tokens never expire. Defaults as `infinite_token_lifetime` does.",
						Optional:            true,
						Computed:            true,
						PlanModifiers:       []planmodifier.Bool{infiniteDefault},
					},
					"policies": schema.ListNestedAttribute{
						MarkdownDescription: "APIs a refresh token may get access tokens for besides its own (multi-resource " +
							"refresh tokens). Removing it removes them all.",
						Optional:   true,
						Validators: []validator.List{listvalidator.SizeAtLeast(1)},
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"audience": schema.StringAttribute{
								MarkdownDescription: "The API's identifier (1 to 600 characters).",
								Required:            true,
								Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 600)},
							},
							"scope": schema.ListAttribute{
								MarkdownDescription: "The API's scopes the refresh token may get, without repeats.",
								Required:            true,
								ElementType:         types.StringType,
								Validators:          []validator.List{listvalidator.UniqueValues()},
							},
						}},
					},
				},
			},
			"organization_usage": keepString("How the client uses organizations: `deny`, `allow` or `require`.",
				stringvalidator.OneOf(organizationUsages...)),
			"organization_require_behavior": keepString("How the sign-in asks for the organization when it is required: "+
				"`no_prompt`, `pre_login_prompt` or `post_login_prompt`.", stringvalidator.OneOf(organizationRequireBehaviors...)),
			"organization_discovery_methods": enumList("How users find their organization before sign-in: `email` "+
				"(by the domain of their address) and `organization_name`. Needs `organization_require_behavior = "+
				"\"pre_login_prompt\"`.", discoveryMethods),
			"client_authentication_methods": schema.SingleNestedAttribute{
				MarkdownDescription: "The credentials the client authenticates with instead of its secret, by id: read from the " +
					"tenant, managed through the client's credentials (not by this resource).",
				Computed:      true,
				PlanModifiers: keptObject,
				Attributes: map[string]schema.Attribute{
					"private_key_jwt":             credentialIDs("Private key JWT (`private_key_jwt`)."),
					"tls_client_auth":             credentialIDs("mTLS with a certificate of a certificate authority (`tls_client_auth`)."),
					"self_signed_tls_client_auth": credentialIDs("mTLS with a self-signed certificate (`self_signed_tls_client_auth`)."),
				},
			},
			"require_pushed_authorization_requests": defaultBool("Whether the client must use pushed authorization "+
				"requests (PAR; a feature the tenant must have).", false),
			"require_proof_of_possession": defaultBool("Whether the client's tokens must be sender-constrained "+
				"(proof of possession).", false),
			"oidc_logout": schema.SingleNestedAttribute{
				MarkdownDescription: "OIDC back-channel logout. When not set, the tenant's settings are kept (removing the " +
					"argument does not turn it off); a setting left out of the object keeps its value too.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: filledObject,
				Attributes: map[string]schema.Attribute{
					"backchannel_logout_urls": schema.ListAttribute{
						MarkdownDescription: "URLs the tenant sends logout tokens to, at least one, without repeats.",
						Required:            true,
						ElementType:         types.StringType,
						Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues()},
					},
					"backchannel_logout_initiators": schema.SingleNestedAttribute{
						MarkdownDescription: "Which events start a back-channel logout.",
						Optional:            true,
						Computed:            true,
						Attributes: map[string]schema.Attribute{
							"mode": schema.StringAttribute{
								MarkdownDescription: "`custom` (the events in `selected_initiators`) or `all`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(logoutInitiatorModes...)},
							},
							"selected_initiators": schema.ListAttribute{
								MarkdownDescription: "The events, with `mode = \"custom\"` (e.g. `rp-logout`, `idp-logout`).",
								Optional:            true,
								Computed:            true,
								ElementType:         types.StringType,
								Validators:          []validator.List{listvalidator.UniqueValues()},
							},
						},
					},
					"backchannel_logout_session_metadata": schema.SingleNestedAttribute{
						MarkdownDescription: "Whether logout tokens carry the session's metadata.",
						Optional:            true,
						Computed:            true,
						Attributes: map[string]schema.Attribute{
							"include": schema.BoolAttribute{
								MarkdownDescription: "Whether the session's metadata is included.",
								Required:            true,
							},
						},
					},
				},
			},
			"compliance_level": schema.StringAttribute{
				MarkdownDescription: "The compliance level that restricts the client's capabilities (e.g. a FAPI profile). " +
					"Unset by default; removing it unsets it again.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"default_organization": schema.SingleNestedAttribute{
				MarkdownDescription: "The organization of the client credentials tokens that name none. Unset by default; " +
					"removing it unsets it again.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"organization_id": schema.StringAttribute{
						MarkdownDescription: "The organization's ID (`org_...`).",
						Required:            true,
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"flows": schema.ListAttribute{
						MarkdownDescription: "The flows it applies to: `client_credentials`.",
						Required:            true,
						ElementType:         types.StringType,
						Validators: []validator.List{
							listvalidator.SizeAtLeast(1),
							listvalidator.UniqueValues(),
							listvalidator.ValueStringsAre(stringvalidator.OneOf(defaultOrgFlows...)),
						},
					},
				},
			},
			"token_exchange": schema.SingleNestedAttribute{
				MarkdownDescription: "Which token exchange profiles the client may use. A custom token exchange " +
					"(`tenant_token_exchange_profile` of type `custom_authentication`) runs only for a first-party, " +
					"OIDC-conformant client allowed `custom_authentication` here. Unset by default; removing it unsets it again.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"allow_any_profile_of_type": schema.ListAttribute{
						MarkdownDescription: "The profile types: `custom_authentication` and `on_behalf_of_token_exchange`, " +
							"at least one, without repeats.",
						Required:    true,
						ElementType: types.StringType,
						Validators: []validator.List{
							listvalidator.SizeAtLeast(1),
							listvalidator.UniqueValues(),
							listvalidator.ValueStringsAre(stringvalidator.OneOf(profileTypes...)),
						},
					},
				},
			},
			"token_quota": schema.SingleNestedAttribute{
				MarkdownDescription: "Limits on the client credentials tokens the client gets. Unset by default; removing it " +
					"unsets it again.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"client_credentials": schema.SingleNestedAttribute{
						MarkdownDescription: "The limits of the client credentials flow.",
						Required:            true,
						Attributes: map[string]schema.Attribute{
							"enforce": schema.BoolAttribute{
								MarkdownDescription: "Whether tokens beyond a limit are refused (`true`) or only reported.",
								Required:            true,
							},
							"per_day": schema.Int64Attribute{
								MarkdownDescription: "Tokens per day (0 or more).",
								Required:            true,
								Validators:          []validator.Int64{int64validator.AtLeast(0)},
							},
							"per_hour": schema.Int64Attribute{
								MarkdownDescription: "Tokens per hour (0 or more).",
								Required:            true,
								Validators:          []validator.Int64{int64validator.AtLeast(0)},
							},
						},
					},
				},
			},
			"session_transfer": schema.SingleNestedAttribute{
				MarkdownDescription: "Native-to-web single sign-on (session transfer tokens). Unset by default; removing it " +
					"unsets it again. A setting left out of the object is the tenant's, and is kept.",
				Optional:      true,
				PlanModifiers: filledObject,
				Attributes: map[string]schema.Attribute{
					"can_create_session_transfer_token": tenantBool("Whether the client may create session transfer tokens."),
					"allowed_authentication_methods": schema.ListAttribute{
						MarkdownDescription: "How a session transfer token may be sent: `cookie` and `query`, without repeats.",
						Optional:            true,
						Computed:            true,
						ElementType:         types.StringType,
						Validators: []validator.List{
							listvalidator.UniqueValues(),
							listvalidator.ValueStringsAre(stringvalidator.OneOf(sessionAuthMethods...)),
						},
					},
					"enforce_device_binding": schema.StringAttribute{
						MarkdownDescription: "Binding of the token to the device: `ip`, `asn` or `none`.",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.String{stringvalidator.OneOf(deviceBindings...)},
					},
					"allow_refresh_token":           tenantBool("Whether a refresh token may be issued with the transferred session."),
					"enforce_online_refresh_tokens": tenantBool("Whether refresh tokens are bound to the session."),
					"enforce_cascade_revocation":    tenantBool("Whether revoking the session revokes the transferred ones."),
					"delegation": schema.SingleNestedAttribute{
						MarkdownDescription: "Delegated (impersonation) access with session transfer tokens.",
						Optional:            true,
						Computed:            true,
						Attributes: map[string]schema.Attribute{
							"allow_delegated_access": tenantBool("Whether delegated access is allowed."),
							"enforce_device_binding": schema.StringAttribute{
								MarkdownDescription: "Binding of delegated access to the device: `ip` or `asn`.",
								Optional:            true,
								Computed:            true,
								Validators:          []validator.String{stringvalidator.OneOf(delegationBindings...)},
							},
						},
					},
				},
			},
			"resource_server_identifier": schema.StringAttribute{
				MarkdownDescription: "The identifier of the API this client represents (with `app_type = \"resource_server\"`), " +
					"1 to 600 characters. Set on create only: changing it replaces the client.",
				Optional:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(1, 600)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"skip_non_verifiable_callback_uri_confirmation_prompt": schema.BoolAttribute{
				MarkdownDescription: "Whether the sign-in skips the confirmation prompt for callback URLs that cannot be " +
					"verified (custom schemes, `localhost`). Unset by default (the tenant decides); removing it unsets it again.",
				Optional: true,
			},
			"async_approval_notification_channels": enumList("How a user is asked for an asynchronous approval: "+
				"`guardian-push` and `email`.", asyncChannels),
			"third_party_security_mode": schema.StringAttribute{
				MarkdownDescription: "The security mode of a third-party client: `strict` or `permissive`. Set on create only: " +
					"changing it replaces the client. When not set, the tenant's value is kept.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.OneOf(thirdPartySecurityModes...)},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIfConfigured(),
				},
			},
			"redirection_policy": keepString("Whether users are sent to the callback URL on errors and in email "+
				"verification: `allow_always` or `open_redirect_protection` (third-party clients in strict mode).",
				stringvalidator.OneOf(redirectionPolicies...)),
			"fedcm_login": schema.SingleNestedAttribute{
				MarkdownDescription: "Federated Credential Management sign-in. When not set, the tenant's setting is kept.",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       keptObject,
				Attributes: map[string]schema.Attribute{
					"google": schema.SingleNestedAttribute{
						MarkdownDescription: "The Google FedCM prompt.",
						Required:            true,
						Attributes: map[string]schema.Attribute{
							"is_enabled": schema.BoolAttribute{
								MarkdownDescription: "Whether the prompt is shown on the sign-in page.",
								Required:            true,
							},
						},
					},
				},
			},
			"identity_assertion_authorization_grant": schema.SingleNestedAttribute{
				MarkdownDescription: "The Identity Assertion Authorization Grant (ID-JAG) exchange, for cross-app access. " +
					"When not set, the tenant's setting is kept.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: keptObject,
				Attributes: map[string]schema.Attribute{
					"active": schema.BoolAttribute{
						MarkdownDescription: "Whether the client may exchange ID-JAGs for access tokens.",
						Required:            true,
					},
				},
			},
			"client_secret_rotation": schema.Int64Attribute{
				MarkdownDescription: "A number to change (e.g. increment) to rotate the client secret: when it changes to " +
					"another value, the apply asks the tenant for a new secret (`POST /clients/{id}/rotate-secret`, which needs " +
					"the `update:client_keys` scope), and the old secret stops working. Never sent to the API as a field; " +
					"a new client's secret is new anyway, and removing the argument rotates nothing.",
				Optional: true,
			},
			"client_secret_in_state": schema.BoolAttribute{
				MarkdownDescription: "Set `true` to keep the client secret in `client_secret`, in plans and the state " +
					"(marked sensitive). Off by default: read it when needed with the `tenant_client_secret` ephemeral " +
					"resource instead. Refreshing it needs the `read:client_keys` scope; without it the secret the create or " +
					"the last rotation returned is kept.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "The client secret, only with `client_secret_in_state = true` (null otherwise).",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{secretPlan{}},
			},
		},
	}
}

func socialProvider(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: "Native social login with " + desc,
		Optional:            true,
		Computed:            true,
		Default:             objectdefault.StaticValue(enabledValue(false)),
		Attributes: map[string]schema.Attribute{
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether it is enabled.",
				Required:            true,
			},
		},
	}
}

func credentialIDs(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		Attributes: map[string]schema.Attribute{
			"credentials": schema.ListNestedAttribute{
				MarkdownDescription: "The credentials, by id.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{MarkdownDescription: "The credential's id (`cred_...`).", Computed: true},
				}},
			},
		},
	}
}

// tenantBool is a setting inside an object that the tenant fills when the
// configuration leaves it out: its plan is the object's rule.
func tenantBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: desc,
		Optional:            true,
		Computed:            true,
	}
}
