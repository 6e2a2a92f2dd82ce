package phoneprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TypeName is the resource, data source and list resource type.
const TypeName = "tenant_phone_provider"

// deliveryMethods are how a notification can be delivered (reference §5).
var deliveryMethods = []string{"text", "voice"}

func (r *providerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The tenant's phone provider, which sends its text and voice messages: Twilio, or a custom " +
			"provider. A tenant has one phone provider: creating a second is refused at plan, with the command that imports " +
			"the existing one. `tenant_phone_provider_test` sends a test notification through it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The provider's ID (`pro_` and 22 letters and digits). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The provider: `twilio` or `custom`. Changed in place; a change sends the configuration and the credentials again.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.OneOf(mgmt.PhoneTwilio, mgmt.PhoneCustom)},
			},
			"disabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the provider is disabled. Defaults to `false`, the tenant's default; removing it returns to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"configuration": schema.SingleNestedAttribute{
				MarkdownDescription: "How the provider sends. The tenant replaces the whole configuration on each change, so " +
					"an argument removed from it is removed from the tenant.",
				Required: true,
				Attributes: map[string]schema.Attribute{
					"delivery_methods": schema.SetAttribute{
						MarkdownDescription: "How notifications are delivered: `text`, `voice` or both (at least one).",
						Required:            true,
						ElementType:         types.StringType,
						Validators: []validator.Set{
							setvalidator.SizeBetween(1, len(deliveryMethods)),
							setvalidator.ValueStringsAre(stringvalidator.OneOf(deliveryMethods...)),
						},
					},
					"sid": schema.StringAttribute{
						MarkdownDescription: "The Twilio account SID. Required with `name = \"twilio\"`; only with it.",
						Optional:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"default_from": schema.StringAttribute{
						MarkdownDescription: "The phone number messages are sent from (Twilio). With `name = \"twilio\"`, this or `mssid` is required.",
						Optional:            true,
						Validators:          []validator.String{stringvalidator.UTF8LengthAtLeast(1)},
					},
					"mssid": schema.StringAttribute{
						MarkdownDescription: "The Twilio messaging service SID messages are sent through, instead of `default_from` (conflicts with it). Only with `name = \"twilio\"`.",
						Optional:            true,
						Validators: []validator.String{
							stringvalidator.UTF8LengthAtLeast(1),
							// The incumbent provider refuses the two together.
							stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("default_from")),
						},
					},
				},
			},
			"credentials_wo": schema.SingleNestedAttribute{
				MarkdownDescription: "Write-only credentials (Terraform 1.11 or later): stored in neither the plan nor the state, " +
					"and never returned by the tenant. Sent on create, whenever `credentials_wo_version` changes, and when " +
					"`name` changes. Requires `credentials_wo_version`. Required with `name = \"twilio\"` (its `auth_token`); " +
					"a custom provider has no credentials.",
				Optional:  true,
				WriteOnly: true,
				Attributes: map[string]schema.Attribute{
					"auth_token": schema.StringAttribute{
						MarkdownDescription: "The Twilio auth token, 1 to 255 characters.",
						Required:            true,
						WriteOnly:           true,
						Sensitive:           true,
						Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255)},
					},
				},
			},
			"credentials_wo_version": schema.Int64Attribute{
				MarkdownDescription: "A number to change (e.g. increment) whenever `credentials_wo` should be sent again, for " +
					"example to rotate the auth token: Terraform cannot see a change of a write-only value. Requires " +
					"`credentials_wo`. An import of a Twilio provider sets it to `0`: write `credentials_wo` with the auth token and " +
					"`credentials_wo_version = 0`, and the first apply sends nothing (the tenant keeps its token); change it later to send it.",
				Optional: true,
			},
			"tenant": schema.StringAttribute{
				MarkdownDescription: "The tenant's name, as the provider shows it.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"channel": schema.StringAttribute{
				MarkdownDescription: "The channel, always `phone`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the provider was created (ISO 8601, UTC).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the provider was last changed (ISO 8601, UTC).",
				Computed:            true,
			},
		},
	}
}
