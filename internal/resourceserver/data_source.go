package resourceserver

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ datasource.DataSource                     = (*serverDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*serverDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*serverDataSource)(nil)
)

// NewDataSource returns the tenant_resource_server data source.
func NewDataSource() datasource.DataSource { return &serverDataSource{} }

type serverDataSource struct {
	framework.DataSourceWithTenant
}

func (d *serverDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (d *serverDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up an API (resource server), system APIs included, by `id` or by `identifier` (exactly one). " +
			"An HS256 API's signing secret is read only with `include_signing_secret = true`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The API's ID. Set this or `identifier`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{validate.ID()},
			},
			"identifier": schema.StringAttribute{
				MarkdownDescription: "The API's identifier (audience), exactly as the API holds it. Set this or `id`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{validate.ID()},
			},
			"name": computed("The API's name."),
			"scopes": schema.MapAttribute{
				MarkdownDescription: "The permissions the API defines, keyed by the scope's value, each mapped to its description.",
				Computed:            true,
				ElementType:         types.StringType,
			},
			"signing_alg": computed("Algorithm access tokens are signed with."),
			"signing_secret": schema.StringAttribute{
				MarkdownDescription: "The HS256 signing secret, if any, with `include_signing_secret = true`; null otherwise.",
				Computed:            true,
				Sensitive:           true,
			},
			"include_signing_secret": schema.BoolAttribute{
				MarkdownDescription: "Whether to read the API's HS256 signing secret into `signing_secret`, and so into the state. " +
					"Defaults to `false`: a look-up does not copy a secret into the state unless it asks for it.",
				Optional: true,
			},
			"allow_offline_access":                            schema.BoolAttribute{MarkdownDescription: "Whether refresh tokens can be issued.", Computed: true},
			"token_lifetime":                                  schema.Int64Attribute{MarkdownDescription: "Access token lifetime, in seconds.", Computed: true},
			"token_lifetime_for_web":                          schema.Int64Attribute{MarkdownDescription: "Access token lifetime for the implicit and hybrid flows, in seconds.", Computed: true},
			"skip_consent_for_verifiable_first_party_clients": schema.BoolAttribute{MarkdownDescription: "Whether first-party applications skip consent.", Computed: true},
			"enforce_policies":                                schema.BoolAttribute{MarkdownDescription: "Whether RBAC policies are enforced.", Computed: true},
			"token_dialect":                                   computed("Format of the access tokens."),
			"allow_online_access": schema.BoolAttribute{
				MarkdownDescription: "Whether refresh tokens for online access can be issued.",
				Computed:            true,
			},
			"allow_online_access_with_ephemeral_sessions": schema.BoolAttribute{
				MarkdownDescription: "Whether online access is allowed for ephemeral sessions.",
				Computed:            true,
			},
			"subject_type_authorization": schema.SingleNestedAttribute{
				MarkdownDescription: "Which subjects may get access tokens for the API.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"user": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for users.",
						Computed:            true,
						Attributes:          map[string]schema.Attribute{"policy": computed("`allow_all`, `deny_all` or `require_client_grant`.")},
					},
					"client": schema.SingleNestedAttribute{
						MarkdownDescription: "Access for clients.",
						Computed:            true,
						Attributes:          map[string]schema.Attribute{"policy": computed("`deny_all` or `require_client_grant`.")},
					},
				},
			},
			"consent_policy": computed("The consent policy, if any."),
			"authorization_details": schema.ListNestedAttribute{
				MarkdownDescription: "The rich authorization request types the API accepts.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"type": computed("The authorization details type."),
				}},
			},
			"proof_of_possession": schema.SingleNestedAttribute{
				MarkdownDescription: "Sender-constrained token settings, if any.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"mechanism":    computed("`mtls` or `dpop`."),
					"required":     schema.BoolAttribute{MarkdownDescription: "Whether proof of possession is required.", Computed: true},
					"required_for": computed("`public_clients` or `all_clients`."),
				},
			},
			"token_encryption": schema.SingleNestedAttribute{
				MarkdownDescription: "Access token encryption, if any. The key's PEM is never returned by the tenant, so `pem` is always null here.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"format": computed("The token format."),
					"encryption_key": schema.SingleNestedAttribute{
						MarkdownDescription: "The public key tokens are encrypted with.",
						Computed:            true,
						Attributes: map[string]schema.Attribute{
							"name":              computed("The key's name."),
							"alg":               computed("The key encryption algorithm."),
							"kid":               computed("The key id."),
							"pem":               computed("Always null: the tenant does not return the PEM."),
							"thumbprint_sha256": computed("The key's SHA-256 thumbprint."),
						},
					},
				},
			},
			"authorization_policy": schema.SingleNestedAttribute{
				MarkdownDescription: "The authorization policy, if any.",
				Computed:            true,
				Attributes:          map[string]schema.Attribute{"policy_id": computed("The policy's id.")},
			},
			"client_id": computed("ID of the linked application, if any."),
			"is_system": schema.BoolAttribute{MarkdownDescription: "Whether this is a system API.", Computed: true},
		},
	}
}

func (d *serverDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("identifier"))}
}

// dataSourceModel is the data source's model: the API's attributes and
// whether the secret is asked for.
type dataSourceModel struct {
	serverModel
	IncludeSigningSecret types.Bool `tfsdk:"include_signing_secret"`
}

func (d *serverDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var dm dataSourceModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &dm)...); resp.Diagnostics.HasError() {
		return
	}
	m := &dm.serverModel
	// The secret is read only when asked for.
	m.readSecret = dm.IncludeSigningSecret.ValueBool()
	key, byID := m.ID.ValueString(), true
	if m.ID.IsNull() {
		key, byID = m.Identifier.ValueString(), false
	}
	s, err := d.Tenant.API.GetResourceServer(ctx, key)
	// The API takes an id or an identifier in the same place: an answer
	// found the other way is not the one asked for.
	if err == nil && (byID && s.ID != key || !byID && s.Identifier != key) {
		s = nil
	}
	if mgmt.IsNotFound(err) || err == nil && s == nil {
		resp.Diagnostics.AddError("Unable to find resource server", fmt.Sprintf("No API has the id or identifier %q in the tenant.", key))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to read resource server", framework.APIErrorDetail(fmt.Sprintf("Reading the API %q", key), err))
		return
	}
	resp.Diagnostics.Append(m.fromAPI(ctx, s)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &dm)...)
}
