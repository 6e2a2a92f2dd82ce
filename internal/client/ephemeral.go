package client

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// SecretTypeName is the ephemeral resource that reads a client's secret.
const SecretTypeName = "tenant_client_secret"

var (
	_ ephemeral.EphemeralResource              = (*secretEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*secretEphemeral)(nil)
)

// NewSecretEphemeralResource returns the tenant_client_secret ephemeral
// resource.
func NewSecretEphemeralResource() ephemeral.EphemeralResource { return &secretEphemeral{} }

type secretEphemeral struct {
	framework.EphemeralWithTenant
}

type secretModel struct {
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
}

func (e *secretEphemeral) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = SecretTypeName
}

func (e *secretEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads a client's secret for the length of one Terraform run (Terraform 1.10 or later, OpenTofu " +
			"1.11 or later): hand it to another provider's configuration, a write-only argument or a test, and it is in " +
			"neither the plan nor the state. Needs the `read:client_keys` scope.",
		Attributes: map[string]schema.Attribute{
			"client_id": schema.StringAttribute{
				MarkdownDescription: "The client's ID (`tenant_client.<name>.client_id`).",
				Required:            true,
				Validators:          []validator.String{validate.ID()},
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "The client's secret.",
				Computed:            true,
				Sensitive:           true,
			},
		},
	}
}

func (e *secretEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m secretModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	id := m.ClientID.ValueString()
	c, err := e.Tenant.API.GetClient(ctx, id)
	switch {
	case mgmt.IsNotFound(err):
		resp.Diagnostics.AddError("Unable to read client secret", fmt.Sprintf("No client has the id %q in the tenant.", id))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to read client secret", framework.APIErrorDetail(fmt.Sprintf("Reading the client %q", id), err))
		return
	case c.ClientSecret == "":
		resp.Diagnostics.AddError("Unable to read client secret", fmt.Sprintf(
			"The tenant did not show the secret of the client %q: reading a client's secret needs the read:client_keys scope. "+
				"Grant it to the provider's client (its grant for the Management API).", id))
		return
	}
	m.ClientSecret = types.StringValue(c.ClientSecret)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}
