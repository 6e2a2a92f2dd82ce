package resourceserver

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var (
	_ datasource.DataSource                     = (*serverDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*serverDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*serverDataSource)(nil)
)

// NewDataSource returns the tenant_resource_server data source.
func NewDataSource() datasource.DataSource { return &serverDataSource{} }

type serverDataSource struct {
	api *mgmt.Client
}

func (d *serverDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *serverDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up an API (resource server), system APIs included, by `id` or by `identifier` (exactly one).",
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{MarkdownDescription: "The API's ID. Set this or `identifier`.", Optional: true, Computed: true},
			"identifier": schema.StringAttribute{MarkdownDescription: "The API's identifier (audience). Set this or `id`.", Optional: true, Computed: true},
			"name":       computed("The API's name."),
			"scopes": schema.SetNestedAttribute{
				MarkdownDescription: "The permissions the API defines.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"value":       computed("The permission's name."),
					"description": computed("What the permission allows."),
				}},
			},
			"signing_alg":            computed("Algorithm access tokens are signed with."),
			"signing_secret":         schema.StringAttribute{MarkdownDescription: "The HS256 signing secret, if any.", Computed: true, Sensitive: true},
			"allow_offline_access":   schema.BoolAttribute{MarkdownDescription: "Whether refresh tokens can be issued.", Computed: true},
			"token_lifetime":         schema.Int64Attribute{MarkdownDescription: "Access token lifetime, in seconds.", Computed: true},
			"token_lifetime_for_web": schema.Int64Attribute{MarkdownDescription: "Access token lifetime for the implicit and hybrid flows, in seconds.", Computed: true},
			"skip_consent_for_verifiable_first_party_clients": schema.BoolAttribute{MarkdownDescription: "Whether first-party applications skip consent.", Computed: true},
			"enforce_policies": schema.BoolAttribute{MarkdownDescription: "Whether RBAC policies are enforced.", Computed: true},
			"token_dialect":    computed("Format of the access tokens."),
			"client_id":        computed("ID of the linked application, if any."),
			"is_system":        schema.BoolAttribute{MarkdownDescription: "Whether this is a system API.", Computed: true},
		},
	}
}

func (d *serverDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("identifier"))}
}

func (d *serverDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.api = framework.Client(req.ProviderData, &resp.Diagnostics)
}

func (d *serverDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m serverModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	key := m.ID.ValueString()
	if m.ID.IsNull() {
		key = m.Identifier.ValueString()
	}
	s, err := d.api.GetResourceServer(ctx, key)
	if mgmt.IsNotFound(err) {
		resp.Diagnostics.AddError("Unable to find resource server", fmt.Sprintf("No API has the id or identifier %q in the tenant.", key))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read resource server", framework.APIErrorDetail(fmt.Sprintf("Reading the API %q", key), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
