package phoneprovider

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

var _ list.ListResourceWithConfigure = (*providerList)(nil)

// NewListResource returns the tenant_phone_provider list resource, which
// `terraform query` uses to find the tenant's phone provider.
func NewListResource() list.ListResource { return &providerList{} }

type providerList struct {
	framework.WithTenant
}

func (l *providerList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *providerList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tenant's phone provider (at most one), in one request, for `terraform query`. " +
			"Its credentials are never returned: the generated configuration needs `credentials_wo` written in for a Twilio provider.",
	}
}

func (l *providerList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	providers, err := l.Tenant.API.ListPhoneProviders(ctx)
	each := func(yield func(*mgmt.PhoneProvider, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for i := range providers {
			if !yield(&providers[i], nil) {
				return
			}
		}
	}
	stream.Results = framework.ListResults(ctx, req, each, "phone providers",
		func(p *mgmt.PhoneProvider, result *list.ListResult) bool {
			result.DisplayName = fmt.Sprintf("%s (%s)", p.Name, p.ID)
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(p.ID)}, &result.Diagnostics)
			if req.IncludeResource {
				m := takenOver(p.Name)
				result.Diagnostics.Append(m.fromAPI(ctx, p)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
