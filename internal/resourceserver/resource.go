// Package resourceserver is the tenant_resource_server resource and data source.
package resourceserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_resource_server"

var (
	// SigningAlgs are the algorithms the API signs access tokens with.
	SigningAlgs = []string{"HS256", "RS256", "RS512", "PS256"}
	// TokenDialects are the access token formats.
	TokenDialects = []string{"access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"}
)

var (
	_ resource.Resource                   = (*serverResource)(nil)
	_ resource.ResourceWithConfigure      = (*serverResource)(nil)
	_ resource.ResourceWithImportState    = (*serverResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*serverResource)(nil)
	_ resource.ResourceWithValidateConfig = (*serverResource)(nil)
)

// NewResource returns the tenant_resource_server resource.
func NewResource() resource.Resource { return &serverResource{} }

type serverResource struct {
	api *mgmt.Client
}

func (r *serverResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *serverResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepBool := []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API (resource server): an audience that applications request access tokens for, with the " +
			"permissions (scopes) it defines. The tenant's system APIs, such as its Management API, cannot be managed.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The API's ID (24 hexadecimal characters). Assigned by the tenant; never changes.",
				Computed:            true, PlanModifiers: keepString,
			},
			"identifier": schema.StringAttribute{
				MarkdownDescription: "The API's unique identifier, used as the `audience` of token requests (1 to 600 characters, e.g. `https://api.example.com/orders`). Changing it replaces the API.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthBetween(1, 600)},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A friendly name, up to 200 characters, without `<` or `>`. Updated in place; removing it keeps the last name.",
				Optional:            true, Computed: true, PlanModifiers: keepString,
				Validators: []validator.String{stringvalidator.LengthBetween(1, 200), stringvalidator.RegexMatches(regexp.MustCompile(`^[^<>]*$`), "must not contain < or >")},
			},
			"scopes": schema.SetNestedAttribute{
				MarkdownDescription: "The permissions the API defines. At least one when set; leaving it unset means the API defines none " +
					"(scopes added outside Terraform are then removed). Updated in place; the whole list is replaced.",
				Optional:   true,
				Validators: []validator.Set{setvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"value": schema.StringAttribute{
						MarkdownDescription: "The permission's name, 1 to 280 characters (e.g. `read:orders`).",
						Required:            true,
						Validators:          []validator.String{stringvalidator.LengthBetween(1, 280)},
					},
					"description": schema.StringAttribute{
						MarkdownDescription: "What the permission allows, up to 500 characters. Defaults to an empty string.",
						Optional:            true, Computed: true, Default: stringdefault.StaticString(""),
						Validators: []validator.String{stringvalidator.LengthAtMost(500)},
					},
				}},
			},
			"signing_alg": schema.StringAttribute{
				MarkdownDescription: "Algorithm access tokens are signed with: `HS256`, `RS256`, `RS512` or `PS256`. The tenant defaults to `RS256`. Updated in place.",
				Optional:            true, Computed: true, PlanModifiers: keepString,
				Validators: []validator.String{stringvalidator.OneOf(SigningAlgs...)},
			},
			"signing_secret": schema.StringAttribute{
				MarkdownDescription: "The secret that signs HS256 tokens, at least 16 characters; only with `signing_alg = \"HS256\"`. Generated by the tenant when not set.",
				Optional:            true, Computed: true, Sensitive: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(16)},
			},
			"allow_offline_access": schema.BoolAttribute{
				MarkdownDescription: "Whether refresh tokens can be issued for this API. The tenant defaults to `false`.",
				Optional:            true, Computed: true, PlanModifiers: keepBool,
			},
			"token_lifetime": schema.Int64Attribute{
				MarkdownDescription: "Lifetime of access tokens, in seconds, `0` to `2592000` (30 days). The tenant defaults to `86400`.",
				Optional:            true, Computed: true, PlanModifiers: keepInt,
				Validators: []validator.Int64{int64validator.Between(0, 2592000)},
			},
			"token_lifetime_for_web": schema.Int64Attribute{
				MarkdownDescription: "Lifetime of access tokens issued through the implicit or hybrid flows, in seconds; at most `token_lifetime`. The tenant defaults to `7200`.",
				Optional:            true, Computed: true, PlanModifiers: keepInt,
				Validators: []validator.Int64{int64validator.Between(0, 2592000)},
			},
			"skip_consent_for_verifiable_first_party_clients": schema.BoolAttribute{
				MarkdownDescription: "Whether first-party applications skip the consent prompt. The tenant defaults to `false`.",
				Optional:            true, Computed: true, PlanModifiers: keepBool,
			},
			"enforce_policies": schema.BoolAttribute{
				MarkdownDescription: "Whether role-based access control policies are enforced for this API.",
				Optional:            true, Computed: true, PlanModifiers: keepBool,
			},
			"token_dialect": schema.StringAttribute{
				MarkdownDescription: "Format of the access tokens: `access_token`, `access_token_authz`, `rfc9068_profile` or `rfc9068_profile_authz` (the `_authz` forms add permissions and go with `enforce_policies = true`).",
				Optional:            true, Computed: true, PlanModifiers: keepString,
				Validators: []validator.String{stringvalidator.OneOf(TokenDialects...)},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "ID of the application the tenant linked to this API, if any.",
				Computed:            true, PlanModifiers: keepString,
			},
			"is_system": schema.BoolAttribute{
				MarkdownDescription: "Whether this is a system API of the tenant (always `false` for APIs this resource manages).",
				Computed:            true, PlanModifiers: keepBool,
			},
		},
	}
}

