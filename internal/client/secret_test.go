package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// withEcho serves the echo provider beside this one: it puts what its
// configuration is given (an ephemeral value) into its state, where a
// test can read it.
var withEcho = map[string]func() (tfprotov6.ProviderServer, error){
	"tenant": acctest.ProviderFactories["tenant"],
	"echo":   echoprovider.NewProviderServer(),
}

// tenantSecret is the secret the tenant holds for the client of addr.
func tenantSecret(target *acctest.Target, s *terraform.State) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s is not in the state", addr)
	}
	c, err := target.Client().GetClient(context.Background(), rs.Primary.ID)
	if err != nil {
		return "", err
	}
	if c.ClientSecret == "" {
		return "", fmt.Errorf("the tenant shows no secret for %s", rs.Primary.ID)
	}
	return c.ClientSecret, nil
}

// noSecretInState fails when the client's secret is anywhere in the state
// of the tenant provider's resources.
func noSecretInState(target *acctest.Target) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		secret, err := tenantSecret(target, s)
		if err != nil {
			return err
		}
		for name, rs := range s.RootModule().Resources {
			if strings.HasPrefix(name, "echo.") {
				continue
			}
			for k, v := range rs.Primary.Attributes {
				if strings.Contains(v, secret) {
					return fmt.Errorf("the client secret is in the state: %s.%s", name, k)
				}
			}
		}
		return nil
	}
}

// TestAccClientSecret_ephemeral: the ephemeral resource hands the client's
// secret to another provider's configuration; neither the plan nor the
// state of this provider holds it.
func TestAccClientSecret_ephemeral(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: withEcho,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{{
			Config: target.Config(fmt.Sprintf(`
resource "tenant_client" "test" {
  name = %[1]q
}

ephemeral "tenant_client_secret" "test" {
  client_id = tenant_client.test.client_id
}

provider "echo" {
  data = ephemeral.tenant_client_secret.test.client_secret
}

resource "echo" "secret" {}
`, name)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret"), knownvalue.Null()),
			},
			Check: resource.ComposeTestCheckFunc(
				func(s *terraform.State) error {
					secret, err := tenantSecret(target, s)
					if err != nil {
						return err
					}
					if got := s.RootModule().Resources["echo.secret"].Primary.Attributes["data"]; got != secret {
						return fmt.Errorf("the ephemeral secret is %q, the tenant's %q", got, secret)
					}
					return nil
				},
				noSecretInState(target),
			),
		}},
	})
}

// TestAccClientSecret_rotation: changing client_secret_rotation rotates the
// secret (the old one stops working, a token comes with the new one through
// the client's grant); with client_secret_in_state the state follows it;
// removing the number rotates nothing.
func TestAccClientSecret_rotation(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	config := func(rotation string) string {
		return target.Config(fmt.Sprintf(`
resource "tenant_client" "test" {
  name                   = %[1]q
  app_type               = "non_interactive"
  grant_types            = ["client_credentials"]
  client_secret_in_state = true
  %[2]s
}

resource "tenant_client_grant" "test" {
  client_id = tenant_client.test.client_id
  audience  = %[3]q
  scopes    = ["read:roles"]
}
`, name, rotation, emu.Audience()))
	}
	var secrets []string
	record := func(s *terraform.State) error {
		secret, err := tenantSecret(target, s)
		if err != nil {
			return err
		}
		if got := s.RootModule().Resources[addr].Primary.Attributes["client_secret"]; got != secret {
			return fmt.Errorf("the state's secret is not the tenant's")
		}
		secrets = append(secrets, secret)
		return nil
	}
	token := func(secret string) (int, string) {
		id := ""
		for _, c := range emu.State().Clients {
			var v struct {
				ID     string `json:"client_id"`
				Secret string `json:"client_secret"`
			}
			_ = json.Unmarshal(c, &v)
			if v.Secret == secret || slices.Contains(secrets, v.Secret) {
				id = v.ID
			}
		}
		resp, err := http.PostForm(emu.Domain()+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id},
			"client_secret": {secret}, "audience": {emu.Audience()}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		scope, _ := out["scope"].(string)
		return resp.StatusCode, scope
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{Config: config("client_secret_rotation = 1"), Check: record},
			{
				Config:           config("client_secret_rotation = 2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("client_secret"))}},
				Check: resource.ComposeTestCheckFunc(record, func(*terraform.State) error {
					if secrets[1] == secrets[0] {
						return fmt.Errorf("the secret did not change")
					}
					if st, _ := token(secrets[0]); st != http.StatusUnauthorized {
						return fmt.Errorf("the old secret still gets a token (%d)", st)
					}
					if st, scope := token(secrets[1]); st != http.StatusOK || scope != "read:roles" {
						return fmt.Errorf("the new secret gets %d %q, want a token with the grant's scope", st, scope)
					}
					return nil
				}),
			},
			{
				// Removing the number rotates nothing.
				Config:           config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret"), knownvalue.NotNull())}},
				Check: resource.ComposeTestCheckFunc(record, func(*terraform.State) error {
					if secrets[2] != secrets[1] {
						return fmt.Errorf("the secret changed")
					}
					return nil
				}),
			},
			{
				// Out of the state again.
				Config: strings.Replace(config(""), "client_secret_in_state = true", "", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret"), knownvalue.Null()),
				},
				Check: noSecretInState(target),
			},
		},
	})
}

// TestAccClientSecret_withoutClientKeys: credentials without
// read:client_keys and update:client_keys plan and apply a client (its
// secret in the state from the create answer, kept by refreshes); only the
// ephemeral secret and the rotation fail, naming the scope they need.
func TestAccClientSecret_withoutClientKeys(t *testing.T) {
	var scopes []string
	for _, s := range emulator.AllScopes() {
		if !strings.HasSuffix(s, ":client_keys") {
			scopes = append(scopes, s)
		}
	}
	target := acctest.NewTargetWith(t, emulator.Options{Clients: []emulator.Client{{ID: "no-keys", Secret: "no-keys-secret-0123456789", Scopes: scopes}}})
	emu := target.RequireEmulator(t)
	provider := acctest.ProviderHCL(emu.Domain(), "no-keys", "no-keys-secret-0123456789")
	name := acctest.RandomName()
	config := func(extra string) string {
		return provider + fmt.Sprintf(`
resource "tenant_client" "test" {
  name                   = %[1]q
  client_secret_in_state = true
  %[2]s
}
`, name, extra)
	}
	var created string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: withEcho,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				Check: func(s *terraform.State) error {
					secret, err := tenantSecret(target, s)
					created = secret
					if err == nil && s.RootModule().Resources[addr].Primary.Attributes["client_secret"] != secret {
						return fmt.Errorf("the create answer's secret is not in the state")
					}
					return err
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: config(`description = "updated"`),
				Check: func(s *terraform.State) error {
					if s.RootModule().Resources[addr].Primary.Attributes["client_secret"] != created {
						return fmt.Errorf("an update without read:client_keys lost the secret")
					}
					return nil
				},
			},
			{
				Config: config(`description = "updated"`) + `
ephemeral "tenant_client_secret" "test" {
  client_id = tenant_client.test.client_id
}

provider "echo" {
  data = ephemeral.tenant_client_secret.test.client_secret
}

resource "echo" "secret" {}
`,
				ExpectError: acctest.ExpectError(`Unable to read client secret.*needs the read:client_keys scope`),
			},
			{
				Config:      config("description = \"updated\"\n  client_secret_rotation = 1"),
				ExpectError: acctest.ExpectError(`Unable to rotate client secret.*update:client_keys`),
			},
			{Config: config(`description = "updated"`)},
		},
	})
}
