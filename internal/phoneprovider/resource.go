package phoneprovider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ resource.Resource                     = (*providerResource)(nil)
	_ resource.ResourceWithConfigure        = (*providerResource)(nil)
	_ resource.ResourceWithImportState      = (*providerResource)(nil)
	_ resource.ResourceWithIdentity         = (*providerResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*providerResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*providerResource)(nil)
	_ resource.ResourceWithConfigValidators = (*providerResource)(nil)
)

// NewResource returns the tenant_phone_provider resource.
func NewResource() resource.Resource { return &providerResource{} }

type providerResource struct {
	framework.WithTenant
}

// object names a phone provider in the diagnostics of its delete and import.
var object = framework.Object{TypeName: TypeName, Summary: "phone provider", Noun: "phone provider"}

func (r *providerResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *providerResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = framework.IDIdentitySchema("The phone provider's ID (pro_ and 22 letters and digits).")
}

func (r *providerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m resourceModel
	var wo types.Object
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("credentials_wo"), &wo)...); resp.Diagnostics.HasError() {
		return
	}
	creds, diags := credentials(ctx, wo)
	body, d := m.toCreate(ctx, creds)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	p, outcome, err := mgmt.SafeCreate(ctx, 3,
		func() (*mgmt.PhoneProvider, error) { return r.Tenant.API.CreatePhoneProvider(ctx, body) },
		func() (*mgmt.PhoneProvider, error) { return r.Tenant.API.FindPhoneProvider(ctx) },
		func(found *mgmt.PhoneProvider) bool { return same(body, found) })
	if errors.Is(err, mgmt.ErrExists) {
		resp.Diagnostics.AddError("Unable to create phone provider", existsDetail(p))
		return
	}
	var found *framework.Found
	if p != nil {
		found = &framework.Found{ID: p.ID}
	}
	creation := framework.Creation{TypeName: TypeName, Summary: "phone provider", Noun: "phone provider", Key: "name", Value: body.Name}
	if !creation.Result(found, outcome, err, func(err error) string {
		return framework.APIErrorDetail(fmt.Sprintf("Creating the %s phone provider", body.Name), err)
	}, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, p)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
}

// existsDetail says that the tenant has a phone provider already (p, when
// the lookup found it) and how to manage it here.
func existsDetail(p *mgmt.PhoneProvider) string {
	id, name := "<its id>", ""
	if p != nil {
		id, name = p.ID, fmt.Sprintf(", name %q", p.Name)
	}
	return fmt.Sprintf("The tenant already has a phone provider (id %s%s), and a tenant has one. To manage it here, import it:\n"+
		"  terraform import %s.<name> %s", id, name, TypeName, id)
}

func (r *providerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// The identity comes from the state, so it holds even when the object is gone.
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: m.ID}, &resp.Diagnostics)
	p, err := r.Tenant.API.GetPhoneProvider(ctx, m.ID.ValueString())
	if mgmt.IsNotFound(err) {
		framework.Gone(ctx, resp, TypeName, m.ID.ValueString())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read phone provider", framework.APIErrorDetail(fmt.Sprintf("Reading the phone provider %q", m.ID.ValueString()), err))
		return
	}
	if m.Name.IsNull() {
		// Imported: the tenant holds the credentials of a Twilio provider,
		// which it never returns; see credentials_wo_version.
		m.CredentialsWOVersion = importedVersion(p.Name)
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, p)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedVersion is credentials_wo_version of a provider taken over
// (imported, or moved from the incumbent): 0 for a Twilio provider, whose
// token the configuration then writes without sending it; none for a
// custom one, which has no credentials.
func importedVersion(name string) types.Int64 {
	if name == mgmt.PhoneTwilio {
		return types.Int64Value(0)
	}
	return types.Int64Null()
}

func (r *providerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state resourceModel
	var wo types.Object
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("credentials_wo"), &wo)...); resp.Diagnostics.HasError() {
		return
	}
	creds, diags := credentials(ctx, wo)
	body, d := plan.toUpdate(ctx, state, creds)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	var p *mgmt.PhoneProvider
	var err error
	if body.IsEmpty() {
		// Nothing the tenant holds changed: nothing to send.
		p, err = r.Tenant.API.GetPhoneProvider(ctx, id)
	} else {
		p, err = r.Tenant.API.UpdatePhoneProvider(ctx, id, body)
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to update phone provider", framework.APIErrorDetail(fmt.Sprintf("Updating the phone provider %q", id), err))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(ctx, p)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	framework.SetIdentity(ctx, resp.Identity, framework.IDIdentity{ID: plan.ID}, &resp.Diagnostics)
}

func (r *providerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	object.Delete(ctx, req, resp, r.Tenant.API.DeletePhoneProvider)
}

// ImportState accepts the provider's id (or an identity's id).
func (r *providerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const accepted = "the phone provider's id (pro_...), which data.tenant_phone_provider shows"
	if p := framework.ReadImported(ctx, req, resp, object, accepted, r.Tenant.API.GetPhoneProvider); p != nil {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), p.ID)...)
	}
}
