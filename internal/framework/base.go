package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
)

// WithTenant gives a resource or list resource the provider's TenantClient:
// embed it, and its Configure is the type's.
type WithTenant struct {
	Tenant *conns.TenantClient
}

func (w *WithTenant) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	w.Tenant = Tenant(req.ProviderData, &resp.Diagnostics)
}

// DataSourceWithTenant is WithTenant for data sources.
type DataSourceWithTenant struct {
	Tenant *conns.TenantClient
}

func (w *DataSourceWithTenant) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	w.Tenant = Tenant(req.ProviderData, &resp.Diagnostics)
}

// ActionWithTenant is WithTenant for actions.
type ActionWithTenant struct {
	Tenant *conns.TenantClient
}

func (w *ActionWithTenant) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	w.Tenant = Tenant(req.ProviderData, &resp.Diagnostics)
}

// EphemeralWithTenant is WithTenant for ephemeral resources.
type EphemeralWithTenant struct {
	Tenant *conns.TenantClient
}

func (w *EphemeralWithTenant) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	w.Tenant = Tenant(req.ProviderData, &resp.Diagnostics)
}
