package tenantaction

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ list.ListResourceWithConfigure = (*actionList)(nil)

// NewListResource returns the tenant_action list resource.
func NewListResource() list.ListResource { return &actionList{} }

type actionList struct {
	framework.WithTenant
}

// actionListModel holds the filters the actions list takes (reference §2:
// triggerId and actionName).
type actionListModel struct {
	Trigger types.String `tfsdk:"trigger"`
	Name    types.String `tfsdk:"name"`
}

func (l *actionList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *actionList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tenant's actions, 100 per request, for `terraform query`. Secret values are never " +
			"returned by the tenant: an adopted action's `secrets` hold names only, and need their values in the configuration.",
		Attributes: map[string]listschema.Attribute{
			"trigger": listschema.StringAttribute{
				MarkdownDescription: "Only actions for this trigger, e.g. `custom-token-exchange`.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf(TriggerIDs...)},
			},
			"name": listschema.StringAttribute{
				MarkdownDescription: "Only the actions with exactly this name.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
			},
		},
	}
}

func (l *actionList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg actionListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachAction(ctx, cfg.Trigger.ValueString(), cfg.Name.ValueString()), "actions",
		func(a *mgmt.Action, result *list.ListResult) bool {
			result.DisplayName = fmt.Sprintf("%s (%s)", a.Name, a.ID)
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(a.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				// As after an import: every attribute starts null, and
				// those the API does not hold take their defaults.
				var m actionModel
				result.Diagnostics.Append(result.Resource.SetAttribute(ctx, path.Root("id"), a.ID)...)
				result.Diagnostics.Append(result.Resource.Get(ctx, &m)...)
				m.Deploy, m.ForceDestroy, m.SkipProfileCheck = types.BoolValue(true), types.BoolValue(false), types.BoolValue(false)
				adoptSecrets(&m, a)
				result.Diagnostics.Append(m.fromAPI(ctx, a)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
