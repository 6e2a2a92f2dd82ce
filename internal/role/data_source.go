package role

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

// TypeName is the resource and data source type.
const TypeName = "tenant_role"

var (
	_ datasource.DataSource                     = (*roleDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*roleDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*roleDataSource)(nil)
)

// NewDataSource returns the tenant_role data source.
func NewDataSource() datasource.DataSource { return &roleDataSource{} }

type roleDataSource struct {
	framework.DataSourceWithTenant
}

func (d *roleDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *roleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a role by `id` or by its exact `name` (exactly one). A name that matches no role, or several, is an error.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The role's ID (`rol_...`). Set this or `name`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{validate.ID()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The role's exact name (case-sensitive). Set this or `id`.",
				Optional:            true,
				Computed:            true,
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "The role's description (an empty string when it has none).",
				Computed:            true,
			},
		},
	}
}

func (d *roleDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *roleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m roleModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var role *mgmt.Role
	if !m.ID.IsNull() {
		r, err := d.Tenant.API.GetRole(ctx, m.ID.ValueString())
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
		roles, err := d.Tenant.API.FindRolesByName(ctx, name)
		if err != nil {
			resp.Diagnostics.AddError("Unable to read role", framework.APIErrorDetail(fmt.Sprintf("Looking up the role named %q", name), err))
			return
		}
		r, problem := pickRole(name, roles)
		if problem != "" {
			resp.Diagnostics.AddError("Unable to find role", problem+" Look the role up by id instead, or correct the name.")
			return
		}
		role = r
	}
	m.fromAPI(role)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
