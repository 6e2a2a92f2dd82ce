package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// TestAdoptWithQuery adopts a tenant holding objects made outside Terraform
// in three commands: terraform query -generate-config-out, terraform apply
// (imports only: nothing added, changed or destroyed), and a plan that is
// empty.
func TestAdoptWithQuery(t *testing.T) {
	requireAcc(t)
	acctest.RequireTerraform(t, "1.14.0", "terraform query and list resources")
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	made := seedTenant(t, emu, 58)
	// The query of the adoption guide (docs/guides/adopt.md), as it is.
	query, err := os.ReadFile("../../examples/query/adopt.tfquery.hcl")
	if err != nil {
		t.Fatal(err)
	}
	cli := acctest.NewCLI(t, map[string]string{
		"main.tf":           acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()),
		"adopt.tfquery.hcl": string(query),
	})

	emu.ResetStats()
	start := time.Now()
	out, err := cli.Run("query", "-generate-config-out=generated.tf", "-no-color")
	if err != nil {
		t.Fatalf("terraform query: %v\n%s", err, out)
	}
	queryTime, queryStats := time.Since(start), emu.Stats()
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	imports := strings.Count(string(generated), "\nimport {")
	if imports != made {
		t.Fatalf("the generated configuration imports %d objects, want the %d made outside Terraform", imports, made)
	}
	cli.Write(t, "generated.tf", fillSecrets(t, string(generated)))

	emu.ResetStats()
	start = time.Now()
	out, err = cli.Run("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, tail(out, 40))
	}
	applyTime, applyStats := time.Since(start), emu.Stats()
	want := fmt.Sprintf("Apply complete! Resources: %d imported, 0 added, 0 changed, 0 destroyed.", made)
	if !strings.Contains(out, want) {
		t.Fatalf("the apply did more than import; want %q in:\n%s", want, tail(out, 60))
	}
	if n := applyStats.ByRoute["POST /api/v2/actions/actions/{id}/deploy"] + applyStats.ByRoute["PATCH /api/v2/actions/actions/{id}"]; n != 0 {
		t.Fatalf("adopting the actions changed or deployed them (%d requests)", n)
	}

	emu.ResetStats()
	start = time.Now()
	out, err = cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("the plan after adoption is not empty (%v):\n%s", err, tail(out, 60))
	}
	planTime, planStats := time.Since(start), emu.Stats()
	t.Logf("adopted %d objects: query %d requests in %s, apply (imports) %d requests in %s, plan %d requests in %s",
		made, queryStats.Total, queryTime.Round(time.Millisecond), applyStats.Total, applyTime.Round(time.Millisecond),
		planStats.Total, planTime.Round(time.Millisecond))
}

func tail(s string, lines int) string {
	all := strings.Split(s, "\n")
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}
