// Package provider is the tenant provider: its schema, its configuration and
// the list of resources, data sources and actions it serves.
package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/phoneprovider"
	"github.com/tenant-iac/terraform-provider-tenant/internal/resourceserver"
	"github.com/tenant-iac/terraform-provider-tenant/internal/role"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tenantaction"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
	"github.com/tenant-iac/terraform-provider-tenant/internal/trigger"
	"github.com/tenant-iac/terraform-provider-tenant/internal/validate"
)

var (
	_ provider.Provider                       = (*tenantProvider)(nil)
	_ provider.ProviderWithActions            = (*tenantProvider)(nil)
	_ provider.ProviderWithListResources      = (*tenantProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*tenantProvider)(nil)
)

// New returns the provider factory for this version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &tenantProvider{version: version} }
}

type tenantProvider struct {
	version string
	// unknown is set by a Configure whose settings are known only at
	// apply, for the protocol server (see unknownServer).
	unknown atomic.Bool
}

type providerModel struct {
	Domain               types.String  `tfsdk:"domain"`
	ClientID             types.String  `tfsdk:"client_id"`
	ClientSecret         types.String  `tfsdk:"client_secret"`
	APIToken             types.String  `tfsdk:"api_token"`
	Audience             types.String  `tfsdk:"audience"`
	CAFile               types.String  `tfsdk:"ca_file"`
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
					"Falls back to `TENANT_DOMAIN` (or `AUTH0_DOMAIN` when no `TENANT_` variable is set).",
				Optional:   true,
				Validators: []validator.String{validate.Domain()},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "Client ID of a machine-to-machine application granted the Management API. Used with `client_secret`; conflicts with `api_token`. Falls back to `TENANT_CLIENT_ID` (or `AUTH0_CLIENT_ID` when no `TENANT_` variable is set).",
				Optional:            true,
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "Client secret of that application. Falls back to `TENANT_CLIENT_SECRET` (or `AUTH0_CLIENT_SECRET` when no `TENANT_` variable is set).",
				Optional:            true,
				Sensitive:           true,
			},
			"api_token": schema.StringAttribute{
				MarkdownDescription: "A Management API access token, used as is instead of client credentials (it is not refreshed). Falls back to `TENANT_API_TOKEN` (or `AUTH0_API_TOKEN` when no `TENANT_` variable is set).",
				Optional:            true,
				Sensitive:           true,
			},
			"audience": schema.StringAttribute{
				MarkdownDescription: "Audience requested with client credentials: the identifier of the tenant's Management API, " +
					"`https://<tenant>/api/v2/` with the tenant's own domain (the one the platform gave it). Defaults to " +
					"`https://<domain>/api/v2/`, which is right when `domain` is that domain; when `domain` is a custom domain of " +
					"the tenant, set `audience` to the own domain's identifier (the Management API keeps it whatever domain serves " +
					"it). Falls back to `TENANT_AUDIENCE` (or `AUTH0_AUDIENCE` when no `TENANT_` variable is set).",
				Optional: true,
			},
			"ca_file": schema.StringAttribute{
				MarkdownDescription: "Path of a PEM file of CA certificates to trust, in addition to the system's, for the " +
					"tenant's TLS certificate: for a tenant behind a proxy or a domain whose certificate a private CA signed, or the " +
					"emulator's `--tls` certificate. Works on every platform (unlike `SSL_CERT_FILE`, which Go does not read on " +
					"macOS or Windows) and only for this provider's requests. Falls back to `TENANT_CA_FILE`.",
				Optional: true,
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
	p.unknown.Store(false)
	var m providerModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	// A value that comes from another resource is unknown during plan. A
	// Terraform that can defer is asked to plan this provider's objects
	// again once the value is known; another stays unconfigured, says so
	// once, and its resources keep their state instead of each failing to
	// read (their plan-time checks are skipped).
	if unknown := unknownSettings(m); len(unknown) > 0 {
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			return
		}
		p.unknown.Store(true)
		verb := "comes"
		if len(unknown) > 1 {
			verb = "come"
		}
		resp.Diagnostics.AddWarning("Provider configuration not known until apply", fmt.Sprintf(
			"The provider's %s %s from values known only at apply (another resource, or a module output), so this plan "+
				"does not read the tenant: the objects in the state are planned as the state holds them, without changes "+
				"made outside Terraform, and the plan-time checks are skipped. Data sources of this provider cannot be read.",
			strings.Join(unknown, ", "), verb))
		return
	}
	env := environment()
	clientID, clientSecret, apiToken := credentials(m, env)
	cfg := mgmt.Config{
		Domain:               valueOrEnv(m.Domain, env, "DOMAIN"),
		ClientID:             clientID,
		ClientSecret:         clientSecret,
		APIToken:             apiToken,
		Audience:             valueOrEnv(m.Audience, env, "AUDIENCE"),
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
	if !checkConfig(cfg, env, &resp.Diagnostics) {
		return
	}
	if cfg.CAPEM = readCAFile(m.CAFile, &resp.Diagnostics); resp.Diagnostics.HasError() {
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
	resp.EphemeralResourceData = tenant
}

// readCAFile reads the PEM file ca_file (or TENANT_CA_FILE) names; nil
// when neither is set. The variable is not one of the family of
// environment: it is read whichever family gives the credentials.
func readCAFile(v types.String, diags *diag.Diagnostics) []byte {
	file, attr := v.ValueString(), "ca_file"
	if v.IsNull() {
		file, attr = os.Getenv("TENANT_CA_FILE"), "TENANT_CA_FILE"
	}
	if file == "" {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		diags.AddAttributeError(path.Root("ca_file"), "Unable to read CA certificates", fmt.Sprintf(
			"Reading %s = %q failed: %v. Give the path of a PEM file of CA certificates.", attr, file, err))
		return nil
	}
	if !strings.Contains(string(b), "-----BEGIN CERTIFICATE-----") {
		diags.AddAttributeError(path.Root("ca_file"), "Unable to read CA certificates", fmt.Sprintf(
			"%s = %q holds no PEM certificate (-----BEGIN CERTIFICATE-----). Give the path of a PEM file of CA certificates.", attr, file))
		return nil
	}
	return b
}

// unknownSettings names the settings whose value is not known yet.
func unknownSettings(m providerModel) []string {
	var out []string
	for _, v := range []struct {
		name  string
		value types.String
	}{{"domain", m.Domain}, {"client_id", m.ClientID}, {"client_secret", m.ClientSecret}, {"api_token", m.APIToken}, {"audience", m.Audience}, {"ca_file", m.CAFile}} {
		if v.value.IsUnknown() {
			out = append(out, v.name)
		}
	}
	return out
}

// checkConfig names what is missing or conflicting, and the variable that
// would supply it.
func checkConfig(cfg mgmt.Config, env envFamily, diags interface {
	AddAttributeError(path.Path, string, string)
}) bool {
	ok := true
	v := func(name string) string { return env.prefix + name }
	if cfg.Domain == "" {
		diags.AddAttributeError(path.Root("domain"), "Missing tenant domain", fmt.Sprintf(
			"Set domain in the provider block or the %s environment variable, e.g. acme.eu.example.com.%s", v("DOMAIN"), env.ignored()))
		ok = false
	} else if _, err := mgmt.ParseDomain(cfg.Domain); err != nil {
		diags.AddAttributeError(path.Root("domain"), "Invalid tenant domain", err.Error()+".")
		ok = false
	}
	hasCreds := cfg.ClientID != "" || cfg.ClientSecret != ""
	switch {
	case hasCreds && cfg.APIToken != "":
		diags.AddAttributeError(path.Root("api_token"), "Conflicting credentials", fmt.Sprintf(
			"Both client credentials (client_id/client_secret, or %s/%s) and an api_token (or %s) are set. Use exactly one.",
			v("CLIENT_ID"), v("CLIENT_SECRET"), v("API_TOKEN")))
		ok = false
	case cfg.APIToken != "":
	case cfg.ClientID == "" && cfg.ClientSecret == "":
		diags.AddAttributeError(path.Root("client_id"), "Missing credentials", fmt.Sprintf(
			"Set client_id and client_secret (or %s and %s), or api_token (or %s).%s",
			v("CLIENT_ID"), v("CLIENT_SECRET"), v("API_TOKEN"), env.ignored()))
		ok = false
	case cfg.ClientID == "":
		diags.AddAttributeError(path.Root("client_id"), "Missing client_id", fmt.Sprintf(
			"client_secret is set but client_id is not. Set client_id or %s.%s", v("CLIENT_ID"), env.ignored()))
		ok = false
	case cfg.ClientSecret == "":
		diags.AddAttributeError(path.Root("client_secret"), "Missing client_secret", fmt.Sprintf(
			"client_id is set but client_secret is not. Set client_secret or %s.%s", v("CLIENT_SECRET"), env.ignored()))
		ok = false
	}
	return ok
}

// envNames are the settings the environment can give, as TENANT_<name> or,
// the auth0/auth0 provider's variables, AUTH0_<name>.
var envNames = []string{"DOMAIN", "CLIENT_ID", "CLIENT_SECRET", "API_TOKEN", "AUDIENCE"}

// envFamily is the one family of variables the provider reads.
type envFamily struct{ prefix string }

// environment picks the family: TENANT_ when any of its variables is set,
// else AUTH0_ when any of those is (so that a CI job switching providers
// keeps the secrets it has), else TENANT_. Never some settings from each: a
// leftover AUTH0_DOMAIN must not receive credentials from TENANT_ variables.
func environment() envFamily {
	for _, prefix := range []string{"TENANT_", "AUTH0_"} {
		for _, name := range envNames {
			if os.Getenv(prefix+name) != "" {
				return envFamily{prefix}
			}
		}
	}
	return envFamily{"TENANT_"}
}

func (e envFamily) get(name string) string { return os.Getenv(e.prefix + name) }

// ignored says which variables of the other family are set and not read,
// for diagnostics ("" when none).
func (e envFamily) ignored() string {
	if e.prefix != "TENANT_" {
		return ""
	}
	var set []string
	for _, name := range envNames {
		if os.Getenv("AUTH0_"+name) != "" {
			set = append(set, "AUTH0_"+name)
		}
	}
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s: not read, since TENANT_ variables are set; the provider reads one family of variables, never some of each.)", strings.Join(set, ", "))
}

