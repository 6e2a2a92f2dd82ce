package tokenexchangeprofile

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ list.ListResourceWithConfigure = (*profileList)(nil)

// NewListResource returns the tenant_token_exchange_profile list resource.
func NewListResource() list.ListResource { return &profileList{} }

type profileList struct {
	framework.WithTenant
}

func (l *profileList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

// The profiles list takes no filter (reference §1: take and from only).
func (l *profileList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists every token exchange profile of the tenant, 100 per request, for `terraform query`.",
	}
}

func (l *profileList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	stream.Results = framework.ListResults(ctx, req, l.Tenant.API.EachTokenExchangeProfile(ctx), "token exchange profiles",
		func(p *mgmt.TokenExchangeProfile, result *list.ListResult) bool {
			result.DisplayName = fmt.Sprintf("%s (%s)", p.Name, p.SubjectTokenType)
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(p.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				var m profileModel
				m.fromAPI(p)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
