// Package resourceserver is the tenant_resource_server resource and data source.
package resourceserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

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

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_resource_server"

// The tenant's defaults for an API (reference §4).
const (
	DefaultSigningAlg          = "RS256"
	DefaultTokenLifetime       = 86400
	DefaultTokenLifetimeForWeb = 7200
	MaxTokenLifetime           = 2592000
)

var (
	// SigningAlgs are the algorithms the API signs access tokens with.
	SigningAlgs = []string{"HS256", "RS256", "RS512", "PS256"}
	// TokenDialects are the access token formats.
	TokenDialects = []string{"access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"}
	// The enums of the nested settings (reference §4).
	UserPolicies      = []string{"allow_all", "deny_all", "require_client_grant"}
	ClientPolicies    = []string{"deny_all", "require_client_grant"}
	ConsentPolicies   = []string{"transactional-authorization-with-mfa"}
	PoPMechanisms     = []string{"mtls", "dpop"}
	PoPRequiredFor    = []string{"public_clients", "all_clients"}
	EncryptionFormats = []string{"compact-nested-jwe"}
	EncryptionAlgs    = []string{"RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512"}
)

var (
	_ resource.Resource                   = (*serverResource)(nil)
	_ resource.ResourceWithConfigure      = (*serverResource)(nil)
	_ resource.ResourceWithImportState    = (*serverResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*serverResource)(nil)
	_ resource.ResourceWithValidateConfig = (*serverResource)(nil)
	_ resource.ResourceWithIdentity       = (*serverResource)(nil)
)

// NewResource returns the tenant_resource_server resource.
func NewResource() resource.Resource { return &serverResource{} }

type serverResource struct {
	framework.WithTenant
}

func (r *serverResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *serverResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The API's ID (24 hexadecimal characters).")
}

