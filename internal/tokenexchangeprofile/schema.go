package tokenexchangeprofile

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_token_exchange_profile"

// reservedPrefixes are subject token type prefixes the API refuses.
var reservedPrefixes = []string{"http://auth0.com", "https://auth0.com", "http://okta.com", "https://okta.com", "urn:ietf", "urn:auth0", "urn:okta"}

func (r *profileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A token exchange profile ties a subject token type (a URI) to a custom token exchange action, " +
			"so that tokens of that type can be exchanged at the tenant's token endpoint. " +
			"**Early Access:** token exchange profiles are an Early Access feature of the tenant; the tenant must have it enabled.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The profile's ID (`tep_` followed by 16 characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A friendly name, 3 to 50 characters. Updated in place. The API requires a name when a " +
					"profile is created, so a create without one names the profile after its `subject_token_type` (its first 50 " +
					"characters); otherwise, when not set, the profile keeps the name it has: removing the argument, or importing " +
					"a profile without it, never renames the profile.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(3, 50)},
				PlanModifiers: []planmodifier.String{namePlan{}},
			},
			"subject_token_type": schema.StringAttribute{
				MarkdownDescription: "The type of token this profile exchanges: an absolute URI of 8 to 100 characters " +
					"(e.g. `https://acme.com/cis-token` or `urn:acme:legacy-token`), unique in the tenant. The prefixes " +
					"`http(s)://auth0.com`, `http(s)://okta.com`, `urn:ietf`, `urn:auth0` and `urn:okta` are reserved. Updated in place.",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(8, 100),
					validate.AbsoluteURI(),
					validate.NoPrefix("reserved by the platform", reservedPrefixes...),
				},
			},
			"action_id": schema.StringAttribute{
				MarkdownDescription: "ID of the deployed action (1 to 36 characters) that supports the `custom-token-exchange` trigger " +
					"and validates the subject token. Changing it replaces the profile.",
				Required: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, 36),
					validate.ID(),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"type": schema.StringAttribute{
				MarkdownDescription: "The profile type. Only `custom_authentication` (the default) exists. Changing it replaces the profile.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("custom_authentication"),
				Validators:          []validator.String{stringvalidator.OneOf("custom_authentication")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the profile was created (ISO 8601, UTC).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the profile was last changed (ISO 8601, UTC).",
				Computed:            true,
			},
		},
	}
}
