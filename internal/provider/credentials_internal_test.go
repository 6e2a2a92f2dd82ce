package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// clearEnv empties every variable the provider reads.
func clearEnv(t *testing.T) {
	for _, prefix := range []string{"TENANT_", "AUTH0_"} {
		for _, name := range envNames {
			t.Setenv(prefix+name, "")
		}
	}
}

// TestCredentials: the block wins; without credentials in the block, the
// environment's one family gives them: TENANT_* when any of those is set,
// else AUTH0_*, never some of each.
func TestCredentials(t *testing.T) {
	null := types.StringNull()
	for _, tc := range []struct {
		name               string
		env                map[string]string
		id, secret, token  types.String
		wantID, wantSecret string
		wantToken          string
	}{
		{name: "incumbent's variables", env: map[string]string{"AUTH0_CLIENT_ID": "a0-id", "AUTH0_CLIENT_SECRET": "a0-secret"},
			id: null, secret: null, token: null, wantID: "a0-id", wantSecret: "a0-secret"},
		{name: "incumbent's token", env: map[string]string{"AUTH0_API_TOKEN": "a0-token"},
			id: null, secret: null, token: null, wantToken: "a0-token"},
		{name: "own variables first, never half of each",
			env: map[string]string{"TENANT_API_TOKEN": "t-token", "AUTH0_CLIENT_ID": "a0-id", "AUTH0_CLIENT_SECRET": "a0-secret"},
			id:  null, secret: null, token: null, wantToken: "t-token"},
		{name: "a TENANT_ domain alone decides the family", env: map[string]string{"TENANT_DOMAIN": "t.example.com", "AUTH0_API_TOKEN": "a0-token"},
			id: null, secret: null, token: null},
		{name: "the block's half, the other half from the family", env: map[string]string{"AUTH0_CLIENT_SECRET": "a0-secret", "TENANT_API_TOKEN": "t-token"},
			id: types.StringValue("b-id"), secret: null, token: null, wantID: "b-id"},
		{name: "the block's token", env: map[string]string{"AUTH0_CLIENT_ID": "a0-id", "AUTH0_CLIENT_SECRET": "a0-secret"},
			id: null, secret: null, token: types.StringValue("b-token"), wantToken: "b-token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			id, secret, token := credentials(providerModel{ClientID: tc.id, ClientSecret: tc.secret, APIToken: tc.token}, environment())
			if id != tc.wantID || secret != tc.wantSecret || token != tc.wantToken {
				t.Fatalf("got (%q, %q, %q), want (%q, %q, %q)", id, secret, token, tc.wantID, tc.wantSecret, tc.wantToken)
			}
		})
	}
}

// TestEnvironment_oneFamily: the domain comes from the same family as the
// credentials, so that a leftover AUTH0_DOMAIN never receives credentials
// from TENANT_ variables; the diagnostic says which variables were not read.
func TestEnvironment_oneFamily(t *testing.T) {
	clearEnv(t)
	t.Setenv("AUTH0_DOMAIN", "a0.example.com")
	if got := valueOrEnv(types.StringNull(), environment(), "DOMAIN"); got != "a0.example.com" {
		t.Fatalf("AUTH0_DOMAIN alone: %q", got)
	}
	t.Setenv("TENANT_CLIENT_ID", "t-id")
	t.Setenv("TENANT_CLIENT_SECRET", "t-secret")
	env := environment()
	if got := valueOrEnv(types.StringNull(), env, "DOMAIN"); got != "" {
		t.Fatalf("TENANT_ credentials with AUTH0_DOMAIN: domain %q, want none", got)
	}
	var diags recorder
	clientID, clientSecret, apiToken := credentials(providerModel{ClientID: types.StringNull(), ClientSecret: types.StringNull(), APIToken: types.StringNull()}, env)
	checkConfig(mgmt.Config{ClientID: clientID, ClientSecret: clientSecret, APIToken: apiToken}, env, &diags)
	if !strings.Contains(diags.String(), "TENANT_DOMAIN environment variable") || !strings.Contains(diags.String(), "AUTH0_DOMAIN: not read") {
		t.Fatalf("diagnostics: %s", diags.String())
	}
	if got := valueOrEnv(types.StringValue("b.example.com"), env, "DOMAIN"); got != "b.example.com" {
		t.Fatalf("block set: %q, want the block's", got)
	}
}

type recorder struct{ details []string }

func (r *recorder) AddAttributeError(p path.Path, summary, detail string) {
	r.details = append(r.details, p.String()+": "+summary+": "+detail)
}

func (r *recorder) String() string { return strings.Join(r.details, "\n") }