func (r *serverResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepBool := []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API (resource server): an audience that applications request access tokens for, with the " +
			"permissions (scopes) it defines. The tenant's system APIs, such as its Management API, cannot be managed. " +
			"Every optional argument has the tenant's default: removing an argument from the configuration returns the API to that default.",
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
				MarkdownDescription: "A friendly name, 1 to 200 characters, without `<` or `>`. Removing it removes the name " +
					"(the tenant then shows none).",
				Optional: true,
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
				Default:    stringdefault.StaticString(DefaultSigningAlg),
				Validators: []validator.String{stringvalidator.OneOf(SigningAlgs...)},
			},
			"signing_secret": schema.StringAttribute{
				MarkdownDescription: "The secret that signs HS256 tokens, at least 16 characters; only with `signing_alg = \"HS256\"`. " +
					"When not set, the tenant generates one for HS256; removing it keeps the current secret. Not used with other algorithms.",
				Optional:      true,
				Computed:      true,
				Sensitive:     true,
				Validators:    []validator.String{stringvalidator.UTF8LengthAtLeast(16)},
				PlanModifiers: []planmodifier.String{signingSecretPlan{}},
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
				Default:    int64default.StaticInt64(DefaultTokenLifetime),
				Validators: []validator.Int64{int64validator.Between(0, MaxTokenLifetime)},
			},
			"token_lifetime_for_web": schema.Int64Attribute{
				MarkdownDescription: "Lifetime of access tokens issued through the implicit or hybrid flows, in seconds; at most " +
					"`token_lifetime`. Defaults to `7200`, or to `token_lifetime` when that is shorter; removing it returns to that default.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.Int64{int64validator.Between(0, MaxTokenLifetime)},
				PlanModifiers: []planmodifier.Int64{webLifetimePlan{}},
			},
			"skip_consent_for_verifiable_first_party_clients": schema.BoolAttribute{
				MarkdownDescription: "Whether first-party applications skip the consent prompt. Defaults to `false`; removing it returns to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"enforce_policies": schema.BoolAttribute{
				MarkdownDescription: "Whether role-based access control policies are enforced for this API. The tenant leaves it " +
					"unset by default; removing it unsets it again.",
				Optional: true,
			},
			"token_dialect": schema.StringAttribute{
				MarkdownDescription: "Format of the access tokens: `access_token`, `access_token_authz`, `rfc9068_profile` or " +
					"`rfc9068_profile_authz` (the `_authz` forms add the user's permissions and go with `enforce_policies = true`). " +
					"The tenant leaves it unset by default (tokens in the `access_token` format); removing it unsets it again.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(TokenDialects...)},
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
				Default:  objectdefault.StaticValue(subjectTypeAuthValue(DefaultUserPolicy, DefaultClientPolicy)),
				Attributes: map[string]schema.Attribute{
					"user": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for users (tokens issued on behalf of a user). Defaults to `allow_all`.",
						Optional:            true,
						Computed:            true,
						Default:             objectdefault.StaticValue(policyValue(DefaultUserPolicy)),
						Attributes: map[string]schema.Attribute{
							"policy": schema.StringAttribute{
								MarkdownDescription: "`allow_all`, `deny_all` or `require_client_grant`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(UserPolicies...)},
							},
						},
					},
					"client": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for clients (client credentials tokens). Defaults to `require_client_grant`.",
						Optional:            true,
						Computed:            true,
						Default:             objectdefault.StaticValue(policyValue(DefaultClientPolicy)),
						Attributes: map[string]schema.Attribute{
							"policy": schema.StringAttribute{
								MarkdownDescription: "`deny_all` or `require_client_grant`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(ClientPolicies...)},
							},
						},
					},
				},
			},
			"consent_policy": schema.StringAttribute{
				MarkdownDescription: "`transactional-authorization-with-mfa` to require consent with multi-factor authentication for " +
					"transactional authorization. Unset by default; removing it unsets it again.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(ConsentPolicies...)},
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
						Validators:          []validator.String{stringvalidator.OneOf(PoPMechanisms...)},
					},
					"required": schema.BoolAttribute{
						MarkdownDescription: "Whether proof of possession is required.",
						Required:            true,
					},
					"required_for": schema.StringAttribute{
						MarkdownDescription: "Which clients must prove possession: `public_clients` or `all_clients`. " +
							"Unset by default; removing it unsets it again.",
						Optional:   true,
						Validators: []validator.String{stringvalidator.OneOf(PoPRequiredFor...)},
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
						Validators:          []validator.String{stringvalidator.OneOf(EncryptionFormats...)},
					},
					"encryption_key": schema.SingleNestedAttribute{
						MarkdownDescription: "The public key tokens are encrypted with.",
						Required:            true,
						Attributes: map[string]schema.Attribute{
							"name": schema.StringAttribute{
								MarkdownDescription: "A name for the key, 1 to 255 characters.",
								Optional:            true,
								Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
							},
							"alg": schema.StringAttribute{
								MarkdownDescription: "The key encryption algorithm: `RSA-OAEP-256`, `RSA-OAEP-384` or `RSA-OAEP-512`.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.OneOf(EncryptionAlgs...)},
							},
							"kid": schema.StringAttribute{
								MarkdownDescription: "The key id put in the token header, 1 to 255 characters.",
								Optional:            true,
								Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
							},
							"pem": schema.StringAttribute{
								MarkdownDescription: "The RSA public key or certificate, PEM-encoded.",
								Required:            true,
								Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
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

// ValidateConfig checks the rules that span attributes, before any request.
func (r *serverResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	alg := m.SigningAlg
	if alg.IsNull() {
		alg = types.StringValue(DefaultSigningAlg)
	}
	if !m.SigningSecret.IsNull() && !alg.IsUnknown() && alg.ValueString() != "HS256" {
		resp.Diagnostics.AddAttributeError(path.Root("signing_secret"), "Invalid attribute combination", fmt.Sprintf(
			"Attribute signing_secret is only used with signing_alg = \"HS256\", got signing_alg = %s. Set signing_alg to \"HS256\" or remove signing_secret.", alg))
	}
	life, web := m.TokenLifetime, m.TokenLifetimeForWeb
	if life.IsNull() {
		life = types.Int64Value(DefaultTokenLifetime)
	}
	if !life.IsUnknown() && !web.IsNull() && !web.IsUnknown() && web.ValueInt64() > life.ValueInt64() {
		detail := fmt.Sprintf("Attribute token_lifetime_for_web must be at most token_lifetime (%d), got: %d.", life.ValueInt64(), web.ValueInt64())
		if m.TokenLifetime.IsNull() {
			detail += fmt.Sprintf(" token_lifetime is not set, so it is the default, %d.", DefaultTokenLifetime)
		}
		resp.Diagnostics.AddAttributeError(path.Root("token_lifetime_for_web"), "Invalid attribute value",
			detail+" Lower token_lifetime_for_web or raise token_lifetime.")
	}
	dialect := m.TokenDialect.ValueString()
	if !m.TokenDialect.IsUnknown() && strings.HasSuffix(dialect, "_authz") && !m.EnforcePolicies.IsUnknown() && !m.EnforcePolicies.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("token_dialect"), "Token dialect without enforced policies", fmt.Sprintf(
			"token_dialect = %q adds the user's permissions to access tokens only when role-based access control is enforced. "+
				"Set enforce_policies = true, or use a dialect without _authz.", dialect))
	}
}

// ModifyPlan refuses, at plan time, an identifier that belongs to one of the
// tenant's system APIs: they exist from the start and cannot be managed.
func (r *serverResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Tenant.Configured() {
		return
	}
	var ident types.String
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("identifier"), &ident)...); resp.Diagnostics.HasError() || ident.IsUnknown() {
		return
	}
	if IsSystemIdentifier(r.Tenant.API.Endpoint(), ident.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("identifier"), "Unable to manage a system API", systemAPIDetail(ident.ValueString()))
	}
}

