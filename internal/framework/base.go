package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// WithClient gives a resource or list resource the provider's shared client:
// embed it, and its Configure is the type's.
type WithClient struct {
	API *mgmt.Client
}

func (w *WithClient) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	w.API = Client(req.ProviderData, &resp.Diagnostics)
}

// DataSourceWithClient is WithClient for data sources.
type DataSourceWithClient struct {
	API *mgmt.Client
}

func (w *DataSourceWithClient) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	w.API = Client(req.ProviderData, &resp.Diagnostics)
}

// ActionWithClient is WithClient for actions.
type ActionWithClient struct {
	API *mgmt.Client
}

func (w *ActionWithClient) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	w.API = Client(req.ProviderData, &resp.Diagnostics)
}
