package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

const grantAddr = "tenant_client_grant.test"

func getGrant(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetClientGrant(ctx, id)
	return err
}

var grantIDPattern = regexp.MustCompile(`^cgr_[A-Za-z0-9]{16}$`)

// checkGone checks that no client and no grant of the state is left.
func checkGone(target *acctest.Target) resource.TestCheckFunc {
	return resource.ComposeTestCheckFunc(target.CheckGone(client.TypeName, getClient), target.CheckGone(client.GrantTypeName, getGrant))
}

// TestAccClientGrant_update: a grant is created with scopes, its scopes
// change in place (the client's next token carries them), it imports by
// id and by client_id::audience, and removals return the defaults.
func TestAccClientGrant_update(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	ident := "https://api.example.com/" + name
	sameID := statecheck.CompareValue(compare.ValuesSame())
	scopes := func(values ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, len(values))
		for i, v := range values {
			checks[i] = knownvalue.StringExact(v)
		}
		return knownvalue.SetExact(checks)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkGone(target),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccGrantConfig(name, ident, `scopes = ["read:orders"]`)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(grantAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(grantIDPattern)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("audience"), knownvalue.StringExact(ident)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("scopes"), scopes("read:orders")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("subject_type"), knownvalue.StringExact("client")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("organization_usage"), knownvalue.StringExact("deny")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("allow_any_organization"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("allow_all_scopes"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("is_system"), knownvalue.Bool(false)),
					statecheck.CompareValuePairs(grantAddr, tfjsonpath.New("client_id"), addr, tfjsonpath.New("client_id"), compare.ValuesSame()),
				},
				Check:            clientToken(emu, ident, "read:orders"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: grantAddr, ImportState: true, ImportStateVerify: true},
			{
				ResourceName: grantAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources[grantAddr].Primary.Attributes["client_id"] + "::" + ident, nil
				},
			},
			{
				Config: target.Config(testAccGrantConfig(name, ident, `scopes = ["read:orders", "write:orders"]
  organization_usage          = "allow"
  allow_any_organization      = true
  authorization_details_types = ["payment"]`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(grantAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(grantAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("scopes"), scopes("read:orders", "write:orders")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("organization_usage"), knownvalue.StringExact("allow")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("allow_any_organization"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("authorization_details_types"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("payment")})),
				},
				Check: clientToken(emu, ident, "read:orders write:orders"),
			},
			{
				// Every optional argument removed.
				Config: target.Config(testAccGrantConfig(name, ident, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(grantAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("scopes"), scopes()),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("organization_usage"), knownvalue.StringExact("deny")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("allow_any_organization"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("authorization_details_types"), knownvalue.Null()),
				},
				Check:            clientToken(emu, ident, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: target.Config(testAccGrantConfig(name, ident, "allow_all_scopes = true")),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(grantAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(grantAddr, tfjsonpath.New("scopes"), knownvalue.Null()),
				},
				Check:            clientToken(emu, ident, "read:orders write:orders"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           target.Config(testAccGrantConfig(name, ident, `scopes = ["write:orders"]`)),
				Check:            clientToken(emu, ident, "write:orders"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// clientToken asks the token endpoint for a token of the state's client
// for audience (its secret from the emulator) and checks its scopes.
func clientToken(emu *emulator.Server, audience, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		secret := ""
		for _, raw := range emu.State().Clients {
			var c struct {
				ID     string `json:"client_id"`
				Secret string `json:"client_secret"`
			}
			_ = json.Unmarshal(raw, &c)
			if c.ID == id {
				secret = c.Secret
			}
		}
		resp, err := http.PostForm(emu.Domain()+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id},
			"client_secret": {secret}, "audience": {audience}})
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if got, _ := out["scope"].(string); resp.StatusCode != 200 || got != want {
			return fmt.Errorf("token for %s: %d %v, want scopes %q", audience, resp.StatusCode, out, want)
		}
		return nil
	}
}

func testAccGrantConfig(name, ident, body string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[2]q
  scopes     = { "read:orders" = "", "write:orders" = "" }
}

resource "tenant_client" "test" {
  name        = %[1]q
  app_type    = "non_interactive"
  grant_types = ["client_credentials"]
}

resource "tenant_client_grant" "test" {
  client_id = tenant_client.test.client_id
  audience  = tenant_resource_server.test.identifier
  %[3]s
}
`, name, ident, body)
}

// TestAccClientGrant_drift: scopes changed outside Terraform plan back; a
// grant deleted outside Terraform is created again.
func TestAccClientGrant_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	ident := "https://api.example.com/" + name
	config := target.Config(testAccGrantConfig(name, ident, `scopes = ["read:orders"]`))
	id := func(s *terraform.State) string { return s.RootModule().Resources[grantAddr].Primary.ID }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkGone(target),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(s *terraform.State) error {
					_, err := target.Client().UpdateClientGrant(context.Background(), id(s), mgmt.ClientGrantUpdate{Scope: mgmt.Set([]string{"write:orders"})})
					return err
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(grantAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(s *terraform.State) error {
					g, err := target.Client().GetClientGrant(context.Background(), id(s))
					if err != nil || strings.Join(*g.Scope, ",") != "read:orders" {
						return fmt.Errorf("the drift was not repaired: %+v %v", g, err)
					}
					return target.Client().DeleteClientGrant(context.Background(), g.ID)
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(grantAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccClientGrant_conflicts: a grant the tenant already holds for the
// client and API is refused at plan with its import command; so is a
// second resource of the configuration for the same pair. A grant for an
// API that neither the tenant nor the configuration has warns.
func TestAccClientGrant_conflicts(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	var existing string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		PreCheck: func() {
			g, err := target.Client().CreateClientGrant(context.Background(), mgmt.ClientGrant{
				ClientID: emu.ClientID(), Audience: "https://other.example.com", Scope: &[]string{}})
			if err == nil || !mgmt.IsNotFound(err) {
				t.Fatalf("a grant for an unknown API: %+v %v", g, err)
			}
			name := "Existing"
			if _, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: "https://existing.example.com", Name: &name}); err != nil {
				t.Fatal(err)
			}
			g, err = target.Client().CreateClientGrant(context.Background(), mgmt.ClientGrant{
				ClientID: emu.ClientID(), Audience: "https://existing.example.com", Scope: &[]string{}})
			if err != nil {
				t.Fatal(err)
			}
			existing = g.ID
		},
		Steps: []resource.TestStep{
			{
				Config: target.Config(fmt.Sprintf(`
resource "tenant_client_grant" "test" {
  client_id = %q
  audience  = "https://existing.example.com"
}
`, emu.ClientID())),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`Client grant already exists.*already has a grant for the API.*terraform import tenant_client_grant.<name> cgr_`),
			},
			{
				Config: target.Config(fmt.Sprintf(`
resource "tenant_client_grant" "one" {
  client_id = %[1]q
  audience  = "https://twice.example.com"
}

resource "tenant_client_grant" "two" {
  client_id = %[1]q
  audience  = "https://twice.example.com"
}
`, emu.ClientID())),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`Another tenant_client_grant of this configuration grants the client`),
			},
		},
	})
	if existing == "" {
		t.Fatal("no grant was made")
	}
	out := planOutput(t, `
resource "tenant_client" "test" {
  name = "nowhere"
}

resource "tenant_client_grant" "test" {
  client_id = tenant_client.test.client_id
  audience  = "https://nowhere.example.com"
}
`)
	if !strings.Contains(out, "Client grant for an unknown API") {
		t.Fatalf("no warning for an unknown API:\n%s", out)
	}
}

// TestAccClientGrant_validation: bounds and enums refused at plan, before
// any request.
func TestAccClientGrant_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`client_id = "c"` + "\n  audience = \"\"", `Attribute audience UTF-8 character count must be between 1 and 600, got: 0`},
		{`client_id = ".."` + "\n  audience = \"https://a\"", `Attribute client_id must not be "." or ".."`},
		{`client_id = "c"` + "\n  audience = \"https://a\"\n  subject_type = \"machine\"", `Attribute subject_type value must be one of:.*got: "machine"`},
		{`client_id = "c"` + "\n  audience = \"https://a\"\n  organization_usage = \"maybe\"", `Attribute organization_usage value must be one of:.*got: "maybe"`},
		{`client_id = "c"` + "\n  audience = \"https://a\"\n  scopes = [\"\"]", `UTF-8 character count must be between 1 and 280, got: 0`},
		{`client_id = "c"` + "\n  audience = \"https://a\"\n  scopes = [\"a\"]\n  allow_all_scopes = true", `Attribute scopes cannot be set with allow_all_scopes = true`},
		{`client_id = "c"` + "\n  audience = \"https://a\"\n  authorization_details_types = []", `Attribute authorization_details_types list must contain at least 1 elements, got: 0`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_client_grant\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccClient_identity and TestAccClientGrant_identity: the identities
// hold the ids and import both ways (Terraform 1.12 or later).
func TestAccClient_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: acctest.IdentitySteps(target.Config(testAccClientConfig_name(acctest.RandomName())), addr,
			map[string]knownvalue.Check{"id": knownvalue.StringRegexp(clientIDPattern)}),
	})
}

func TestAccClientGrant_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             checkGone(target),
		Steps: acctest.IdentitySteps(target.Config(testAccGrantConfig(name, "https://api.example.com/"+name, `scopes = ["read:orders"]`)), grantAddr,
			map[string]knownvalue.Check{"id": knownvalue.StringRegexp(grantIDPattern)}),
	})
}

// TestAccClientDataSources: the data sources read what the resources
// manage, by each look-up key; a name two clients share is an error.
func TestAccClientDataSources(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	ident := "https://api.example.com/" + name
	base := testAccGrantConfig(name, ident, `scopes = ["read:orders"]`)
	same := func(data, attr string) statecheck.StateCheck {
		from := addr
		if strings.Contains(data, "grant") {
			from = grantAddr
		}
		return statecheck.CompareValuePairs(from, tfjsonpath.New(attr), data, tfjsonpath.New(attr), compare.ValuesSame())
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkGone(target),
		Steps: []resource.TestStep{
			{
				Config: target.Config(base + `
data "tenant_client" "by_id" {
  client_id = tenant_client.test.client_id
}

data "tenant_client" "by_name" {
  name       = tenant_client.test.name
  depends_on = [tenant_client.test]
}

data "tenant_client_grant" "by_id" {
  id = tenant_client_grant.test.id
}

data "tenant_client_grant" "by_pair" {
  client_id = tenant_client_grant.test.client_id
  audience  = tenant_client_grant.test.audience
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					same("data.tenant_client.by_id", "id"), same("data.tenant_client.by_id", "name"),
					same("data.tenant_client.by_id", "grant_types"), same("data.tenant_client.by_id", "refresh_token"),
					same("data.tenant_client.by_id", "jwt_configuration"),
					same("data.tenant_client.by_name", "client_id"),
					same("data.tenant_client_grant.by_id", "scopes"), same("data.tenant_client_grant.by_id", "audience"),
					same("data.tenant_client_grant.by_pair", "id"),
				},
			},
			{
				Config: target.Config(base + fmt.Sprintf(`
resource "tenant_client" "twin" {
  name = %[1]q
}

data "tenant_client" "by_name" {
  name       = %[1]q
  depends_on = [tenant_client.test, tenant_client.twin]
}
`, name)),
				ExpectError: acctest.ExpectError(`2 clients are named`),
			},
		},
	})
}

