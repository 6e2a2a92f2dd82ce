package rolepermissions

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// RoleTypeName is the data source type.
const RoleTypeName = "tenant_role"

var (
	_ datasource.DataSource                     = (*roleDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*roleDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*roleDataSource)(nil)
)

// NewRoleDataSource returns the tenant_role data source.
func NewRoleDataSource() datasource.DataSource { return &roleDataSource{} }

type roleDataSource struct {
	api *mgmt.Client
}

type roleModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

func (d *roleDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = RoleTypeName
}

func (d *roleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a role by `id` or by its exact `name` (exactly one). A name that matches no role, or several, is an error.",
		Attributes: map[string]schema.Attribute{
			"id":          schema.StringAttribute{MarkdownDescription: "The role's ID (`rol_...`). Set this or `name`.", Optional: true, Computed: true},
			"name":        schema.StringAttribute{MarkdownDescription: "The role's exact name (case-sensitive). Set this or `id`.", Optional: true, Computed: true},
			"description": schema.StringAttribute{MarkdownDescription: "The role's description (empty when none).", Computed: true},
		},
	}
}

func (d *roleDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *roleDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.api = framework.Client(req.ProviderData, &resp.Diagnostics)
}

func (d *roleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m roleModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var role *mgmt.Role
	if !m.ID.IsNull() {
		r, err := d.api.GetRole(ctx, m.ID.ValueString())
		switch {
		case mgmt.IsNotFound(err):
			resp.Diagnostics.AddError("Unable to find role", fmt.Sprintf("No role has the id %q in the tenant.", m.ID.ValueString()))
			return
		case err != nil:
			resp.Diagnostics.AddError("Unable to read role", framework.APIErrorDetail(fmt.Sprintf("Reading role %q", m.ID.ValueString()), err))
			return
		}
		role = r
	} else {
		name := m.Name.ValueString()
		roles, err := d.api.FindRolesByName(ctx, name)
		if err != nil {
			resp.Diagnostics.AddError("Unable to read role", framework.APIErrorDetail(fmt.Sprintf("Looking up the role named %q", name), err))
			return
		}
		switch len(roles) {
		case 0:
			resp.Diagnostics.AddError("Unable to find role", fmt.Sprintf("No role is named exactly %q in the tenant (names are case-sensitive).", name))
			return
		case 1:
			role = &roles[0]
		default:
			ids := make([]string, len(roles))
			for i, r := range roles {
				ids[i] = r.ID
			}
			resp.Diagnostics.AddError("Unable to choose role", fmt.Sprintf("%d roles are named %q (%s). Look the role up by id instead.", len(roles), name, strings.Join(ids, ", ")))
			return
		}
	}
	m.ID, m.Name, m.Description = types.StringValue(role.ID), types.StringValue(role.Name), types.StringValue(role.Description)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
