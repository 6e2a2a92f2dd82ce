package trigger

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

var (
	_ datasource.DataSource              = (*bindingsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*bindingsDataSource)(nil)
)

// NewDataSource returns the tenant_trigger_actions data source.
func NewDataSource() datasource.DataSource { return &bindingsDataSource{} }

type bindingsDataSource struct {
	framework.DataSourceWithTenant
}

func (d *bindingsDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *bindingsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var r resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &r)
	s := framework.DataSourceFrom{
		Description: "The actions a trigger runs, in execution order.",
		Keys:        map[string]framework.LookupKey{"trigger": {}},
	}.Schema(r.Schema)
	// The trigger is the one look-up key, so it is required.
	s.Attributes["trigger"] = dschema.StringAttribute{
		MarkdownDescription: "The trigger: `" + strings.Join(triggers(), "`, `") + "`.",
		Required:            true,
		Validators:          []validator.String{stringvalidator.OneOf(triggers()...)},
	}
	resp.Schema = s
}

func (d *bindingsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m bindingsModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	trigger := m.Trigger.ValueString()
	bindings, err := d.Tenant.Bindings.Read(ctx, trigger)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read trigger actions", framework.APIErrorDetail(fmt.Sprintf("Reading the bindings of the trigger %q", trigger), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, trigger, bindings)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
