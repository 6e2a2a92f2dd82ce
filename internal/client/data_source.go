package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ datasource.DataSource                     = (*clientDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*clientDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clientDataSource)(nil)
)

// NewDataSource returns the tenant_client data source.
func NewDataSource() datasource.DataSource { return &clientDataSource{} }

type clientDataSource struct {
	framework.DataSourceWithTenant
}

func (d *clientDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *clientDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var r resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &r)
	resp.Schema = framework.DataSourceFrom{
		Description: "Looks up a client (application) by `client_id` or by its exact `name` (exactly one); a name that " +
			"several clients share is an error. Its secret is not read: use the `tenant_client_secret` ephemeral resource.",
		Keys: map[string]framework.LookupKey{
			"client_id": {
				Description: "The client's ID. Set this or `name`.",
				Validators:  []validator.String{validate.ID()},
			},
			"name": {Description: "The client's exact name (case-sensitive). Set this or `client_id`."},
		},
		Omit: []string{"client_secret_rotation", "client_secret_in_state", "client_secret"},
	}.Schema(r.Schema)
}

func (d *clientDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("client_id"), path.MatchRoot("name"))}
}

func (d *clientDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m clientModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var c *mgmt.AppClient
	if !m.ClientID.IsNull() {
		id := m.ClientID.ValueString()
		found, err := d.Tenant.API.GetClient(ctx, id)
		switch {
		case mgmt.IsNotFound(err):
			resp.Diagnostics.AddError("Unable to find client", fmt.Sprintf("No client has the id %q in the tenant.", id))
			return
		case err != nil:
			resp.Diagnostics.AddError("Unable to read client", framework.APIErrorDetail(fmt.Sprintf("Reading the client %q", id), err))
			return
		}
		c = found
	} else {
		name := m.Name.ValueString()
		found, err := d.Tenant.API.FindClientsByName(ctx, name)
		if err != nil {
			resp.Diagnostics.AddError("Unable to read client", framework.APIErrorDetail(fmt.Sprintf("Looking up the client named %q", name), err))
			return
		}
		switch len(found) {
		case 0:
			resp.Diagnostics.AddError("Unable to find client", fmt.Sprintf("No client is named exactly %q in the tenant (names are case-sensitive).", name))
			return
		case 1:
			c = &found[0]
		default:
			ids := make([]string, len(found))
			for i, f := range found {
				ids[i] = f.ClientID
			}
			resp.Diagnostics.AddError("Unable to find client", fmt.Sprintf("%d clients are named %q (ids %s), so the name does not say "+
				"which one is meant. Look the client up by client_id instead.", len(found), name, strings.Join(ids, ", ")))
			return
		}
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, c)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
