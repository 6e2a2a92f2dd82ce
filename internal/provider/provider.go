// Package provider is the tenant provider: its schema, its configuration and
// the list of resources, data sources and actions it serves.
package provider

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/phoneprovider"
	"github.com/tenant-iac/terraform-provider-tenant/internal/resourceserver"
	"github.com/tenant-iac/terraform-provider-tenant/internal/role"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tenantaction"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ provider.Provider                  = (*tenantProvider)(nil)
	_ provider.ProviderWithActions       = (*tenantProvider)(nil)
	_ provider.ProviderWithListResources = (*tenantProvider)(nil)
)

// New returns the provider factory for this version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &tenantProvider{version: version} }
}

type tenantProvider struct {
	version string
}

type providerModel struct {
	Domain               types.String  `tfsdk:"domain"`
	ClientID             types.String  `tfsdk:"client_id"`
	ClientSecret         types.String  `tfsdk:"client_secret"`
	APIToken             types.String  `tfsdk:"api_token"`
	Audience             types.String  `tfsdk:"audience"`
	MaxRetries           types.Int64   `tfsdk:"max_retries"`
	RequestTimeout       types.Int64   `tfsdk:"request_timeout"`
	MaxRequestsPerSecond types.Float64 `tfsdk:"max_requests_per_second"`
}

func (p *tenantProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tenant"
	resp.Version = p.version
}

func (p *tenantProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the configuration of an identity tenant through its Management API v2: " +
			"token exchange profiles and the actions they run, APIs (resource servers), roles and their permissions, " +
			"and test notifications through the phone provider; list resources let `terraform query` adopt an existing tenant.",
		Attributes: map[string]schema.Attribute{
			"domain": schema.StringAttribute{
				MarkdownDescription: "The tenant's domain: a host (`acme.eu.example.com`), `host:port`, or an `https://` URL. " +
					"`http://` is accepted only for loopback hosts (127.0.0.0/8, ::1, localhost), such as the local emulator. " +
					"Falls back to `TENANT_DOMAIN`, then `AUTH0_DOMAIN`.",
				Optional:   true,
				Validators: []validator.String{validate.Domain()},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "Client ID of a machine-to-machine application granted the Management API. Used with `client_secret`; conflicts with `api_token`. Falls back to `TENANT_CLIENT_ID`, then `AUTH0_CLIENT_ID`.",
				Optional:            true,
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "Client secret of that application. Falls back to `TENANT_CLIENT_SECRET`, then `AUTH0_CLIENT_SECRET`.",
				Optional:            true,
				Sensitive:           true,
			},
			"api_token": schema.StringAttribute{
				MarkdownDescription: "A Management API access token, used as is instead of client credentials (it is not refreshed). Falls back to `TENANT_API_TOKEN`, then `AUTH0_API_TOKEN`.",
				Optional:            true,
				Sensitive:           true,
			},
			"audience": schema.StringAttribute{
				MarkdownDescription: "Audience requested with client credentials. Defaults to the tenant's Management API identifier, `https://<domain>/api/v2/`. Falls back to `TENANT_AUDIENCE`, then `AUTH0_AUDIENCE`.",
				Optional:            true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a request is retried after a rate-limit answer (429), a server error or a network failure. `0`–`20`; defaults to `5`.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(0, 20)},
			},
			"request_timeout": schema.Int64Attribute{
				MarkdownDescription: "Timeout of one HTTP attempt, in seconds. `1`–`600`; defaults to `30`.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 600)},
			},
			"max_requests_per_second": schema.Float64Attribute{
				MarkdownDescription: "Client-side cap on the request rate. `0` (the default) paces by the tenant's `X-RateLimit-*` headers only.",
				Optional:            true,
				Validators:          []validator.Float64{float64validator.AtLeast(0)},
			},
		},
	}
}

func (p *tenantProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// A value that comes from another resource is unknown during plan; the
	// provider then stays unconfigured instead of failing the plan.
	for _, v := range []types.String{m.Domain, m.ClientID, m.ClientSecret, m.APIToken, m.Audience} {
		if v.IsUnknown() {
			return
		}
	}
	clientID, clientSecret, apiToken := credentials(m)
	cfg := mgmt.Config{
		Domain:               valueOrEnv(m.Domain, "DOMAIN"),
		ClientID:             clientID,
		ClientSecret:         clientSecret,
		APIToken:             apiToken,
		Audience:             valueOrEnv(m.Audience, "AUDIENCE"),
		UserAgent:            fmt.Sprintf("terraform-provider-tenant/%s terraform/%s", p.version, req.TerraformVersion),
		MaxRequestsPerSecond: m.MaxRequestsPerSecond.ValueFloat64(),
		RequestTimeout:       time.Duration(m.RequestTimeout.ValueInt64()) * time.Second,
		MaxRetries:           5,
	}
	if !m.MaxRetries.IsNull() {
		cfg.MaxRetries = int(m.MaxRetries.ValueInt64())
		if cfg.MaxRetries == 0 {
			cfg.MaxRetries = -1
		}
	}
	if !checkConfig(cfg, &resp.Diagnostics) {
		return
	}
	tenant, err := conns.New(cfg)
	if err != nil {
		resp.Diagnostics.AddError("Unable to configure the tenant provider", err.Error())
		return
	}
	resp.ResourceData = tenant
	resp.DataSourceData = tenant
	resp.ActionData = tenant
	resp.ListResourceData = tenant
}

