package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// clearEnv empties every variable the provider reads.
func clearEnv(t *testing.T) {
	for _, prefix := range envFamilies {
		for _, name := range []string{"DOMAIN", "CLIENT_ID", "CLIENT_SECRET", "API_TOKEN", "AUDIENCE"} {
			t.Setenv(prefix+name, "")
		}
	}
}

// TestCredentials: the block wins; without credentials in the block, one
// family of variables gives them, TENANT_* before AUTH0_*, never mixed.
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
		{name: "the block's half, the other half from either family", env: map[string]string{"AUTH0_CLIENT_SECRET": "a0-secret", "TENANT_API_TOKEN": "t-token"},
			id: types.StringValue("b-id"), secret: null, token: null, wantID: "b-id", wantSecret: "a0-secret"},
		{name: "the block's token", env: map[string]string{"AUTH0_CLIENT_ID": "a0-id", "AUTH0_CLIENT_SECRET": "a0-secret"},
			id: null, secret: null, token: types.StringValue("b-token"), wantToken: "b-token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			id, secret, token := credentials(providerModel{ClientID: tc.id, ClientSecret: tc.secret, APIToken: tc.token})
			if id != tc.wantID || secret != tc.wantSecret || token != tc.wantToken {
				t.Fatalf("got (%q, %q, %q), want (%q, %q, %q)", id, secret, token, tc.wantID, tc.wantSecret, tc.wantToken)
			}
		})
	}
}

func TestEnv_ownBeforeIncumbent(t *testing.T) {
	clearEnv(t)
	t.Setenv("AUTH0_DOMAIN", "a0.example.com")
	if got := valueOrEnv(types.StringNull(), "DOMAIN"); got != "a0.example.com" {
		t.Fatalf("AUTH0_DOMAIN alone: %q", got)
	}
	t.Setenv("TENANT_DOMAIN", "t.example.com")
	if got := valueOrEnv(types.StringNull(), "DOMAIN"); got != "t.example.com" {
		t.Fatalf("both set: %q, want TENANT_DOMAIN's", got)
	}
	if got := valueOrEnv(types.StringValue("b.example.com"), "DOMAIN"); got != "b.example.com" {
		t.Fatalf("block set: %q, want the block's", got)
	}
}