func (r *serverResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = framework.Client(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks the rules that span attributes, before any request.
func (r *serverResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if !m.SigningSecret.IsNull() && !m.SigningAlg.IsUnknown() && m.SigningAlg.ValueString() != "HS256" {
		resp.Diagnostics.AddAttributeError(path.Root("signing_secret"), "Invalid attribute combination",
			fmt.Sprintf("Attribute signing_secret is only used with signing_alg = \"HS256\", got signing_alg = %s. Set signing_alg to \"HS256\" or remove signing_secret.", m.SigningAlg))
	}
	life, web := m.TokenLifetime, m.TokenLifetimeForWeb
	if !life.IsNull() && !life.IsUnknown() && !web.IsNull() && !web.IsUnknown() && web.ValueInt64() > life.ValueInt64() {
		resp.Diagnostics.AddAttributeError(path.Root("token_lifetime_for_web"), "Invalid attribute value",
			fmt.Sprintf("Attribute token_lifetime_for_web must be at most token_lifetime (%d), got: %d.", life.ValueInt64(), web.ValueInt64()))
	}
}

// ModifyPlan refuses, at plan time, an identifier that belongs to one of the
// tenant's system APIs: they exist from the start and cannot be managed.
func (r *serverResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.api == nil {
		return
	}
	var ident types.String
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("identifier"), &ident)...); resp.Diagnostics.HasError() || ident.IsUnknown() {
		return
	}
	if IsSystemIdentifier(r.api.Endpoint(), ident.ValueString()) {
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
	body, diags := m.toAPI(ctx, false)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	s, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.ResourceServer, error) { return r.api.CreateResourceServer(ctx, body) },
		func() (*mgmt.ResourceServer, error) {
			found, err := r.api.GetResourceServer(ctx, body.Identifier)
			if mgmt.IsNotFound(err) {
				return nil, nil
			}
			return found, err
		},
		func(found *mgmt.ResourceServer) bool { return sameServer(body, found) })
	if errors.Is(err, mgmt.ErrDifferent) {
		resp.Diagnostics.AddError("Unable to create resource server", fmt.Sprintf(
			"An API with identifier %q already exists (id %s) and differs from the configuration, so it was not adopted. Identifiers are unique in the tenant.\n\n"+
				"To manage it with Terraform, import it:\n  terraform import %s.<name> %s", body.Identifier, s.ID, TypeName, body.Identifier))
		return
	}
	if err != nil {
		detail := framework.APIErrorDetail(fmt.Sprintf("Creating the API with identifier %q", body.Identifier), err)
		if mgmt.IsConflict(err) {
			detail = fmt.Sprintf("An API with identifier %q already exists (409); identifiers are unique in the tenant.\n\n"+
				"To manage it with Terraform, import it:\n  terraform import %s.<name> %s", body.Identifier, TypeName, body.Identifier)
		}
		resp.Diagnostics.AddError("Unable to create resource server", detail)
		return
	}
	if s.IsSystem {
		resp.Diagnostics.AddError("Unable to create resource server", systemAPIDetail(s.Identifier))
		return
	}
	if outcome == mgmt.Adopted {
		resp.Diagnostics.AddWarning("Existing resource server adopted", fmt.Sprintf(
			"The answer to creating the API %q was lost (or the tenant reported that it exists), and the API found under that identifier "+
				"(id %s) equals the configuration, so it was taken into the state instead of created twice.", body.Identifier, s.ID))
	}
	resp.Diagnostics.Append(m.fromAPI(s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *serverResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	s, err := r.api.ReadResourceServer(ctx, m.ID.ValueString())
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
	resp.Diagnostics.Append(m.fromAPI(s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *serverResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state serverModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := plan.toAPI(ctx, true)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	// An unchanged secret is not sent again; the API keeps it.
	if plan.SigningSecret.Equal(state.SigningSecret) {
		body.SigningSecret = nil
	}
	s, err := r.api.UpdateResourceServer(ctx, state.ID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to update resource server", framework.APIErrorDetail(fmt.Sprintf("Updating the API %q", state.ID.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *serverResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.DeleteResourceServer(ctx, m.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Unable to delete resource server", framework.APIErrorDetail(fmt.Sprintf("Deleting the API %q", m.ID.ValueString()), err))
	}
}

// ImportState accepts the id or the identifier; Read resolves either and
// stores the canonical id.
func (r *serverResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Unable to import resource server", "The import ID is empty. Use the API's id or its identifier (audience).")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
