package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

var configType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"domain": tftypes.String, "client_id": tftypes.String, "client_secret": tftypes.String, "api_token": tftypes.String,
	"audience": tftypes.String, "ca_file": tftypes.String, "max_retries": tftypes.Number, "request_timeout": tftypes.Number, "max_requests_per_second": tftypes.Number,
}}

// configure sends ConfigureProvider with the given string attributes (the
// rest null; tftypes.UnknownValue marks an unknown) and returns the diagnostics.
func configure(t *testing.T, attrs map[string]any) []*tfprotov6.Diagnostic {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]tftypes.Value{}
	for name, typ := range configType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	for name, v := range attrs {
		vals[name] = tftypes.NewValue(configType.AttributeTypes[name], v)
	}
	dv, err := tfprotov6.NewDynamicValue(configType, tftypes.NewValue(configType, vals))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: &dv})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

func TestProvider_schema(t *testing.T) {
	srv, _ := providerserver.NewProtocol6WithError(provider.New("test")())()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("%v %v", err, resp.Diagnostics)
	}
	sensitive := map[string]bool{}
	for _, a := range resp.Provider.Block.Attributes {
		sensitive[a.Name] = a.Sensitive
		if a.Description == "" {
			t.Errorf("%s has no description", a.Name)
		}
	}
	if !sensitive["client_secret"] || !sensitive["api_token"] || sensitive["client_id"] {
		t.Fatalf("sensitive flags: %v", sensitive)
	}
}

// clearEnv empties every variable the provider reads, the incumbent's
// AUTH0_* included, so the machine's environment cannot change a test.
func clearEnv(t *testing.T) {
	for _, prefix := range []string{"TENANT_", "AUTH0_"} {
		for _, name := range []string{"DOMAIN", "CLIENT_ID", "CLIENT_SECRET", "API_TOKEN", "AUDIENCE"} {
			t.Setenv(prefix+name, "")
		}
	}
	t.Setenv("TENANT_CA_FILE", "")
}

func TestProvider_configure(t *testing.T) {
	clearEnv(t)
	// notPEM is a file that holds no certificate, the test's own (a
	// package-wide one removed by the first run was gone under -count=2).
	notPEM := filepath.Join(t.TempDir(), "not-a-ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		attrs map[string]any
		want  string // "" means no error
	}{
		{"client credentials", map[string]any{"domain": "acme.example.com", "client_id": "a", "client_secret": "b"}, ""},
		{"token", map[string]any{"domain": "http://127.0.0.1:8787", "api_token": "t"}, ""},
		{"plain http remote", map[string]any{"domain": "http://tenant.example.com", "api_token": "t"}, "plain http"},
		{"no domain", map[string]any{"api_token": "t"}, "TENANT_DOMAIN"},
		{"no credentials", map[string]any{"domain": "acme.example.com"}, "TENANT_API_TOKEN"},
		{"conflict", map[string]any{"domain": "acme.example.com", "client_id": "a", "client_secret": "b", "api_token": "t"}, "Use exactly one"},
		{"no secret", map[string]any{"domain": "acme.example.com", "client_id": "a"}, "TENANT_CLIENT_SECRET"},
		{"no id", map[string]any{"domain": "acme.example.com", "client_secret": "b"}, "TENANT_CLIENT_ID"},
		{"unknown domain", map[string]any{"domain": tftypes.UnknownValue}, ""},
		{"ca_file missing", map[string]any{"domain": "acme.example.com", "api_token": "t", "ca_file": "/no/such/ca.pem"}, `Reading ca_file = "/no/such/ca.pem" failed`},
		{"ca_file without a certificate", map[string]any{"domain": "acme.example.com", "api_token": "t", "ca_file": notPEM}, "holds no PEM certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags := configure(t, tc.attrs)
			var msgs []string
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					msgs = append(msgs, d.Summary+": "+d.Detail)
				}
			}
			joined := strings.Join(msgs, "\n")
			if tc.want == "" && joined != "" {
				t.Fatalf("unexpected errors: %s", joined)
			}
			if tc.want != "" && !strings.Contains(joined, tc.want) {
				t.Fatalf("errors %q lack %q", joined, tc.want)
			}
		})
	}
}

// TestProvider_blockWinsOverTheEnvironment: a method the provider block
// sets is used although the environment holds the other one.
func TestProvider_blockWinsOverTheEnvironment(t *testing.T) {
	clearEnv(t)
	t.Setenv("TENANT_DOMAIN", "acme.example.com")
	t.Setenv("TENANT_API_TOKEN", "env-token")
	t.Setenv("TENANT_CLIENT_ID", "")
	t.Setenv("TENANT_CLIENT_SECRET", "")
	if diags := configure(t, map[string]any{"client_id": "a", "client_secret": "b"}); len(diags) > 0 {
		t.Fatalf("client credentials in the block with TENANT_API_TOKEN set: %v", diags)
	}
	t.Setenv("TENANT_API_TOKEN", "")
	t.Setenv("TENANT_CLIENT_ID", "env-id")
	t.Setenv("TENANT_CLIENT_SECRET", "env-secret")
	if diags := configure(t, map[string]any{"api_token": "t"}); len(diags) > 0 {
		t.Fatalf("api_token in the block with TENANT_CLIENT_ID/SECRET set: %v", diags)
	}
	// The block names client_id; the secret comes from the environment.
	if diags := configure(t, map[string]any{"client_id": "a"}); len(diags) > 0 {
		t.Fatalf("client_id in the block, TENANT_CLIENT_SECRET in the environment: %v", diags)
	}
	// The environment alone holding both methods is ambiguous.
	t.Setenv("TENANT_API_TOKEN", "env-token")
	diags := configure(t, nil)
	if len(diags) == 0 || !strings.Contains(diags[0].Detail, "Use exactly one") {
		t.Fatalf("both methods in the environment: %v", diags)
	}
}

func TestProvider_environmentFallback(t *testing.T) {
	clearEnv(t)
	t.Setenv("TENANT_DOMAIN", "http://tenant.example.com")
	t.Setenv("TENANT_API_TOKEN", "t")
	diags := configure(t, nil)
	if len(diags) == 0 || !strings.Contains(diags[0].Detail, "plain http") {
		t.Fatalf("TENANT_DOMAIN not used: %v", diags)
	}
	// The incumbent's variables, for a CI job that switches providers.
	clearEnv(t)
	t.Setenv("AUTH0_DOMAIN", "http://tenant.example.com")
	t.Setenv("AUTH0_API_TOKEN", "t")
	diags = configure(t, nil)
	if len(diags) == 0 || !strings.Contains(diags[0].Detail, "plain http") {
		t.Fatalf("AUTH0_DOMAIN not used: %v", diags)
	}
}
