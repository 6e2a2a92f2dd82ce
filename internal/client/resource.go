// Package client is the tenant's applications and their grants:
// tenant_client and tenant_client_grant (resources, data sources, list
// resources), and the tenant_client_secret ephemeral resource.
package client

import (
	"context"
	"encoding/json"
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
	_ resource.Resource                   = (*clientResource)(nil)
	_ resource.ResourceWithConfigure      = (*clientResource)(nil)
	_ resource.ResourceWithImportState    = (*clientResource)(nil)
	_ resource.ResourceWithIdentity       = (*clientResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*clientResource)(nil)
	_ resource.ResourceWithValidateConfig = (*clientResource)(nil)
)

// NewResource returns the tenant_client resource.
func NewResource() resource.Resource { return &clientResource{} }

type clientResource struct {
	framework.WithTenant
}

// clientObject names a client in the diagnostics of its delete and import.
var clientObject = framework.Object{TypeName: TypeName, Summary: "client", Noun: "client"}

func (r *clientResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *clientResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The client's ID (its client_id).")
}

// createAttempts bounds the creates of one client after lost answers.
const createAttempts = 3

// clientCreation names a client by its name in the diagnostics of a
// create. A client's name is not unique, so a create whose answer was lost
// cannot be told from another writer's client of the same name: when none
// of that name exists the create is sent again, and when some exist none is
// adopted.
func clientCreation(name string) framework.Creation {
	return framework.Creation{TypeName: TypeName, Summary: "client", Noun: "client", Key: "name", Value: name, NotUnique: true}
}

func (r *clientResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m, config resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}
	body, diags := m.toCreate(ctx, config.clientModel)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	var named []mgmt.AppClient
	c, outcome, err := mgmt.SafeCreate(ctx, createAttempts,
		func() (*mgmt.AppClient, error) { return r.Tenant.API.CreateClient(ctx, body) },
		func() (*mgmt.AppClient, error) {
			var err error
			if named, err = r.Tenant.API.FindClientsByName(ctx, *body.Name); err != nil || len(named) == 0 {
				return nil, err
			}
			return &named[len(named)-1], nil
		},
		func(*mgmt.AppClient) bool { return false })
	if !clientCreation(*body.Name).Result(namedClients(named), outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the client named %q", *body.Name), err)
	}, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, c)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

// namedClients is what a create found under its name: the newest client,
// the others beside it.
func namedClients(named []mgmt.AppClient) *framework.Found {
	if len(named) == 0 {
		return nil
	}
	others := make([]string, len(named)-1)
	for i, c := range named[:len(named)-1] {
		others[i] = c.ClientID
	}
	f := &framework.Found{ID: named[len(named)-1].ClientID}
	if len(others) > 0 {
		f.Description = "and " + strings.Join(others, ", ")
	}
	return f
}

func (r *clientResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	c, err := r.Tenant.Clients.Read(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read client", framework.APIErrorDetail(fmt.Sprintf("Reading the client %q", m.ID.ValueString()), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, c)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update sends the changed fields, then rotates the secret when
// client_secret_rotation changed to another value; with neither to send
// (client_secret_in_state switched on) it reads the client.
func (r *clientResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	body, diags := plan.toUpdate(ctx, state.clientModel)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	var c *mgmt.AppClient
	var err error
	if !emptyUpdate(body) {
		if c, err = r.Tenant.API.UpdateClient(ctx, id, body); err != nil {
			resp.Diagnostics.AddError("Unable to update client", framework.APIErrorDetail(fmt.Sprintf("Updating the client %q", id), err))
			return
		}
	}
	if flex.Changed(plan.ClientSecretRotation, state.ClientSecretRotation) && !plan.ClientSecretRotation.IsNull() {
		patched := c
		if c, err = r.Tenant.API.RotateClientSecret(ctx, id); err != nil {
			if patched != nil {
				// The changes are in; the rotation is still to do.
				plan.ClientSecretRotation = state.ClientSecretRotation
				if plan.ClientSecret.IsUnknown() {
					plan.ClientSecret = state.ClientSecret
				}
				resp.Diagnostics.Append(plan.fromAPI(ctx, patched)...)
				resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			}
			resp.Diagnostics.AddError("Unable to rotate client secret", framework.APIErrorDetail(fmt.Sprintf("Rotating the secret of the client %q", id), err)+
				"\n\nThe rotation needs the update:client_keys scope.")
			return
		}
	}
	if c == nil && req.Plan.Raw.IsFullyKnown() {
		// Nothing was sent and nothing is left to learn: the plan holds
		// the state's values and the new switches.
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
		return
	}
	if c == nil || plan.ClientSecret.IsUnknown() && c.ClientSecret == "" {
		if c, err = r.Tenant.API.GetClient(ctx, id); err != nil {
			resp.Diagnostics.AddError("Unable to read client", framework.APIErrorDetail(fmt.Sprintf("Reading the client %q", id), err))
			return
		}
	}
	if plan.ClientSecret.IsUnknown() && c.ClientSecret == "" {
		resp.Diagnostics.AddAttributeError(path.Root("client_secret_in_state"), "Unable to read client secret", fmt.Sprintf(
			"The tenant did not show the secret of the client %q: reading a client's secret needs the read:client_keys scope. "+
				"Grant it to the provider's client, or read the secret with the tenant_client_secret ephemeral resource where it has it.", id))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(ctx, c)...)
	keptScopes(ctx, req, plan.clientModel, resp)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

// emptyUpdate reports whether a PATCH body would carry nothing.
func emptyUpdate(u mgmt.AppClientUpdate) bool {
	b, err := json.Marshal(u)
	return err == nil && string(b) == "{}"
}

func (r *clientResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	clientObject.Delete(ctx, req, resp, r.Tenant.API.DeleteClient)
}

// ImportState accepts the client's id (its client_id), or an identity's.
func (r *clientResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c := framework.ReadImported(ctx, req, resp, clientObject, "the client's id (its client_id)", r.Tenant.API.GetClient)
	if c == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), c.ClientID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("client_secret_in_state"), types.BoolValue(false))...)
}
