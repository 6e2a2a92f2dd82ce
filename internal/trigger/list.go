package trigger

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var _ list.ListResourceWithConfigure = (*bindingsList)(nil)

// NewListResource returns the tenant_trigger_actions list resource, which
// `terraform query` uses to find the triggers that run actions.
func NewListResource() list.ListResource { return &bindingsList{} }

type bindingsList struct {
	framework.WithTenant
}

func (l *bindingsList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (l *bindingsList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Lists the triggers that run actions, one result per trigger with its bound actions in "+
			"execution order, for `terraform query`. It reads the bindings of each of the %d triggers this resource manages "+
			"(one request each); a trigger without bindings is left out.", len(triggers())),
	}
}

// triggerBindings is a trigger with its bindings.
type triggerBindings struct {
	trigger  string
	bindings []mgmt.TriggerBinding
}

func (l *bindingsList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	each := func(yield func(triggerBindings, error) bool) {
		for _, t := range triggers() {
			b, err := l.Tenant.API.TriggerBindings(ctx, t)
			if !yield(triggerBindings{t, b}, err) || err != nil {
				return
			}
		}
	}
	stream.Results = framework.ListResults(ctx, req, iter.Seq2[triggerBindings, error](each), "trigger bindings",
		func(tb triggerBindings, result *list.ListResult) bool {
			if len(tb.bindings) == 0 {
				return false
			}
			result.DisplayName = fmt.Sprintf("%s (%d actions)", tb.trigger, len(tb.bindings))
			framework.SetIdentity(ctx, result.Identity, framework.IDIdentity{ID: types.StringValue(tb.trigger)}, &result.Diagnostics)
			if req.IncludeResource {
				var m bindingsModel
				result.Diagnostics.Append(m.fromAPI(ctx, tb.trigger, tb.bindings)...)
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			return true
		})
}
