package resourceserver

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_resource_server"

// The tenant's defaults for an API (reference §4).
const (
	defaultSigningAlg          = "RS256"
	defaultTokenLifetime       = 86400
	defaultTokenLifetimeForWeb = 7200
	maxTokenLifetime           = 2592000
)

var (
	// signingAlgs are the algorithms the API signs access tokens with.
	signingAlgs = []string{"HS256", "RS256", "RS512", "PS256"}
	// tokenDialects are the access token formats.
	tokenDialects = []string{"access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"}
	// The enums of the nested settings (reference §4).
	userPolicies      = []string{"allow_all", "deny_all", "require_client_grant"}
	clientPolicies    = []string{"deny_all", "require_client_grant"}
	consentPolicies   = []string{"transactional-authorization-with-mfa"}
	popMechanisms     = []string{"mtls", "dpop"}
	popRequiredFor    = []string{"public_clients", "all_clients"}
	encryptionFormats = []string{"compact-nested-jwe"}
	encryptionAlgs    = []string{"RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512"}
)

func (r *serverResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepBool := []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}
	// Inside an object the configuration may add anew, a null state value
	// says nothing: the tenant fills the new object's value after apply.
	keepNested := []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API (resource server): an audience that applications request access tokens for, with the " +
			"permissions (scopes) it defines. The tenant's system APIs cannot be managed: its Management API, and the APIs the " +
			"tenant makes from its template when an API is created with their identifier (`urn:auth0:express-configure`, " +
			"`https://<domain>/me/`); read them with the `tenant_resource_server` data source. " +
			"Removing an optional argument from the configuration returns the API to the tenant's default, which the argument's " +
			"description names; `name`, `token_dialect` and the few nested values the tenant may fill in, whose defaults the API does " +
			"not document, keep their value instead, as their descriptions say.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The API's ID (24 hexadecimal characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"identifier": schema.StringAttribute{
				MarkdownDescription: "The API's unique identifier, used as the `audience` of token requests (1 to 600 characters, " +
					"e.g. `https://api.example.com/orders`). Changing it replaces the API.",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, 600),
					validate.ID(),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A friendly name, 1 to 200 characters, without `<` or `>`. When not set, the API keeps the name " +
					"it has (none for a new API): removing the argument leaves the name as it is, since the API has no documented way to clear it.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: keepString,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, 200),
					stringvalidator.RegexMatches(regexp.MustCompile(`^[^<>]*$`), "must not contain < or >"),
				},
			},
			"scopes": schema.MapAttribute{
				MarkdownDescription: "The permissions the API defines, keyed by the scope's value (e.g. `read:orders`: 1 to 280 " +
					"characters without white space), each mapped to its description (up to 500 characters; `\"\"` for none, not null). " +
					"At least one when set, and at most " + fmt.Sprint(mgmt.MaxScopesPerAPI) + " (the platform's limit of scopes per API). " +
					"Adding, editing or removing one entry changes only that scope. Removing the argument removes every scope from " +
					"the API, including scopes added outside Terraform. (In a map written out in HCL, Terraform keeps the last of " +
					"a key written twice.)",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.SizeBetween(1, mgmt.MaxScopesPerAPI),
					mapvalidator.NoNullValues(),
					mapvalidator.KeysAre(validate.ScopeValue()...),
					mapvalidator.ValueStringsAre(stringvalidator.UTF8LengthAtMost(500)),
				},
			},
			"signing_alg": schema.StringAttribute{
				MarkdownDescription: "Algorithm access tokens are signed with: `HS256`, `RS256`, `RS512` or `PS256`. " +
					"Defaults to `RS256`, the tenant's default; removing it returns to `RS256`.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(defaultSigningAlg),
				Validators: []validator.String{stringvalidator.OneOf(signingAlgs...)},
			},
			"signing_secret": schema.StringAttribute{
				MarkdownDescription: "The secret that signs HS256 tokens, at least 16 characters; only with `signing_alg = \"HS256\"`. " +
					"The state holds it (sensitive) only while the configuration sets it, read back from the tenant so that a change " +
					"made outside Terraform shows. When not set, the tenant generates one for HS256, which stays out of the state " +
					"(the `tenant_resource_server` data source reads it with `include_signing_secret = true`); removing it keeps " +
					"the current secret in the tenant and takes it out of the state. An import does not read it: a configuration " +
					"that sets it sends it once after an import. Not used with other algorithms.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.UTF8LengthAtLeast(16)},
			},
			"signing_secret_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only form of `signing_secret` (Terraform 1.11 or later): the secret is in neither the " +
					"plan nor the state, and `signing_secret` stays null. It is sent on create and whenever " +
					"`signing_secret_wo_version` changes; to rotate the secret, change both. Requires `signing_secret_wo_version`; " +
					"conflicts with `signing_secret`; at least 16 characters, only with `signing_alg = \"HS256\"`. A secret changed " +
					"outside Terraform is not seen. Removing both it and `signing_secret_wo_version` keeps the secret in the tenant, " +
					"and out of the state.",
				Optional:   true,
				WriteOnly:  true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.UTF8LengthAtLeast(16), stringvalidator.ConflictsWith(path.MatchRoot("signing_secret"))},
			},
			"signing_secret_wo_version": schema.Int64Attribute{
				MarkdownDescription: "A number to change (e.g. increment) whenever `signing_secret_wo` should be sent again: " +
					"Terraform cannot see a change of a write-only value. Requires `signing_secret_wo`.",
				Optional: true,
			},
			"allow_offline_access": schema.BoolAttribute{
				MarkdownDescription: "Whether refresh tokens can be issued for this API. Defaults to `false`; removing it returns to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"token_lifetime": schema.Int64Attribute{
				MarkdownDescription: "Lifetime of access tokens, in seconds, `0` to `2592000` (30 days). " +
					"Defaults to `86400`; removing it returns to `86400`.",
				Optional:   true,
				Computed:   true,
				Default:    int64default.StaticInt64(defaultTokenLifetime),
				Validators: []validator.Int64{int64validator.Between(0, maxTokenLifetime)},
			},
			"token_lifetime_for_web": schema.Int64Attribute{
				MarkdownDescription: "Lifetime of access tokens issued through the implicit or hybrid flows, in seconds; at most " +
					"`token_lifetime`. Defaults to `7200`, or to `token_lifetime` when that is shorter; removing it returns to that default.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.Int64{int64validator.Between(0, maxTokenLifetime)},
				PlanModifiers: []planmodifier.Int64{webLifetimePlan{}},
			},
			"skip_consent_for_verifiable_first_party_clients": schema.BoolAttribute{
				MarkdownDescription: "Whether first-party applications skip the consent prompt. Defaults to `false`; removing it returns to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"enforce_policies": schema.BoolAttribute{
				MarkdownDescription: "Whether role-based access control policies are enforced for this API. When not set, the tenant " +
					"decides (it leaves it unset on a new API, which means not enforced). Removing `enforce_policies = true` turns " +
					"enforcement off: the provider sends `false`, which the API then shows (the API has no documented way to clear it).",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{enforcePoliciesPlan{}},
			},
			"token_dialect": schema.StringAttribute{
				MarkdownDescription: "Format of the access tokens: `access_token`, `access_token_authz`, `rfc9068_profile` or " +
					"`rfc9068_profile_authz` (the `_authz` forms add the user's permissions and go with `enforce_policies = true`). " +
					"When not set, the tenant decides (it leaves it unset on a new API). Removing the argument keeps the current " +
					"dialect: the API documents no default to return to and no way to clear it. Set `access_token` for the plain format.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.OneOf(tokenDialects...)},
				PlanModifiers: keepString,
			},
			"allow_online_access": schema.BoolAttribute{
				MarkdownDescription: "Whether applications may get refresh tokens for online access (while the user's session lasts). " +
					"Defaults to `false`; removing it returns to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"allow_online_access_with_ephemeral_sessions": schema.BoolAttribute{
				MarkdownDescription: "Whether online access is also allowed for ephemeral (non-persistent) sessions. " +
					"Defaults to `false`; removing it returns to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"subject_type_authorization": schema.SingleNestedAttribute{
				MarkdownDescription: "Which subjects may get access tokens for this API. Defaults to the tenant's default, users " +
					"`allow_all` and clients `require_client_grant`; removing it (or one side of it) returns to that default.",
				Optional: true,
				Computed: true,
				Default:  objectdefault.StaticValue(subjectTypeAuthValue(defaultUserPolicy, defaultClientPolicy)),
				Attributes: map[string]schema.Attribute{
					"user": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for users (tokens issued on behalf of a user). Defaults to `allow_all`.",
						Optional:            true,
						Computed:            true,
						Default:             objectdefault.StaticValue(policyValue(defaultUserPolicy)),
						Attributes: map[string]schema.Attribute{
							"policy": schema.StringAttribute{
								MarkdownDescription: "`allow_all`, `deny_all` or `require_client_grant`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(userPolicies...)},
							},
						},
					},
					"client": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for clients (client credentials tokens). Defaults to `require_client_grant`.",
						Optional:            true,
						Computed:            true,
						Default:             objectdefault.StaticValue(policyValue(defaultClientPolicy)),
						Attributes: map[string]schema.Attribute{
							"policy": schema.StringAttribute{
								MarkdownDescription: "`deny_all` or `require_client_grant`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(clientPolicies...)},
							},
						},
					},
				},
			},
			"consent_policy": schema.StringAttribute{
				MarkdownDescription: "`transactional-authorization-with-mfa` to require consent with multi-factor authentication for " +
					"transactional authorization. Unset by default; removing it unsets it again.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(consentPolicies...)},
			},
			"authorization_details": schema.ListNestedAttribute{
				MarkdownDescription: "The types of rich authorization requests (`authorization_details`) the API accepts, at least one " +
					"when set. Unset by default; removing it unsets it again.",
				Optional:   true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{
						MarkdownDescription: "The authorization details type, 1 to 255 characters (e.g. `payment_initiation`).",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
					},
				}},
			},
			"proof_of_possession": schema.SingleNestedAttribute{
				MarkdownDescription: "Sender-constrained access tokens (mTLS or DPoP). Unset by default; removing it unsets it again.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"mechanism": schema.StringAttribute{
						MarkdownDescription: "`mtls` or `dpop`.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.OneOf(popMechanisms...)},
					},
					"required": schema.BoolAttribute{
						MarkdownDescription: "Whether proof of possession is required.",
						Required:            true,
					},
					"required_for": schema.StringAttribute{
						MarkdownDescription: "Which clients must prove possession: `public_clients` or `all_clients`. " +
							"When not set, the tenant decides, and the value it chooses is kept.",
						Optional:      true,
						Computed:      true,
						Validators:    []validator.String{stringvalidator.OneOf(popRequiredFor...)},
						PlanModifiers: keepNested,
					},
				},
			},
			"token_encryption": schema.SingleNestedAttribute{
				MarkdownDescription: "Encryption of the API's access tokens (nested JWE). The tenant never returns the key's PEM: it " +
					"is kept from the configuration, and a key changed outside Terraform is detected through `thumbprint_sha256`. " +
					"After an import the PEM is null, so the first apply sends the configured key again. Unset by default; " +
					"removing it turns encryption off.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"format": schema.StringAttribute{
						MarkdownDescription: "The token format: `compact-nested-jwe`.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.OneOf(encryptionFormats...)},
					},
					"encryption_key": schema.SingleNestedAttribute{
						MarkdownDescription: "The public key tokens are encrypted with.",
						Required:            true,
						Attributes: map[string]schema.Attribute{
							"name": schema.StringAttribute{
								MarkdownDescription: "A name for the key, 1 to 255 characters. When not set, the tenant may choose one, which is kept.",
								Optional:            true,
								Computed:            true,
								Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
								PlanModifiers:       keepNested,
							},
							"alg": schema.StringAttribute{
								MarkdownDescription: "The key encryption algorithm: `RSA-OAEP-256`, `RSA-OAEP-384` or `RSA-OAEP-512`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(encryptionAlgs...)},
							},
							"kid": schema.StringAttribute{
								MarkdownDescription: "The key id put in the token header, 1 to 255 characters. When not set, the tenant may " +
									"choose one, which is kept.",
								Optional:      true,
								Computed:      true,
								Validators:    []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
								PlanModifiers: keepNested,
							},
							"pem": schema.StringAttribute{
								MarkdownDescription: "The RSA public key (`PUBLIC KEY` or `RSA PUBLIC KEY`) or certificate (`CERTIFICATE`), " +
									"PEM-encoded. A private key is refused at plan, without showing it. Sensitive: kept out of plans and logs.",
								Required:   true,
								Sensitive:  true,
								Validators: []validator.String{validate.PublicKeyPEM()},
							},
							"thumbprint_sha256": schema.StringAttribute{
								MarkdownDescription: "The key's SHA-256 thumbprint, as the tenant computes it.",
								Computed:            true,
								PlanModifiers:       []planmodifier.String{thumbprintPlan{}},
							},
						},
					},
				},
			},
			"authorization_policy": schema.SingleNestedAttribute{
				MarkdownDescription: "The authorization policy the API uses. Unset by default; removing it unsets it again.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"policy_id": schema.StringAttribute{
						MarkdownDescription: "The policy's id, 1 to 255 characters.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
					},
				},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "ID of the application the tenant linked to this API, if any.",
				Computed:            true,
				PlanModifiers:       keepString,
			},
			"is_system": schema.BoolAttribute{
				MarkdownDescription: "Whether this is a system API of the tenant (always `false` for APIs this resource manages).",
				Computed:            true,
				PlanModifiers:       keepBool,
			},
		},
	}
}
