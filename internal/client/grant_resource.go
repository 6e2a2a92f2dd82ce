package client

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ resource.Resource                = (*grantResource)(nil)
	_ resource.ResourceWithConfigure   = (*grantResource)(nil)
	_ resource.ResourceWithImportState = (*grantResource)(nil)
	_ resource.ResourceWithIdentity    = (*grantResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*grantResource)(nil)
)

// NewGrantResource returns the tenant_client_grant resource.
func NewGrantResource() resource.Resource { return &grantResource{} }

type grantResource struct {
	framework.WithTenant
}

// grantObject names a grant in the diagnostics of its delete.
var grantObject = framework.Object{TypeName: GrantTypeName, Summary: "client grant", Noun: "grant"}

func (r *grantResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = GrantTypeName
}

func (r *grantResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The grant's ID (cgr_...).")
}

// grantCreation names a grant by its API in the diagnostics of a create
// (but the 409 with the grant found: grantExists).
func grantCreation(audience string) framework.Creation {
	return framework.Creation{TypeName: GrantTypeName, Summary: "client grant", Noun: "grant for this client", Key: "audience", Value: audience}
}

func (r *grantResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m, config grantModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := m.toCreate(ctx, config)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	g, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.ClientGrant, error) { return r.Tenant.API.CreateClientGrant(ctx, body) },
		func() (*mgmt.ClientGrant, error) {
			found, err := r.Tenant.API.FindClientGrants(ctx, body.ClientID, body.Audience)
			return mgmt.GrantOfSubject(found, m.SubjectType.ValueString()), err
		},
		func(found *mgmt.ClientGrant) bool { return sameGrant(body, found) })
	var found *framework.Found
	if g != nil {
		found = &framework.Found{ID: g.ID, Description: fmt.Sprintf("client %q", g.ClientID)}
	}
	if errors.Is(err, mgmt.ErrExists) {
		id := "<the grant's id>" // the list does not show it yet
		if g != nil {
			id = g.ID
		}
		grantExists(&resp.Diagnostics, body.ClientID, body.Audience, id)
		return
	}
	if !grantCreation(body.Audience).Result(found, outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the grant of the client %q for the API %q", body.ClientID, body.Audience), err)
	}, &resp.Diagnostics) {
		return
	}
	m.fromAPI(g)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

func (r *grantResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m grantModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	g, err := r.Tenant.Grants.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, GrantTypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read client grant", framework.APIErrorDetail(fmt.Sprintf("Reading the grant %q", m.ID.ValueString()), err))
		return
	}
	m.fromAPI(g)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *grantResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state grantModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	body, diags := plan.toUpdate(ctx, state)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	g, err := r.Tenant.API.UpdateClientGrant(ctx, id, body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to update client grant", framework.APIErrorDetail(fmt.Sprintf("Updating the grant %q", id), err))
		return
	}
	plan.fromAPI(g)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

func (r *grantResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	grantObject.Delete(ctx, req, resp, r.Tenant.API.DeleteClientGrant)
}

// ImportState accepts the grant's id, or the client's id and the API's
// identifier as client_id::audience (the identifier may itself hold "::").
func (r *grantResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the grant's id (cgr_...) or client_id::audience"
	id := framework.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var (
		g   *mgmt.ClientGrant
		err error
	)
	parts, problem := framework.ImportIDParts(id, 1, "client_id", "audience")
	if problem != "" && strings.Contains(id, framework.ImportSep) {
		// Not a grant's id either: a grant's id never holds the separator.
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The import ID %q %s. Use %s.", id, problem, accepted))
		return
	}
	if problem == "" {
		if msg := validate.IDProblem(parts[0]); msg != "" {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The client_id %q of the import ID %q %s. Use %s.", parts[0], id, msg, accepted))
			return
		}
		var found []mgmt.ClientGrant
		found, err = r.Tenant.API.FindClientGrants(ctx, parts[0], parts[1])
		switch {
		case err == nil && len(found) == 0:
			resp.Diagnostics.AddError("Unable to import client grant", fmt.Sprintf("The client %q has no grant for the API %q in the tenant. Use %s.", parts[0], parts[1], accepted))
			return
		case err == nil && len(found) > 1:
			resp.Diagnostics.AddError("Unable to import client grant", fmt.Sprintf(
				"The client %q has %d grants for the API %q, one per subject type: %s. Import the one to manage by its id.",
				parts[0], len(found), parts[1], mgmt.GrantIDs(found)))
			return
		case err == nil:
			g = &found[0]
		}
	} else {
		if resp.Diagnostics.Append(framework.CheckImportID(GrantTypeName, id, accepted)...); resp.Diagnostics.HasError() {
			return
		}
		g, err = r.Tenant.API.GetClientGrant(ctx, id)
		if mgmt.IsNotFound(err) {
			resp.Diagnostics.AddError("Unable to import client grant", fmt.Sprintf("No grant has the id %q in the tenant. Use %s.", id, accepted))
			return
		}
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to import client grant", framework.APIErrorDetail(fmt.Sprintf("Looking up the grant %q", id), err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), g.ID)...)
}
