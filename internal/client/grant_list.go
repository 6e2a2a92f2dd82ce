package client

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var _ list.ListResourceWithConfigure = (*grantList)(nil)

// NewGrantListResource returns the tenant_client_grant list resource.
func NewGrantListResource() list.ListResource { return &grantList{} }

type grantList struct {
	framework.WithTenant
}

type grantListModel struct {
	ClientID types.String `tfsdk:"client_id"`
	Audience types.String `tfsdk:"audience"`
}

func (l *grantList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = GrantTypeName
}

func (l *grantList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tenant's client grants, 100 per request, for `terraform query`. Grants the tenant " +
			"made itself (`is_system`) are left out: they cannot be managed. The list includes the grant of the client the " +
			"provider signs in with: leave it out of what you adopt.",
		Attributes: map[string]listschema.Attribute{
			"client_id": listschema.StringAttribute{
				MarkdownDescription: "Only the grants of this client.",
				Optional:            true,
				Validators:          []validator.String{validate.ID()},
			},
			"audience": listschema.StringAttribute{
				MarkdownDescription: "Only the grants for this API (its identifier).",
				Optional:            true,
			},
		},
	}
}

func (l *grantList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg grantListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	filter := mgmt.GrantFilter{ClientID: cfg.ClientID.ValueString(), Audience: cfg.Audience.ValueString()}
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachClientGrant(ctx, filter), "client grants",
		func(g *mgmt.ClientGrant, result *list.ListResult) bool {
			if g.IsSystem || g.ClientID == "" || filter.ClientID != "" && g.ClientID != filter.ClientID || filter.Audience != "" && g.Audience != filter.Audience {
				return false
			}
			result.DisplayName = fmt.Sprintf("%s for %s", g.ClientID, g.Audience)
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(g.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				var m grantModel
				m.fromAPI(g)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
