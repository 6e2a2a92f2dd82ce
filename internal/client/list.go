package client

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ list.ListResourceWithConfigure = (*clientList)(nil)

// NewListResource returns the tenant_client list resource, which
// `terraform query` uses to find the tenant's clients.
func NewListResource() list.ListResource { return &clientList{} }

type clientList struct {
	framework.WithTenant
}

type clientListModel struct {
	AppTypes types.List `tfsdk:"app_types"`
}

func (l *clientList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *clientList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tenant's clients (applications), 100 per request, for `terraform query`. The results " +
			"and the generated configuration hold no client secret. The list includes the client the provider signs in with: " +
			"leave it out of what you adopt, or destroying the configuration deletes the provider's own credentials.",
		Attributes: map[string]listschema.Attribute{
			"app_types": listschema.ListAttribute{
				MarkdownDescription: "Only the clients of these app types (`app_type`, e.g. `non_interactive`).",
				ElementType:         types.StringType,
				Optional:            true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(stringvalidator.OneOf(appTypes...)),
				},
			},
		},
	}
}

func (l *clientList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg clientListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var appTypes []string
	if diags := cfg.AppTypes.ElementsAs(ctx, &appTypes, false); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var filter url.Values
	if len(appTypes) > 0 {
		filter = url.Values{"app_type": {strings.Join(appTypes, ",")}}
	}
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachClient(ctx, filter), "clients",
		func(c *mgmt.AppClient, result *list.ListResult) bool {
			result.DisplayName = c.ClientID
			if c.Name != nil {
				result.DisplayName = fmt.Sprintf("%s (%s)", *c.Name, c.ClientID)
			}
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(c.ClientID)}, &result.Diagnostics)
			if req.IncludeResource {
				m := resourceModel{ClientSecretInState: types.BoolValue(false)}
				result.Diagnostics.Append(m.fromAPI(ctx, c)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