// TestAccClientGrant_subjectTypes: a user grant beside a client grant of
// the same client and API plans (with a warning) under both readings of
// the tenant; with one grant per pair the apply meets the 409, with one
// per pair and subject type both are created and the import by
// client_id::audience names both ids.
func TestAccClientGrant_subjectTypes(t *testing.T) {
	for mode, fail := range map[string]bool{"shared": true, "separate": false} {
		t.Run(mode, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{GrantSubjectType: mode}})
			name := acctest.RandomName()
			config := func(user bool) string {
				c := fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = "https://api.example.com/%[1]s"
}

resource "tenant_client" "test" {
  name = %[1]q
}

resource "tenant_client_grant" "test" {
  client_id = tenant_client.test.client_id
  audience  = tenant_resource_server.test.identifier
}
`, name)
				if user {
					c += `
resource "tenant_client_grant" "user" {
  client_id    = tenant_client.test.client_id
  audience     = tenant_resource_server.test.identifier
  subject_type = "user"
}
`
				}
				return target.Config(c)
			}
			second := resource.TestStep{Config: config(true)}
			steps := []resource.TestStep{{Config: config(false)}}
			if fail {
				second.ExpectError = acctest.ExpectError(`Client grant already exists.*already has a grant for the API`)
				steps = append(steps, second)
			} else {
				second.ConfigPlanChecks = resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
				steps = append(steps, second, resource.TestStep{
					Config: config(true), ResourceName: grantAddr, ImportState: true,
					ImportStateIdFunc: func(s *terraform.State) (string, error) {
						rs := s.RootModule().Resources[grantAddr]
						return rs.Primary.Attributes["client_id"] + "::" + rs.Primary.Attributes["audience"], nil
					},
					ExpectError: acctest.ExpectError(`has 2 grants for the API.*one per subject type.*Import the one to manage by its id`),
				})
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				Steps:                    steps,
			})
		})
	}
}

// TestAccClientGrant_secondOfManaged: a grant added beside the managed
// grant of the same client and API is the one refused, whichever plans
// first; the managed one plans without error.
func TestAccClientGrant_secondOfManaged(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	one := fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = "https://api.example.com/%[1]s"
}

resource "tenant_client_grant" "one" {
  client_id = %[2]q
  audience  = tenant_resource_server.test.identifier
}
`, name, emu.ClientID())
	two := one + fmt.Sprintf(`
resource "tenant_client_grant" "two" {
  client_id = %q
  audience  = tenant_resource_server.test.identifier
}
`, emu.ClientID())
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + one})
	if out, err := cli.Run("apply", "-input=false", "-no-color", "-auto-approve"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = cli.Run("destroy", "-input=false", "-no-color", "-auto-approve") })
	cli.Write(t, "main.tf", provider+two)
	for range 4 {
		out, err := cli.Run("plan", "-input=false", "-no-color")
		if err == nil || !regexp.MustCompile(`(?s)with\s+tenant_client_grant\.two.*of\s+this\s+configuration`).MatchString(out) ||
			strings.Contains(out, "with tenant_client_grant.one") {
			t.Fatalf("plan (error %v):\n%s", err, out)
		}
	}
}