// credentials picks how the provider authenticates. The provider block
// wins over the environment: when it sets api_token, or either half of the
// client credentials, that method is used (the other half of client
// credentials may still come from its variable) and the environment's other
// method is ignored. A block that sets neither takes the method from the
// environment's family.
func credentials(m providerModel, env envFamily) (clientID, clientSecret, apiToken string) {
	if m.APIToken.IsNull() && m.ClientID.IsNull() && m.ClientSecret.IsNull() {
		return env.get("CLIENT_ID"), env.get("CLIENT_SECRET"), env.get("API_TOKEN")
	}
	if !m.ClientID.IsNull() || !m.ClientSecret.IsNull() {
		clientID, clientSecret = valueOrEnv(m.ClientID, env, "CLIENT_ID"), valueOrEnv(m.ClientSecret, env, "CLIENT_SECRET")
	}
	return clientID, clientSecret, m.APIToken.ValueString()
}

// valueOrEnv is v, or when it is null the environment's value for name.
func valueOrEnv(v types.String, env envFamily, name string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return env.get(name)
}

func (p *tenantProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		tokenexchangeprofile.NewResource,
		resourceserver.NewResource,
		role.NewPermissionsExclusiveResource,
		role.NewResource,
		role.NewPermissionResource,
		tenantaction.NewResource,
		trigger.NewResource,
		phoneprovider.NewResource,
		client.NewResource,
		client.NewGrantResource,
	}
}

func (p *tenantProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		tokenexchangeprofile.NewDataSource,
		resourceserver.NewDataSource,
		role.NewDataSource,
		phoneprovider.NewDataSource,
		trigger.NewDataSource,
		client.NewDataSource,
		client.NewGrantDataSource,
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
		trigger.NewListResource,
		phoneprovider.NewListResource,
		client.NewListResource,
		client.NewGrantListResource,
	}
}

func (p *tenantProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		client.NewSecretEphemeralResource,
		tokenexchangeprofile.NewExchange,
	}
}
