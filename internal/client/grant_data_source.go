package client

import (
	"context"
	"fmt"

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
	_ datasource.DataSource                     = (*grantDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*grantDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*grantDataSource)(nil)
)

// NewGrantDataSource returns the tenant_client_grant data source.
func NewGrantDataSource() datasource.DataSource { return &grantDataSource{} }

type grantDataSource struct {
	framework.DataSourceWithTenant
}

func (d *grantDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = GrantTypeName
}

func (d *grantDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var r resource.SchemaResponse
	NewGrantResource().Schema(ctx, resource.SchemaRequest{}, &r)
	resp.Schema = framework.DataSourceFrom{
		Description: "Looks up a client grant by `id`, or by `client_id` and `audience` together.",
		Keys: map[string]framework.LookupKey{
			"id": {
				Description: "The grant's ID. Set this, or `client_id` and `audience`.",
				Validators:  []validator.String{validate.ID()},
			},
			"client_id": {Description: "The client's ID, with `audience`.", Validators: []validator.String{validate.ID()}},
			"audience":  {Description: "The API's identifier, with `client_id`."},
		},
	}.Schema(r.Schema)
}

func (d *grantDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("client_id")),
		datasourcevalidator.RequiredTogether(path.MatchRoot("client_id"), path.MatchRoot("audience")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("audience")),
	}
}

func (d *grantDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m grantModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var (
		g    *mgmt.ClientGrant
		err  error
		what string
	)
	if !m.ID.IsNull() {
		what = fmt.Sprintf("id %q", m.ID.ValueString())
		if g, err = d.Tenant.API.GetClientGrant(ctx, m.ID.ValueString()); mgmt.IsNotFound(err) {
			g, err = nil, nil
		}
	} else {
		what = fmt.Sprintf("client_id %q and audience %q", m.ClientID.ValueString(), m.Audience.ValueString())
		g, err = d.Tenant.API.FindClientGrant(ctx, m.ClientID.ValueString(), m.Audience.ValueString())
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read client grant", framework.APIErrorDetail("Looking up the grant with "+what, err))
		return
	}
	if g == nil {
		resp.Diagnostics.AddError("Unable to find client grant", fmt.Sprintf("No client grant has %s in the tenant.", what))
		return
	}
	m.fromAPI(g)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
