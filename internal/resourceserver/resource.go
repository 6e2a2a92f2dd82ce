// Package resourceserver is the tenant_resource_server resource and data source.
package resourceserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ resource.Resource                     = (*serverResource)(nil)
	_ resource.ResourceWithConfigure        = (*serverResource)(nil)
	_ resource.ResourceWithImportState      = (*serverResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*serverResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*serverResource)(nil)
	_ resource.ResourceWithConfigValidators = (*serverResource)(nil)
	_ resource.ResourceWithIdentity         = (*serverResource)(nil)
)

// NewResource returns the tenant_resource_server resource.
func NewResource() resource.Resource { return &serverResource{} }

type serverResource struct {
	framework.WithTenant
}

// object names an API in the diagnostics of its delete and import.
var object = framework.Object{TypeName: TypeName, Summary: "resource server", Noun: "API"}

func (r *serverResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *serverResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The API's ID (24 hexadecimal characters).")
}

// ConfigValidators refuses a write-only secret without its version.
func (r *serverResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{framework.WriteOnlyPairs(framework.WriteOnly{Value: "signing_secret_wo"})}
}

// ValidateConfig checks the rules that span attributes, before any request.
func (r *serverResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m resourceModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	alg := m.SigningAlg
	if alg.IsNull() {
		alg = types.StringValue(defaultSigningAlg)
	}
	for name, secret := range map[string]types.String{"signing_secret": m.SigningSecret, "signing_secret_wo": m.SigningSecretWO} {
		if !secret.IsNull() && !alg.IsUnknown() && alg.ValueString() != "HS256" {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Invalid attribute combination", fmt.Sprintf(
				"Attribute %[1]s is only used with signing_alg = \"HS256\", got signing_alg = %[2]s. Set signing_alg to \"HS256\" or remove %[1]s.", name, alg))
		}
	}
	life, web := m.TokenLifetime, m.TokenLifetimeForWeb
	if life.IsNull() {
		life = types.Int64Value(defaultTokenLifetime)
	}
	if !life.IsUnknown() && flex.IsSet(web) && web.ValueInt64() > life.ValueInt64() {
		detail := fmt.Sprintf("Attribute token_lifetime_for_web must be at most token_lifetime (%d), got: %d.", life.ValueInt64(), web.ValueInt64())
		if m.TokenLifetime.IsNull() {
			detail += fmt.Sprintf(" token_lifetime is not set, so it is the default, %d.", defaultTokenLifetime)
		}
		resp.Diagnostics.AddAttributeError(path.Root("token_lifetime_for_web"), "Invalid attribute value",
			detail+" Lower token_lifetime_for_web or raise token_lifetime.")
	}
	dialect := m.TokenDialect.ValueString()
	// Left out, enforce_policies is not enforced either: a new API leaves it
	// unset, and removing true plans false (enforcePoliciesPlan).
	if !m.TokenDialect.IsUnknown() && strings.HasSuffix(dialect, "_authz") && !m.EnforcePolicies.IsUnknown() && !m.EnforcePolicies.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("token_dialect"), "Token dialect without enforced policies", fmt.Sprintf(
			"token_dialect = %q adds the user's permissions to access tokens only when role-based access control is enforced. "+
				"Set enforce_policies = true, or use a dialect without _authz.", dialect))
	}
}

// isSystemIdentifier reports whether ident is one of the tenant's system
// APIs: the Management API, or an identifier from which the tenant makes a
// system API when an API is created with it (reference §4: the express
// configuration and My Account APIs).
func isSystemIdentifier(ep mgmt.Endpoint, ident string) bool {
	return ident == ep.DefaultAudience() || ident == "https://"+ep.Host+"/me/" || ident == "urn:auth0:express-configure"
}

// systemAPIDetail says why a system API is not managed and what to do.
// The templated ones are not managed either: the create of one makes the
// tenant's object (its name, scopes and lifetimes are the template's, not
// the configuration's) and the express configuration API refuses every
// update (reference §4), so no configuration could stay in step with it.
func systemAPIDetail(ep mgmt.Endpoint, ident string) string {
	if ident == ep.DefaultAudience() {
		return fmt.Sprintf("%q is the tenant's Management API, a system API that exists from the tenant's creation and takes "+
			"only a few settings, so this resource does not manage it. Read it with the tenant_resource_server data source, "+
			"or choose another identifier.", ident)
	}
	return fmt.Sprintf("Creating an API with identifier %q makes a system API from the tenant's template, whose settings come "+
		"from the template and take few or no changes, so this resource does not create or manage it. Create it outside "+
		"Terraform and read it with the tenant_resource_server data source, or choose another identifier.", ident)
}

// creation names an API with the identifier in create and plan
// diagnostics.
func creation(identifier string) framework.Creation {
	return framework.Creation{TypeName: TypeName, Summary: "resource server", Noun: "API", Key: "identifier", Value: identifier, ImportByKey: true}
}

func (r *serverResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m, config resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := m.toCreate(ctx, config)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	s, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.ResourceServer, error) { return r.Tenant.API.CreateResourceServer(ctx, body) },
		func() (*mgmt.ResourceServer, error) { return r.Tenant.API.FindResourceServer(ctx, body.Identifier) },
		func(found *mgmt.ResourceServer) bool { return sameServer(body, found) })
	var found *framework.Found
	if s != nil {
		found = &framework.Found{ID: s.ID}
	}
	if !creation(body.Identifier).Result(found, outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the API with identifier %q", body.Identifier), err)
	}, &resp.Diagnostics) {
		return
	}
	// Only an identifier IsSystemIdentifier does not know gets here: the
	// plan refuses the ones it knows.
	if s.IsSystem {
		resp.Diagnostics.AddError("Unable to create resource server", fmt.Sprintf("Creating the API with identifier %q made a "+
			"system API of the tenant (id %s), which this resource does not manage. It stays in the tenant: read it with the "+
			"tenant_resource_server data source, or delete it through the API if it is not wanted.", s.Identifier, s.ID))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

func (r *serverResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	s, err := r.Tenant.ResourceServers.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read resource server", framework.APIErrorDetail(fmt.Sprintf("Reading the API %q", m.ID.ValueString()), err))
		return
	}
	if s.IsSystem {
		resp.Diagnostics.AddError("Unable to manage a system API", systemAPIDetail(r.Tenant.API.Endpoint(), s.Identifier))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *serverResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	var secretWO types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("signing_secret_wo"), &secretWO)...)
	body, diags := plan.toUpdate(ctx, state.serverModel, secretWO, !plan.SigningSecretWOVer.Equal(state.SigningSecretWOVer))
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
	object.Delete(ctx, req, resp, r.Tenant.API.DeleteResourceServer)
}

// ImportState accepts the id or the identifier (or an identity's id). The
// API resolves either; the answer must carry what was asked for, and the
// state keeps the id.
func (r *serverResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the API's id (24 hexadecimal characters) or its identifier (audience)"
	s := framework.ReadImported(ctx, req, resp, object, accepted, r.Tenant.API.GetResourceServer)
	switch {
	case s == nil:
		return
	case s.IsSystem:
		resp.Diagnostics.AddError("Unable to import resource server", systemAPIDetail(r.Tenant.API.Endpoint(), s.Identifier))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), s.ID)...)
}
