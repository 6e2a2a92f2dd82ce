package e2e_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// seedTenant makes objects outside Terraform, of every kind the provider
// lists and with the settings users give them: n APIs, a deployed action and
// n profiles using it, n roles and the permissions of n/2 of them. It
// returns how many objects it made.
func seedTenant(t *testing.T, emu *emulator.Server, n int) int {
	t.Helper()
	ctx := context.Background()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	made := 0
	var idents []string
	for i := range n {
		ident := fmt.Sprintf("https://api.example.com/adopt/%d", i)
		scopes := []mgmt.ResourceServerScope{{Value: "read:x", Description: "Read"}, {Value: "write:x"}}
		rs := mgmt.ResourceServer{Identifier: ident, Scopes: &scopes}
		switch i % 4 {
		case 0:
			rs.Name = str(fmt.Sprintf("API %d", i))
		case 1:
			rs.SigningAlg, rs.TokenDialect, rs.EnforcePolicies = str("HS256"), str("access_token_authz"), ptr(true)
		case 2:
			rs.TokenLifetime = ptr[int64](3600)
			rs.ProofOfPossession = &mgmt.ProofOfPossession{Mechanism: "dpop", Required: true}
		case 3:
			rs.SubjectTypeAuthorization = &mgmt.SubjectTypeAuth{User: &mgmt.SubjectTypePolicy{Policy: "deny_all"}}
			rs.AuthorizationDetails = &[]mgmt.AuthorizationDetail{{Type: "payment"}}
		}
		if _, err := c.CreateResourceServer(ctx, rs); err != nil {
			t.Fatal(err)
		}
		idents = append(idents, ident)
		made++
	}
	a, err := c.CreateAction(ctx, mgmt.ActionCreate{
		Name:              "adopt-exchange",
		SupportedTriggers: []mgmt.ActionTrigger{{ID: mgmt.TriggerCustomTokenExchange, Version: "v1"}},
		Code:              "exports.onExecuteCustomTokenExchange = async (event, api) => {};",
		Deploy:            true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	action := a.ID
	made++
	// An action with secrets: their values cannot be read back.
	withSecrets, err := c.CreateAction(ctx, mgmt.ActionCreate{
		Name:              "adopt-with-secrets",
		SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}},
		Code:              "exports.onExecutePostLogin = async (event, api) => {};",
		Secrets:           []mgmt.ActionSecretValue{{Name: "API_KEY", Value: adoptedSecret}},
		Deploy:            true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForAction(ctx, withSecrets.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	made++
	// The post-login trigger runs it; and the tenant's phone provider.
	if _, err := c.UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{
		{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: withSecrets.ID}, DisplayName: "Adopted"},
	}); err != nil {
		t.Fatal(err)
	}
	made++
	if _, err := c.CreatePhoneProvider(ctx, mgmt.PhoneProviderCreate{Name: "custom", Configuration: mgmt.PhoneConfiguration{DeliveryMethods: []string{"text"}}}); err != nil {
		t.Fatal(err)
	}
	made++
	for i := range n {
		if _, err := c.CreateTokenExchangeProfile(ctx, mgmt.TokenExchangeProfileCreate{
			Name: fmt.Sprintf("profile %d", i), SubjectTokenType: fmt.Sprintf("urn:adopt:%d", i), ActionID: action, Type: "custom_authentication",
		}); err != nil {
			t.Fatal(err)
		}
		made++
	}
	for i := range n {
		role := mgmt.Role{Name: fmt.Sprintf("adopt-role-%d", i)}
		if i%3 == 0 {
			role.Description = "Adopted role"
		}
		r, err := c.CreateRole(ctx, role)
		if err != nil {
			t.Fatal(err)
		}
		made++
		if i%2 == 0 {
			perms := []mgmt.Permission{{ResourceServerIdentifier: idents[i], PermissionName: "read:x"}, {ResourceServerIdentifier: idents[(i+1)%n], PermissionName: "write:x"}}
			if err := c.AddRolePermissions(ctx, r.ID, perms); err != nil {
				t.Fatal(err)
			}
			made++
		}
	}
	// Clients, each granted its API's read scope; and the provider's own
	// client with its grant for the Management API, which the lists find
	// too.
	for i := range n / 4 {
		cl := mgmt.AppClient{Name: str(fmt.Sprintf("adopt-client-%d", i)), AppType: str("non_interactive"), GrantTypes: &[]string{"client_credentials"}}
		if i%2 == 0 {
			cl.AppType, cl.GrantTypes = str("regular_web"), nil
			cl.OIDCConformant, cl.Callbacks = ptr(true), &[]string{"https://app.example.com/cb"}
			cl.TokenExchange = &mgmt.TokenExchange{AllowAnyProfileOfType: []string{"custom_authentication"}}
		}
		created, err := c.CreateClient(ctx, cl)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CreateClientGrant(ctx, mgmt.ClientGrant{ClientID: created.ClientID, Audience: idents[i], Scope: &[]string{"read:x"}}); err != nil {
			t.Fatal(err)
		}
		made += 2
	}
	return made + 2
}

func ptr[T any](v T) *T { return &v }

// adoptedSecret is the value of the adopted action's secret.
const adoptedSecret = "adopted-secret-value"

// fillSecrets does to generated configuration what the adoption guide asks
// of the user for an action with secrets: give their values in secrets_wo,
// where the import wrote secrets_wo = null beside secrets_wo_version = 0.
func fillSecrets(t *testing.T, generated string) string {
	t.Helper()
	blank := regexp.MustCompile(`secrets_wo\s+= null(\s+secrets_wo_version = 0\n)`)
	if n := len(blank.FindAllString(generated, -1)); n != 1 {
		t.Fatalf("the generated configuration holds %d actions with secrets_wo_version = 0, want 1:\n%s", n, generated)
	}
	return blank.ReplaceAllString(generated, `secrets_wo = [{ name = "API_KEY", value = "`+adoptedSecret+`" }]$1`)
}

// TestAdoptGuide follows docs/guides/adopt.md from its text against a
// tenant holding objects made outside Terraform: the provider installed as
// the README says, the query, the generated configuration with the
// secret values the guide has the reader fill in, and the apply that only
// imports (every object, nothing added, changed or destroyed, no write
// sent), then a plan with no changes.
func TestAdoptGuide(t *testing.T) {
	t.Parallel() // a folder, a home and an emulator of its own
	requireAcc(t)
	acctest.RequireTerraform(t, "1.14.0", "terraform query and list resources")
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	made := seedTenant(t, emu, 58)

	r := newReader(t)
	r.env = append(r.env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	r.step("install the provider as the README's Install section says", `terraform-provider-tenant#install`, (*reader).installAsReadme)
	var queryTime time.Duration
	var queryStats emulator.Stats
	r.hookOn("terraform query -generate-config-out=generated.tf", roleRun, hook{
		before: func(r *reader, b *guideBlock) { emu.ResetStats() },
		run: func(r *reader, b *guideBlock, text string) {
			start := time.Now()
			if out, err := r.run(text); err != nil {
				t.Fatalf("%s: %v\n%s", b, err, out)
			}
			queryTime, queryStats = time.Since(start), emu.Stats()
		},
		after: func(r *reader, b *guideBlock) {
			if imports := strings.Count(r.read("generated.tf"), "\nimport {"); imports != made {
				t.Fatalf("the generated configuration imports %d objects, want the %d made outside Terraform", imports, made)
			}
		},
	})
	// What the guide has the reader write by hand: the action's secret.
	r.hookOn("secrets_wo_version = 0", roleExcerpt, hook{
		after: func(r *reader, b *guideBlock) { r.write("generated.tf", fillSecrets(t, r.read("generated.tf"))) },
	})
	r.hookOn("terraform apply", roleRun, hook{
		before: func(r *reader, b *guideBlock) { emu.ResetStats() },
		after: func(r *reader, b *guideBlock) {
			want := fmt.Sprintf("Apply complete! Resources: %d imported, 0 added, 0 changed, 0 destroyed.", made)
			if !strings.Contains(r.lastOut, want) || !strings.Contains(r.lastOut, "No changes.") {
				t.Fatalf("%s: want %q, then a plan with no changes:\n%s", b, want, tail(r.lastOut, 60))
			}
			st := emu.Stats()
			if n := acctest.Writes(st.ByRoute); n != 0 {
				t.Fatalf("the adoption sent %d writes: %v", n, st.ByRoute)
			}
			t.Logf("adopted %d objects: query %d requests in %s, apply (imports) and plan %d requests",
				made, queryStats.Total, queryTime.Round(time.Millisecond), st.Total)
		},
	})
	r.walk(readGuide(t, "adopt"))
	// The number the guide gives is the tenant this test adopts.
	claim := regexp.MustCompile("`([0-9]+) imported, 0 added, 0 changed, 0 destroyed`").FindStringSubmatch(readGuidePage(t, "adopt"))
	if claim == nil || claim[1] != fmt.Sprint(made) {
		t.Fatalf("the adoption guide says the provider's tests adopt %v objects; this test adopts %d", claim, made)
	}
}

func tail(s string, lines int) string {
	all := strings.Split(s, "\n")
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}
