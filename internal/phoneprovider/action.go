// Package phoneprovider is the tenant_phone_provider resource, data source
// and list resource, and the tenant_phone_provider_test action.
package phoneprovider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// ActionTypeName is the action type.
const ActionTypeName = "tenant_phone_provider_test"

var (
	_ action.Action              = (*testAction)(nil)
	_ action.ActionWithConfigure = (*testAction)(nil)
)

// NewAction returns the tenant_phone_provider_test action.
func NewAction() action.Action { return &testAction{} }

type testAction struct {
	framework.ActionWithTenant
}

type testModel struct {
	ProviderID     types.String `tfsdk:"provider_id"`
	To             types.String `tfsdk:"to"`
	DeliveryMethod types.String `tfsdk:"delivery_method"`
}

func (a *testAction) Metadata(_ context.Context, _ action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = ActionTypeName
}

func (a *testAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends a test notification through the tenant's phone provider, to check its configuration end to end. " +
			"Run it with `terraform apply -invoke=action.tenant_phone_provider_test.<name>` or from a resource's " +
			"`lifecycle { action_trigger { ... } }`. Needs Terraform 1.14 or newer.",
		Attributes: map[string]schema.Attribute{
			"provider_id": schema.StringAttribute{
				MarkdownDescription: "ID of the phone provider (`pro_...`, 1 to 255 characters), e.g. `data.tenant_phone_provider.current.id`.",
				Required:            true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, 255),
					validate.ID(),
				},
			},
			"to": schema.StringAttribute{
				MarkdownDescription: "The phone number that receives the notification, 1 to 16 characters, e.g. an E.164 number such as `+15551234567`.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 16)},
			},
			"delivery_method": schema.StringAttribute{
				MarkdownDescription: "How the notification is delivered: `text` or `voice`. The tenant uses `text` when unset.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("text", "voice")},
			},
		},
	}
}

func (a *testAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m testModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	id, to := m.ProviderID.ValueString(), m.To.ValueString()
	progress(resp, fmt.Sprintf("Sending a test notification through phone provider %s to %s", id, to))
	res, err := a.Tenant.API.TryPhoneProvider(ctx, id, mgmt.PhoneTest{To: to, DeliveryMethod: m.DeliveryMethod.ValueString()})
	if err != nil {
		detail := framework.APIErrorDetail(fmt.Sprintf("Sending a test notification through phone provider %q", id), err)
		if mgmt.IsNotFound(err) {
			detail = fmt.Sprintf("The phone provider %q does not exist in the tenant (404). Use data.tenant_phone_provider.current.id.\n\n%s", id, detail)
		}
		resp.Diagnostics.AddError("Unable to send test notification", detail)
		return
	}
	progress(resp, fmt.Sprintf("Phone provider %s answered %d: %s", id, res.Code, res.Message))
}

func progress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}
