package resourceserver

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ list.ListResourceWithConfigure = (*serverList)(nil)

// NewListResource returns the tenant_resource_server list resource, which
// `terraform query` uses to find the tenant's APIs.
func NewListResource() list.ListResource { return &serverList{} }

type serverList struct {
	framework.WithTenant
}

type serverListModel struct {
	Identifiers types.List `tfsdk:"identifiers"`
}

func (l *serverList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *serverList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tenant's APIs (resource servers), 100 per request, for `terraform query`. " +
			"System APIs are left out: they can be read (data source `tenant_resource_server`) but not managed or imported. " +
			"The signing secret of an HS256 API is not in the results: the import reads it, and the generated configuration leaves it out.",
		Attributes: map[string]listschema.Attribute{
			"identifiers": listschema.ListAttribute{
				MarkdownDescription: "Only the APIs with these identifiers (audiences).",
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
			},
		},
	}
}

func (l *serverList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg serverListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var identifiers []string
	if diags := cfg.Identifiers.ElementsAs(ctx, &identifiers, false); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachResourceServer(ctx, identifiers...), "APIs",
		func(s *mgmt.ResourceServer, result *list.ListResult) bool {
			if s.IsSystem {
				return false
			}
			result.DisplayName = s.Identifier
			if s.Name != nil {
				result.DisplayName = fmt.Sprintf("%s (%s)", *s.Name, s.Identifier)
			}
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(s.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				// No secret: the model holds none, so none is read, and
				// `terraform query -json` prints results as they are.
				var m resourceModel
				result.Diagnostics.Append(m.fromAPI(ctx, s)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
