package resourceserver_test

import (
	"context"
	"fmt"
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
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/resourceserver"
)

const addr = "tenant_resource_server.test"

func getServer(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetResourceServer(ctx, id)
	return err
}

func TestAccResourceServer_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{{
			Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
}
`, ident)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{24}$`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("identifier"), knownvalue.StringExact(ident)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_alg"), knownvalue.StringExact("RS256")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(86400)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(7200)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_offline_access"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("skip_consent_for_verifiable_first_party_clients"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_system"), knownvalue.Bool(false)),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccResourceServer_update(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccServerFull(ident, "Orders", "RS256", 3600, `{ value = "read:orders", description = "Read orders" }`)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact("read:orders"), "description": knownvalue.StringExact("Read orders")}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.StringExact("access_token_authz")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Bool(true)),
				},
			},
			{
				Config:           target.Config(testAccServerFull(ident, "Orders v2", "HS256", 7200, `{ value = "read:orders" }, { value = "write:orders", description = "Write" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Orders v2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_alg"), knownvalue.StringExact("HS256")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.StringRegexp(regexp.MustCompile(`^.{16,}$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.SetSizeExact(2)),
				},
			},
			{
				// Removing scopes clears them in the tenant.
				Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier  = %[1]q
  name        = "Orders v2"
  signing_alg = "RS256"
}
`, ident)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccResourceServer_replace(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	differ := statecheck.CompareValue(compare.ValuesDiffer())
	cfg := func(id string) string {
		return fmt.Sprintf("\nresource \"tenant_resource_server\" \"test\" {\n  identifier = %q\n  name = \"replaced\"\n}\n", id)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{Config: target.Config(cfg(ident)), ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(addr, tfjsonpath.New("id"))}},
			{
				Config:            target.Config(cfg(ident + "/v2")),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)}},
				ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(addr, tfjsonpath.New("id"))},
			},
		},
	})
}

func TestAccResourceServer_import(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName() + "/"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccServerFull(ident, "Imported", "HS256", 3600, `{ value = "read:x" }`))},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateId: ident},
		},
	})
}

func TestAccResourceServer_disappears(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{{
			Config: target.Config(fmt.Sprintf("\nresource \"tenant_resource_server\" \"test\" {\n  identifier = %q\n}\n", ident)),
			Check: func(s *terraform.State) error {
				return target.Client().DeleteResourceServer(context.Background(), s.RootModule().Resources[addr].Primary.ID)
			},
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
			}},
		}},
	})
}

func TestAccResourceServer_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	cfg := target.Config(testAccServerFull(ident, "Drift", "RS256", 3600, `{ value = "read:x" }`))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					life, name := int64(60), "changed outside"
					scopes := []mgmt.ResourceServerScope{{Value: "read:x"}, {Value: "added:outside"}}
					_, err := target.Client().UpdateResourceServer(context.Background(), s.RootModule().Resources[addr].Primary.ID,
						mgmt.ResourceServer{Name: &name, TokenLifetime: &life, TokenLifetimeForWeb: &life, Scopes: &scopes})
					return err
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Drift")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(3600)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.SetSizeExact(1)),
				}},
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

func TestAccResourceServer_systemAPIRefused(t *testing.T) {
	target := acctest.NewTarget(t)
	before := target.Requests()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      target.Config(fmt.Sprintf("\nresource \"tenant_resource_server\" \"test\" {\n  identifier = %q\n}\n", target.Client().Endpoint().DefaultAudience())),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`Unable to manage a system API.*is a system API of the tenant`),
		}},
	})
	if got := target.Requests() - before; got != 0 {
		t.Fatalf("%d requests sent for a plan-time refusal", got)
	}
}

func TestAccResourceServer_validation(t *testing.T) {
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`identifier = ""`, `Attribute identifier string length must be between 1 and 600, got: 0`},
		{`identifier = "` + strings.Repeat("i", 601) + `"`, `Attribute identifier string length must be between 1 and 600, got: 601`},
		{`identifier = "https://v"` + "\n  name = \"" + strings.Repeat("n", 201) + `"`, `Attribute name string length must be between 1 and 200, got: 201`},
		{`identifier = "https://v"` + "\n  name = \"a<b\"", `must not contain < or >`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS512\"", `Attribute signing_alg value must be one of`},
		{`identifier = "https://v"` + "\n  token_dialect = \"jwt\"", `Attribute token_dialect value must be one of`},
		{`identifier = "https://v"` + "\n  token_lifetime = -1", `Attribute token_lifetime value must be between 0 and 2592000, got: -1`},
		{`identifier = "https://v"` + "\n  token_lifetime = 2592001", `Attribute token_lifetime value must be between 0 and 2592000, got: 2592001`},
		{`identifier = "https://v"` + "\n  token_lifetime = 100\n  token_lifetime_for_web = 101", `token_lifetime_for_web must be at most token_lifetime \(100\), got: 101`},
		{`identifier = "https://v"` + "\n  signing_secret = \"0123456789abcdef\"", `signing_secret is only used with signing_alg = "HS256"`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS256\"\n  signing_secret = \"short\"", `Attribute signing_secret string length must be at least 16, got: 5`},
		{`identifier = "https://v"` + "\n  scopes = []", `Attribute scopes set must contain at least 1 elements, got: 0`},
		{`identifier = "https://v"` + "\n  scopes = [{ value = \"\" }]", `string length must be between 1 and 280, got: 0`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_resource_server\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccResourceServer_conflict: an existing API with the configured
// identifier is adopted only when it equals the configuration.
func TestAccResourceServer_conflict(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	name := "pre-existing"
	existing, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Client().DeleteResourceServer(context.Background(), existing.ID) })
	cfg := func(name string) string {
		return target.Config(fmt.Sprintf("\nresource \"tenant_resource_server\" \"test\" {\n  identifier = %q\n  name = %q\n}\n", ident, name))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config:      cfg("mine"),
				ExpectError: acctest.ExpectError(`already exists \(id ` + existing.ID + `\) and differs from the configuration, so it was not adopted.*terraform import tenant_resource_server.<name> ` + regexp.QuoteMeta(ident)),
			},
			{
				Config: cfg(name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(existing.ID)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccResourceServerDataSource_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	config := testAccServerFull(ident, "Looked up", "RS256", 3600, `{ value = "read:a", description = "A" }, { value = "read:b" }`) + `
data "tenant_resource_server" "by_id" {
  id = tenant_resource_server.test.id
}

data "tenant_resource_server" "by_identifier" {
  identifier = tenant_resource_server.test.identifier
}
`
	var checks []statecheck.StateCheck
	for _, ds := range []string{"data.tenant_resource_server.by_id", "data.tenant_resource_server.by_identifier"} {
		for _, a := range []string{"id", "identifier", "name", "scopes", "signing_alg", "token_lifetime", "token_lifetime_for_web", "allow_offline_access",
			"skip_consent_for_verifiable_first_party_clients", "enforce_policies", "token_dialect", "is_system"} {
			checks = append(checks, statecheck.CompareValuePairs(addr, tfjsonpath.New(a), ds, tfjsonpath.New(a), compare.ValuesSame()))
		}
	}
	system := fmt.Sprintf(`
data "tenant_resource_server" "system" {
  identifier = %q
}
`, target.Client().Endpoint().DefaultAudience())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{PlanOnly: true, Config: target.Config(`
data "tenant_resource_server" "none" {
  identifier = "https://nothing.example.com/"
}
`), ExpectError: acctest.ExpectError(`No API has the id or identifier "https://nothing.example.com/"`)},
			{
				Config: target.Config(config + system),
				ConfigStateChecks: append(checks,
					statecheck.ExpectKnownValue("data.tenant_resource_server.system", tfjsonpath.New("is_system"), knownvalue.Bool(true))),
			},
		},
	})
}

func testAccServerFull(ident, name, alg string, lifetime int, scopes string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier             = %[1]q
  name                   = %[2]q
  signing_alg            = %[3]q
  token_lifetime         = %[4]d
  token_lifetime_for_web = 600
  allow_offline_access   = true
  enforce_policies       = true
  token_dialect          = "access_token_authz"
  scopes                 = [%[5]s]
}
`, ident, name, alg, lifetime, scopes)
}
