package client

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// GrantTypeName is the client grant resource, data source and list
// resource type.
const GrantTypeName = "tenant_client_grant"

var (
	// subjectTypes of a grant [S]; client is the default.
	subjectTypes = []string{"client", "user"}
	// grantOrganizationUsages of a grant [S]; deny is the default.
	grantOrganizationUsages = []string{"deny", "allow", "require"}
)

func (r *grantResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = grantSchema()
}

func grantSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "A client grant: gives a client (application) access to an API with some of its scopes. A " +
			"machine-to-machine client gets a token for an API (client credentials) only through a grant, with the grant's " +
			"scopes. A client has at most one grant per API. Changing the scopes updates the grant in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The grant's ID (`cgr_` followed by 16 characters). Assigned by the tenant; never changes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the client the grant is for (e.g. `tenant_client.<name>.client_id`). Changing it replaces the grant.",
				Required:            true,
				Validators:          []validator.String{validate.ID()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"audience": schema.StringAttribute{
				MarkdownDescription: "The identifier of the API the grant gives access to (1 to 600 characters, e.g. " +
					"`tenant_resource_server.<name>.identifier`). Changing it replaces the grant.",
				Required:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(1, 600), validate.ID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"scopes": schema.SetAttribute{
				MarkdownDescription: "The API's scopes the grant gives (each 1 to 280 characters). Defaults to none; removing " +
					"the argument removes every scope. Updated in place. Not set with `allow_all_scopes = true`.",
				Optional:      true,
				Computed:      true,
				ElementType:   types.StringType,
				PlanModifiers: []planmodifier.Set{scopesDefault},
				Validators: []validator.Set{
					setvalidator.ValueStringsAre(stringvalidator.UTF8LengthBetween(1, 280)),
				},
			},
			"allow_all_scopes": schema.BoolAttribute{
				MarkdownDescription: "Whether the grant gives every scope the API defines, now and later (then `scopes` is not " +
					"set). Defaults to `false`; removing it returns to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"subject_type": schema.StringAttribute{
				MarkdownDescription: "Who the grant is for: `client` (client credentials tokens, the default) or `user` " +
					"(tokens on behalf of users). Changing it replaces the grant.",
				Optional:      true,
				Computed:      true,
				Default:       stringdefault.StaticString("client"),
				Validators:    []validator.String{stringvalidator.OneOf(subjectTypes...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"organization_usage": schema.StringAttribute{
				MarkdownDescription: "Whether client credentials tokens of this grant may name an organization: `deny`, " +
					"`allow` or `require`. Defaults to `deny`, the tenant's default; removing it returns to `deny`.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString("deny"),
				Validators: []validator.String{stringvalidator.OneOf(grantOrganizationUsages...)},
			},
			"allow_any_organization": schema.BoolAttribute{
				MarkdownDescription: "Whether any organization may be used with the grant (otherwise the grant must be " +
					"assigned to each). Defaults to `false`; removing it returns to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"authorization_details_types": schema.ListAttribute{
				MarkdownDescription: "The rich authorization request types (`authorization_details`) the grant allows, at " +
					"least one when set, without repeats. Removing it empties the list.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
			},
			"is_system": schema.BoolAttribute{
				MarkdownDescription: "Whether the tenant made the grant itself (such grants cannot be changed or deleted).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		},
	}
}
