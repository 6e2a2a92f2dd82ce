package phoneprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

// DataSourceTypeName is the data source type.
const DataSourceTypeName = "tenant_phone_provider"

var (
	_ datasource.DataSource              = (*providerDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*providerDataSource)(nil)
)

// NewDataSource returns the tenant_phone_provider data source.
func NewDataSource() datasource.DataSource { return &providerDataSource{} }

type providerDataSource struct {
	framework.DataSourceWithTenant
}

type providerModel struct {
	ID              types.String `tfsdk:"id"`
	Name            types.String `tfsdk:"name"`
	Channel         types.String `tfsdk:"channel"`
	Disabled        types.Bool   `tfsdk:"disabled"`
	DeliveryMethods types.List   `tfsdk:"delivery_methods"`
}

func (d *providerDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = DataSourceTypeName
}

func (d *providerDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The tenant's configured phone provider (a tenant has at most one). Its `id` is what `tenant_phone_provider_test` takes.",
		Attributes: map[string]schema.Attribute{
			"id":               schema.StringAttribute{MarkdownDescription: "The provider's ID (`pro_...`).", Computed: true},
			"name":             schema.StringAttribute{MarkdownDescription: "The provider kind: `twilio` or `custom`.", Computed: true},
			"channel":          schema.StringAttribute{MarkdownDescription: "The channel, always `phone`.", Computed: true},
			"disabled":         schema.BoolAttribute{MarkdownDescription: "Whether the provider is disabled.", Computed: true},
			"delivery_methods": schema.ListAttribute{MarkdownDescription: "How notifications can be delivered: `text`, `voice`.", Computed: true, ElementType: types.StringType},
		},
	}
}

func (d *providerDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	providers, err := d.Tenant.API.ListPhoneProviders(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read phone provider", framework.APIErrorDetail("Listing the tenant's phone providers", err))
		return
	}
	if len(providers) == 0 {
		resp.Diagnostics.AddError("Unable to find phone provider", "The tenant has no phone provider configured. Configure one (Twilio or custom) in the tenant, then read it again.")
		return
	}
	p := providers[0]
	var methods []string
	if p.Configuration != nil {
		methods = p.Configuration.DeliveryMethods
	}
	list, diags := types.ListValueFrom(ctx, types.StringType, methods)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	m := providerModel{ID: types.StringValue(p.ID), Name: types.StringValue(p.Name), Channel: types.StringValue(p.Channel), Disabled: types.BoolValue(p.Disabled), DeliveryMethods: list}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