// IsSystemIdentifier reports whether ident is one of the tenant's system APIs.
func IsSystemIdentifier(ep mgmt.Endpoint, ident string) bool {
	return ident == ep.DefaultAudience() || ident == "https://"+ep.Host+"/me/" || ident == "urn:auth0:express-configure"
}

func systemAPIDetail(ident string) string {
	return fmt.Sprintf("%q is a system API of the tenant. System APIs exist from the tenant's creation, cannot be created or deleted, "+
		"and accept only a few settings, so this resource does not manage them. Use the tenant_resource_server data source to read it, "+
		"or choose another identifier.", ident)
}

func (r *serverResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := m.toCreate(ctx)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	s, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.ResourceServer, error) { return r.Tenant.API.CreateResourceServer(ctx, body) },
		func() (*mgmt.ResourceServer, error) {
			found, err := r.Tenant.API.GetResourceServer(ctx, body.Identifier)
			if mgmt.IsNotFound(err) {
				return nil, nil
			}
			return found, err
		},
		func(found *mgmt.ResourceServer) bool { return sameServer(body, found) })
	switch {
	case errors.Is(err, mgmt.ErrExists):
		resp.Diagnostics.AddAttributeError(path.Root("identifier"), "Unable to create resource server", existsDetail(body.Identifier, s))
		return
	case errors.Is(err, mgmt.ErrDifferent):
		resp.Diagnostics.AddError("Unable to create resource server", fmt.Sprintf(
			"The answer to creating the API %q was lost, and the API now found under that identifier (id %s) differs from the configuration, "+
				"so it was not adopted: another writer may have created it. Identifiers are unique in the tenant.\n\n"+
				"If it is yours, import it:\n  terraform import %s.<name> %s", body.Identifier, s.ID, TypeName, s.ID))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to create resource server", framework.APIErrorDetail(fmt.Sprintf("Creating the API with identifier %q", body.Identifier), err))
		return
	case s.IsSystem:
		resp.Diagnostics.AddError("Unable to create resource server", systemAPIDetail(s.Identifier))
		return
	case outcome == mgmt.Adopted:
		resp.Diagnostics.AddWarning("Resource server created after a lost answer", fmt.Sprintf(
			"The answer to creating the API %q was lost, and the API found under that identifier (id %s) equals the configuration, "+
				"so it is the one this apply created and was taken into the state instead of created twice.", body.Identifier, s.ID))
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

// existsDetail explains a 409 on the first create: the API was there before,
// so it is someone else's until it is imported.
func existsDetail(ident string, found *mgmt.ResourceServer) string {
	id := "<id>"
	if found != nil {
		id = found.ID
	}
	return fmt.Sprintf("An API with identifier %q already exists in the tenant (id %s); identifiers are unique, so it was not created, "+
		"and it is not taken over because it existed before this apply (another configuration, or another instance of this "+
		"resource with the same identifier, may manage it).\n\n"+
		"To manage it here, import it:\n  terraform import %s.<name> %s\n"+
		"or choose another identifier.", ident, id, TypeName, id)
}

func (r *serverResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	s, err := r.Tenant.ResourceServers.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		resp.Diagnostics.Append(framework.RemovedFromState(TypeName, m.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read resource server", framework.APIErrorDetail(fmt.Sprintf("Reading the API %q", m.ID.ValueString()), err))
		return
	}
	if s.IsSystem {
		resp.Diagnostics.AddError("Unable to manage a system API", systemAPIDetail(s.Identifier))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *serverResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state serverModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := plan.toUpdate(ctx, state)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	s, err := r.Tenant.API.UpdateResourceServer(ctx, state.ID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to update resource server", framework.APIErrorDetail(fmt.Sprintf("Updating the API %q", state.ID.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

func (r *serverResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if err := r.Tenant.API.DeleteResourceServer(ctx, m.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Unable to delete resource server", framework.APIErrorDetail(fmt.Sprintf("Deleting the API %q", m.ID.ValueString()), err))
	}
}

// ImportState accepts the id or the identifier (or an identity's id). The
// API resolves either; the answer must carry what was asked for, and the
// state keeps the id.
func (r *serverResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the API's id (24 hexadecimal characters) or its identifier (audience)"
	id := framework.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.Append(framework.CheckImportID(TypeName, id, accepted)...); resp.Diagnostics.HasError() {
		return
	}
	s, err := r.Tenant.API.GetResourceServer(ctx, id)
	switch {
	case mgmt.IsNotFound(err):
		resp.Diagnostics.AddError("Unable to import resource server", fmt.Sprintf("No API has the id or identifier %q in the tenant. Use %s.", id, accepted))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to import resource server", framework.APIErrorDetail(fmt.Sprintf("Looking up the API %q", id), err))
		return
	case s.IsSystem:
		resp.Diagnostics.AddError("Unable to import resource server", systemAPIDetail(s.Identifier))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), s.ID)...)
}