// checkConfig names what is missing or conflicting, and the variable that
// would supply it.
func checkConfig(cfg mgmt.Config, diags interface {
	AddAttributeError(path.Path, string, string)
}) bool {
	ok := true
	if cfg.Domain == "" {
		diags.AddAttributeError(path.Root("domain"), "Missing tenant domain",
			"Set domain in the provider block or the TENANT_DOMAIN (or AUTH0_DOMAIN) environment variable, e.g. acme.eu.example.com.")
		ok = false
	} else if _, err := mgmt.ParseDomain(cfg.Domain); err != nil {
		diags.AddAttributeError(path.Root("domain"), "Invalid tenant domain", err.Error()+".")
		ok = false
	}
	hasCreds := cfg.ClientID != "" || cfg.ClientSecret != ""
	switch {
	case hasCreds && cfg.APIToken != "":
		diags.AddAttributeError(path.Root("api_token"), "Conflicting credentials",
			"Both client credentials (client_id/client_secret, or TENANT_CLIENT_ID/TENANT_CLIENT_SECRET) and an api_token (or TENANT_API_TOKEN) are set. Use exactly one.")
		ok = false
	case cfg.APIToken != "":
	case cfg.ClientID == "" && cfg.ClientSecret == "":
		diags.AddAttributeError(path.Root("client_id"), "Missing credentials",
			"Set client_id and client_secret (or TENANT_CLIENT_ID and TENANT_CLIENT_SECRET), or api_token (or TENANT_API_TOKEN). "+
				"The AUTH0_ variables of the same names are read when no TENANT_ credential variable is set.")
		ok = false
	case cfg.ClientID == "":
		diags.AddAttributeError(path.Root("client_id"), "Missing client_id",
			"client_secret is set but client_id is not. Set client_id or TENANT_CLIENT_ID.")
		ok = false
	case cfg.ClientSecret == "":
		diags.AddAttributeError(path.Root("client_secret"), "Missing client_secret",
			"client_id is set but client_secret is not. Set client_secret or TENANT_CLIENT_SECRET.")
		ok = false
	}
	return ok
}

// envFamilies are the prefixes of the environment variables the provider
// reads, in order: its own, then the incumbent provider's (AUTH0_DOMAIN,
// AUTH0_CLIENT_ID, ...), so that a CI job switching providers keeps the
// secrets it has.
var envFamilies = []string{"TENANT_", "AUTH0_"}

// env is the first of TENANT_<name> and AUTH0_<name> that is set.
func env(name string) string {
	for _, prefix := range envFamilies {
		if v := os.Getenv(prefix + name); v != "" {
			return v
		}
	}
	return ""
}

// credentials picks how the provider authenticates. The provider block
// wins over the environment: when it sets api_token, or either half of the
// client credentials, that method is used (the other half of client
// credentials may still come from its variable) and the environment's other
// method is ignored. A block that sets neither takes the method from one
// family of variables, the first that sets any credential: TENANT_*, else
// AUTH0_*, never half from each.
func credentials(m providerModel) (clientID, clientSecret, apiToken string) {
	if m.APIToken.IsNull() && m.ClientID.IsNull() && m.ClientSecret.IsNull() {
		for _, prefix := range envFamilies {
			clientID, clientSecret, apiToken = os.Getenv(prefix+"CLIENT_ID"), os.Getenv(prefix+"CLIENT_SECRET"), os.Getenv(prefix+"API_TOKEN")
			if clientID != "" || clientSecret != "" || apiToken != "" {
				return clientID, clientSecret, apiToken
			}
		}
		return "", "", ""
	}
	if !m.ClientID.IsNull() || !m.ClientSecret.IsNull() {
		clientID, clientSecret = valueOrEnv(m.ClientID, "CLIENT_ID"), valueOrEnv(m.ClientSecret, "CLIENT_SECRET")
	}
	return clientID, clientSecret, m.APIToken.ValueString()
}

// valueOrEnv is v, or when it is null the environment's value for name.
func valueOrEnv(v types.String, name string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return env(name)
}

func (p *tenantProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		tokenexchangeprofile.NewResource,
		resourceserver.NewResource,
		role.NewPermissionsExclusiveResource,
		role.NewResource,
		role.NewPermissionResource,
		tenantaction.NewResource,
	}
}

func (p *tenantProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		tokenexchangeprofile.NewDataSource,
		resourceserver.NewDataSource,
		role.NewDataSource,
		phoneprovider.NewDataSource,
	}
}

func (p *tenantProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		phoneprovider.NewAction,
	}
}

func (p *tenantProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		tokenexchangeprofile.NewListResource,
		resourceserver.NewListResource,
		role.NewPermissionsExclusiveListResource,
		role.NewListResource,
		tenantaction.NewListResource,
	}
}
