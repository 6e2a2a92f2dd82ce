package phoneprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var (
	_ datasource.DataSource              = (*providerDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*providerDataSource)(nil)
)

// NewDataSource returns the tenant_phone_provider data source.
func NewDataSource() datasource.DataSource { return &providerDataSource{} }

type providerDataSource struct {
	framework.DataSourceWithTenant
}

func (d *providerDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *providerDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var r resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &r)
	resp.Schema = framework.DataSourceFrom{
		Description: "The tenant's phone provider (a tenant has at most one), whichever way it was configured. Its `id` " +
			"is what `tenant_phone_provider_test` takes. The credentials are never returned.",
		Omit: []string{"credentials_wo_version"},
	}.Schema(r.Schema)
}

func (d *providerDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	p, err := d.Tenant.API.FindPhoneProvider(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read phone provider", framework.APIErrorDetail("Listing the tenant's phone providers", err))
		return
	}
	if p == nil {
		resp.Diagnostics.AddError("Unable to find phone provider", "The tenant has no phone provider configured. "+
			"Configure one with the tenant_phone_provider resource (or in the tenant), then read it again.")
		return
	}
	var m providerModel
	resp.Diagnostics.Append(m.fromAPI(ctx, p)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
