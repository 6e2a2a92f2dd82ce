package resourceserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
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
				Config: target.Config(testAccServerFull(ident, "Orders", "RS256", 3600, `"read:orders" = "Read orders"`)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.MapExact(map[string]knownvalue.Check{
						"read:orders": knownvalue.StringExact("Read orders"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.StringExact("access_token_authz")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Bool(true)),
				},
			},
			{
				Config:           target.Config(testAccServerFull(ident, "Orders v2", "HS256", 7200, `"read:orders" = "", "write:orders" = "Write"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Orders v2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_alg"), knownvalue.StringExact("HS256")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.StringRegexp(regexp.MustCompile(`^.{16,}$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.MapExact(map[string]knownvalue.Check{
						"read:orders":  knownvalue.StringExact(""),
						"write:orders": knownvalue.StringExact("Write"),
					})),
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
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(86400)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(7200)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_offline_access"), knownvalue.Bool(false)),
					// Enforcement off, as never set; the dialect, without a
					// documented default, left as it is.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.StringExact("access_token_authz")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccResourceServer_scopes: scopes are keyed by their value, so an edit,
// an addition or a removal of one scope plans as that one key and changes
// only that scope in the tenant; drift on one scope shows as that scope.
func TestAccResourceServer_scopes(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	first := map[string]string{"read:orders": "Read orders", "write:orders": "Write orders", "delete:orders": ""}
	edited := map[string]string{"read:orders": "Read all orders", "write:orders": "Write orders", "delete:orders": ""}
	removed := map[string]string{"read:orders": "Read all orders", "write:orders": "Write orders"}
	added := map[string]string{"read:orders": "Read all orders", "write:orders": "Write orders", "refund:orders": ""}
	step := func(scopes map[string]string, changed ...string) resource.TestStep {
		return resource.TestStep{
			Config: target.Config(testAccServerConfig_scopes(ident, scopes)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				acctest.ExpectMapKeysChanged(addr, "scopes", changed...),
			}},
			Check: checkScopes(target, scopes),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccServerConfig_scopes(ident, first)), Check: checkScopes(target, first)},
			step(edited, "read:orders"),
			step(removed, "delete:orders"),
			step(added, "refund:orders"),
			{
				// Drift: one description changed and one scope added outside Terraform.
				Config: target.Config(testAccServerConfig_scopes(ident, added)),
				Check: func(s *terraform.State) error {
					id := s.RootModule().Resources[addr].Primary.ID
					_, err := target.Client().UpdateResourceServer(context.Background(), id, mgmt.ResourceServerUpdate{
						Scopes: mgmt.Set([]mgmt.ResourceServerScope{
							{Value: "read:orders", Description: "Read all orders"},
							{Value: "write:orders", Description: "changed outside"},
							{Value: "refund:orders"},
							{Value: "added:outside"},
						}),
					})
					return err
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					acctest.ExpectMapKeysChanged(addr, "scopes", "write:orders", "added:outside"),
				}},
			},
			{
				Config:           target.Config(testAccServerConfig_scopes(ident, added)),
				Check:            checkScopes(target, added),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
		},
	})
}

// checkScopes compares the API's scopes, read through the API, with want.
func checkScopes(target *acctest.Target, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		got, err := target.Client().GetResourceServer(context.Background(), s.RootModule().Resources[addr].Primary.ID)
		if err != nil {
			return err
		}
		have := map[string]string{}
		if got.Scopes != nil {
			for _, sc := range *got.Scopes {
				have[sc.Value] = sc.Description
			}
		}
		if fmt.Sprint(have) != fmt.Sprint(want) {
			return fmt.Errorf("the API holds the scopes %v, want %v", have, want)
		}
		return nil
	}
}

// TestAccResourceServer_tenantFilledValues: what the tenant may fill in when
// the configuration leaves it unset is planned as known after apply, not as
// null, so whatever the tenant answers is consistent with the plan; and a
// value the tenant fills in later is kept, not drift. For enforce_policies
// that is false, what an API without it means; a true set outside
// Terraform is drift (TestAccResourceServer_enforcePoliciesRemoved).
func TestAccResourceServer_tenantFilledValues(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	key := publicKeyPEM(t)
	cfg := target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier          = %[1]q
  proof_of_possession = { mechanism = "dpop", required = true }
  token_encryption = {
    format         = "compact-nested-jwe"
    encryption_key = { alg = "RSA-OAEP-256", pem = %[2]q }
  }
}
`, ident, key))
	encryptionKey := tfjsonpath.New("token_encryption").AtMapKey("encryption_key")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("name")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("enforce_policies")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("token_dialect")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("proof_of_possession").AtMapKey("required_for")),
					plancheck.ExpectUnknownValue(addr, encryptionKey.AtMapKey("kid")),
					plancheck.ExpectUnknownValue(addr, encryptionKey.AtMapKey("name")),
				}},
			},
			{
				// The tenant fills them in (another client, or the tenant's
				// own defaults): not drift.
				PreConfig: func() {
					id := serverID(t, target, ident)
					dialect, name := "rfc9068_profile", "Filled in"
					_, err := target.Client().UpdateResourceServer(context.Background(), id, mgmt.ResourceServerUpdate{
						Name:              mgmt.Set(name),
						EnforcePolicies:   mgmt.Set(false),
						TokenDialect:      mgmt.Set(dialect),
						ProofOfPossession: mgmt.Set(mgmt.ProofOfPossession{Mechanism: "dpop", Required: true, RequiredFor: "all_clients"}),
						TokenEncryption: mgmt.Set(mgmt.TokenEncryption{Format: "compact-nested-jwe", EncryptionKey: mgmt.EncryptionKey{
							Alg: "RSA-OAEP-256", PEM: key, Kid: "kid-filled", Name: "filled",
						}}),
					})
					if err != nil {
						t.Fatal(err)
					}
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// serverID looks an API up by identifier.
func serverID(t *testing.T, target *acctest.Target, ident string) string {
	t.Helper()
	s, err := target.Client().GetResourceServer(context.Background(), ident)
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
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
			{Config: target.Config(testAccServerFull(ident, "Imported", "HS256", 3600, `"read:x" = ""`))},
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
	cfg := target.Config(testAccServerFull(ident, "Drift", "RS256", 3600, `"read:x" = ""`))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					_, err := target.Client().UpdateResourceServer(context.Background(), s.RootModule().Resources[addr].Primary.ID, mgmt.ResourceServerUpdate{
						Name:                mgmt.Set("changed outside"),
						TokenLifetime:       mgmt.Set[int64](60),
						TokenLifetimeForWeb: mgmt.Set[int64](60),
						TokenDialect:        mgmt.Null[string](),
						Scopes:              mgmt.Set([]mgmt.ResourceServerScope{{Value: "read:x"}, {Value: "added:outside"}}),
					})
					return err
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Drift")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(3600)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.StringExact("access_token_authz")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.MapExact(map[string]knownvalue.Check{"read:x": knownvalue.StringExact("")})),
				}},
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestAccResourceServer_systemAPIRefused: an identifier of one of the
// tenant's system APIs is refused at plan, before any request: the
// Management API, and the two the tenant makes from a template when an API
// is created with their identifier (reference §4).
func TestAccResourceServer_systemAPIRefused(t *testing.T) {
	target := acctest.NewTarget(t)
	ep := target.Client().Endpoint()
	before := target.Requests()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      target.Config(testAccServerConfig_identifier(ep.DefaultAudience())),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`Unable to manage a system API.*is the tenant's Management API`),
			},
			{
				Config:      target.Config(testAccServerConfig_identifier("urn:auth0:express-configure")),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`Unable to manage a system API.*"urn:auth0:express-configure" makes a system API from the tenant's template`),
			},
			{
				Config:      target.Config(testAccServerConfig_identifier("https://" + ep.Host + "/me/")),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`Unable to manage a system API.*/me/" makes a system API from the tenant's template`),
			},
		},
	})
	if got := target.Requests() - before; got != 0 {
		t.Fatalf("%d requests sent for a plan-time refusal", got)
	}
}

// TestAccResourceServer_systemTemplateKnownAtApply: an identifier known only
// at apply is refused by the plan Terraform makes at apply with the known
// value, before the create is sent, so that no system API is made that
// nothing manages; the destroy that follows succeeds.
func TestAccResourceServer_systemTemplateKnownAtApply(t *testing.T) {
	target := acctest.NewTarget(t)
	ep := target.Client().Endpoint()
	for _, ident := range []string{"urn:auth0:express-configure", "https://" + ep.Host + "/me/"} {
		t.Run(ident, func(t *testing.T) {
			existed := findServer(t, target, ident) != nil
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy: func(*terraform.State) error {
					if !existed && findServer(t, target, ident) != nil {
						return fmt.Errorf("the apply made the system API %q", ident)
					}
					return nil
				},
				Steps: []resource.TestStep{{
					Config:      target.Config(testAccServerConfig_identifierAtApply(ident)),
					ExpectError: acctest.ExpectError(`Unable to manage a system API.*makes a system API from the tenant's template`),
				}},
			})
		})
	}
}

// TestAccResourceServerDataSource_systemTemplate: a system API made from a
// template outside Terraform is read by the data source as the tenant made
// it, and cannot be imported.
func TestAccResourceServerDataSource_systemTemplate(t *testing.T) {
	target := acctest.NewTarget(t)
	const ident = "urn:auth0:express-configure"
	if findServer(t, target, ident) == nil {
		s, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = target.Client().DeleteResourceServer(context.Background(), s.ID) })
	}
	ds := "data.tenant_resource_server.express"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccServerDataSourceConfig_identifier(ident)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("is_system"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("name"), knownvalue.StringExact("Okta OIN Express Configuration API")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(300)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("scopes"), knownvalue.MapSizeExact(2)),
				},
			},
			{
				Config:        target.Config(testAccServerDataSourceConfig_identifier(ident) + testAccServerConfig_identifier(ident)),
				ResourceName:  addr,
				ImportState:   true,
				ImportStateId: ident,
				ExpectError:   acctest.ExpectError(`Unable to import resource server.*makes a system API from the tenant's template`),
			},
		},
	})
}

func findServer(t *testing.T, target *acctest.Target, ident string) *mgmt.ResourceServer {
	t.Helper()
	s, err := target.Client().FindResourceServer(context.Background(), ident)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAccResourceServer_validation(t *testing.T) {
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`identifier = ""`, `Attribute identifier UTF-8 character count must be between 1 and 600, got: 0`},
		{`identifier = "` + strings.Repeat("i", 601) + `"`, `Attribute identifier UTF-8 character count must be between 1 and 600, got: 601`},
		{`identifier = "` + strings.Repeat("é", 601) + `"`, `Attribute identifier UTF-8 character count must be between 1 and 600, got: 601`},
		{`identifier = ".."`, `Attribute identifier must not be "." or ".."`},
		{`identifier = "https://v"` + "\n  name = \"" + strings.Repeat("n", 201) + `"`, `Attribute name UTF-8 character count must be between 1 and 200, got: 201`},
		{`identifier = "https://v"` + "\n  name = \"" + strings.Repeat("é", 201) + `"`, `Attribute name UTF-8 character count must be between 1 and 200, got: 201`},
		{`identifier = "https://v"` + "\n  token_lifetime_for_web = 86401", `token_lifetime_for_web must be at most token_lifetime \(86400\), got: 86401.*not set, so it is the default`},
		{`identifier = "https://v"` + "\n  scopes = { \"" + strings.Repeat("ü", 281) + `" = "" }`, `Attribute\s+scopes\["ü+"\]\s+UTF-8 character count must be between 1 and 280, got: 281`},
		{`identifier = "https://v"` + "\n  scopes = { a = \"" + strings.Repeat("ü", 501) + `" }`, `Attribute scopes\["a"\] UTF-8 character count must be at most 500, got: 501`},
		{`identifier = "https://v"` + "\n  scopes = { \"read orders\" = \"\" }", `Attribute scopes\["read orders"\] must not contain white space.*got: read orders`},
		{`identifier = "https://v"` + "\n  scopes = { for i in range(1001) : \"s:${i}\" => \"\" }", `Attribute scopes map must contain at least 1 elements and at most 1000 elements, got: 1001`},
		{`identifier = "https://v"` + "\n  name = \"a<b\"", `must not contain < or >`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS512\"", `Attribute signing_alg value must be one of`},
		{`identifier = "https://v"` + "\n  token_dialect = \"jwt\"", `Attribute token_dialect value must be one of`},
		{`identifier = "https://v"` + "\n  token_lifetime = -1", `Attribute token_lifetime value must be between 0 and 2592000, got: -1`},
		{`identifier = "https://v"` + "\n  token_lifetime = 2592001", `Attribute token_lifetime value must be between 0 and 2592000, got: 2592001`},
		{`identifier = "https://v"` + "\n  token_lifetime = 100\n  token_lifetime_for_web = 101", `token_lifetime_for_web must be at most token_lifetime \(100\), got: 101`},
		{`identifier = "https://v"` + "\n  signing_secret = \"0123456789abcdef\"", `signing_secret is only used with signing_alg = "HS256"`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS256\"\n  signing_secret = \"short\"", `Attribute signing_secret UTF-8 character count must be at least 16, got: 5`},
		{`identifier = "https://v"` + "\n  signing_secret_wo = \"0123456789abcdef\"\n  signing_secret_wo_version = 1", `signing_secret_wo is only used with signing_alg = "HS256"`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS256\"\n  signing_secret_wo_version = 1", `Attribute "signing_secret_wo" must be specified when "signing_secret_wo_version" is specified`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS256\"\n  signing_secret_wo = \"0123456789abcdef\"",
			`Attribute "signing_secret_wo_version" must be specified when "signing_secret_wo" is specified`},
		{`identifier = "https://v"` + "\n  signing_alg = \"HS256\"\n  signing_secret = \"0123456789abcdef\"\n  signing_secret_wo = \"0123456789abcdef\"\n  signing_secret_wo_version = 1",
			`Attribute "signing_secret" cannot be specified when "signing_secret_wo" is specified`},
		{`identifier = "https://v"` + "\n  scopes = { a = null }", `Null Map Value.*This attribute contains a null value`},
		{`identifier = "https://v"` + "\n  token_encryption = { format = \"compact-nested-jwe\", encryption_key = { alg = \"RSA-OAEP-256\", pem = \"not pem\" } }",
			`Attribute token_encryption.encryption_key.pem holds no PEM block`},
		{`identifier = "https://v"` + "\n  scopes = {}", `Attribute scopes map must contain at least 1 elements and at most 1000 elements, got: 0`},
		{`identifier = "https://v"` + "\n  scopes = { \"\" = \"\" }", `Attribute scopes\[""\] UTF-8 character count must be between 1 and 280, got: 0`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_resource_server\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccResourceServer_conflict: an API that exists before the apply is
// never taken over, even when it equals the configuration; the error names
// it and the import command, and importing it then works.
func TestAccResourceServer_conflict(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	name := "pre-existing"
	existing, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Client().DeleteResourceServer(context.Background(), existing.ID) })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				// Refused at plan: the tenant holds an API with that identifier.
				Config: target.Config(testAccServerConfig_named(ident, name)),
				ExpectError: acctest.ExpectError(`Unable to use resource server identifier.*An API with identifier "` + regexp.QuoteMeta(ident) + `" already exists in the tenant \(id ` +
					existing.ID + `\).*terraform import tenant_resource_server.<name> ` + existing.ID),
			},
			{
				Config:             target.Config(testAccServerConfig_named(ident, name)),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      existing.ID,
				ImportStatePersist: true,
			},
			{
				Config: target.Config(testAccServerConfig_named(ident, name)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(existing.ID)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccResourceServer_countSameIdentifier: two instances with one
// identifier. One creates the API; the other must fail instead of adopting
// it, so no two instances own one API and scaling down deletes nothing
// another instance holds.
func TestAccResourceServer_countSameIdentifier(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	countConfig := func(n int) string {
		return target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  count      = %[2]d
  identifier = %[1]q
}
`, ident, n))
	}
	apis := func() int {
		n := 0
		for _, s := range listServers(t, target) {
			if s.Identifier == ident {
				n++
			}
		}
		return n
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config:      countConfig(2),
				ExpectError: acctest.ExpectError(`already exists in the tenant \(id [0-9a-f]{24}\).*terraform import`),
			},
			{
				PreConfig: func() {
					if n := apis(); n != 1 {
						t.Fatalf("%d APIs with the identifier after the failed apply, want 1", n)
					}
				},
				Config: countConfig(0),
			},
			{
				PreConfig: func() {
					if n := apis(); n != 0 {
						t.Fatalf("scaling to 0 left %d APIs behind", n)
					}
				},
				Config:   countConfig(0),
				PlanOnly: true,
			},
		},
	})
}

// TestAccResourceServer_tokenLifetimeAlone: setting only token_lifetime
// below the default web lifetime must not fail on the stale 7200, and the
// plan shows the web lifetime it will have.
func TestAccResourceServer_tokenLifetimeAlone(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccServerConfig_named(ident, "Lifetimes")),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				Config: target.Config(testAccServerConfig_lifetime(ident, 3600)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(3600)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(3600)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(3600)),
				},
			},
			{
				Config: target.Config(testAccServerConfig_lifetime(ident, 100000)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(7200)),
				}},
			},
			{
				Config: target.Config(testAccServerConfig_named(ident, "Lifetimes")),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime"), knownvalue.Int64Exact(86400)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_lifetime_for_web"), knownvalue.Int64Exact(7200)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccResourceServer_removeArguments: deleting arguments from the
// configuration returns the API, as the tenant holds it, to its defaults.
func TestAccResourceServer_removeArguments(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccServerConfig_nonDefault(ident)),
				Check: func(s *terraform.State) error {
					id = s.RootModule().Resources[addr].Primary.ID
					return nil
				},
			},
			{
				Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
}
`, ident)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Not default")),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					got, err := target.Client().GetResourceServer(context.Background(), id)
					if err != nil {
						return err
					}
					// name and token_dialect are never sent as null: removing
					// them leaves the API as it is; removing enforce_policies
					// = true sends false.
					switch {
					case got.Name == nil || *got.Name != "Not default":
						return fmt.Errorf("name = %v, want it kept", got.Name)
					case got.SigningAlg == nil || *got.SigningAlg != "RS256":
						return fmt.Errorf("signing_alg = %v, want RS256", got.SigningAlg)
					case got.AllowOfflineAccess == nil || *got.AllowOfflineAccess:
						return fmt.Errorf("allow_offline_access = %v, want false", got.AllowOfflineAccess)
					case got.SkipConsentForVerifiableFirstPartyClients == nil || *got.SkipConsentForVerifiableFirstPartyClients:
						return fmt.Errorf("skip_consent = %v, want false", got.SkipConsentForVerifiableFirstPartyClients)
					case got.EnforcePolicies == nil || *got.EnforcePolicies:
						return fmt.Errorf("enforce_policies = %v, want false", got.EnforcePolicies)
					case got.TokenDialect == nil || *got.TokenDialect != "access_token_authz":
						return fmt.Errorf("token_dialect = %v, want it kept", got.TokenDialect)
					case *got.TokenLifetime != 86400 || *got.TokenLifetimeForWeb != 7200:
						return fmt.Errorf("lifetimes %d/%d, want 86400/7200", *got.TokenLifetime, *got.TokenLifetimeForWeb)
					case got.Scopes != nil && len(*got.Scopes) > 0:
						return fmt.Errorf("scopes left: %v", *got.Scopes)
					}
					return nil
				},
			},
		},
	})
}

// TestAccResourceServer_enforcePoliciesRemoved: removing
// enforce_policies = true turns enforcement off, as on an API that never
// set it, by sending false (the API has no documented way to clear it,
// reference §4), whether a new API shows the field omitted or filled in
// (the reference does not say every tenant omits it). token_dialect,
// whose default the reference does not give, keeps its value.
func TestAccResourceServer_enforcePoliciesRemoved(t *testing.T) {
	for _, answer := range []string{"omit", "fill"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{UnsetFields: answer}})
			ident := "https://api.example.com/" + acctest.RandomName()
			bare := target.Config(fmt.Sprintf("\nresource \"tenant_resource_server\" \"test\" {\n  identifier = %q\n}\n", ident))
			enforced := target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier       = %[1]q
  enforce_policies = true
  token_dialect    = "access_token_authz"
}
`, ident))
			tenant := func(enforce *bool, dialect string) resource.TestCheckFunc {
				return func(*terraform.State) error {
					got, err := target.Client().GetResourceServer(context.Background(), ident)
					if err != nil {
						return err
					}
					if fmt.Sprint(got.EnforcePolicies != nil, got.EnforcePolicies != nil && *got.EnforcePolicies) != fmt.Sprint(enforce != nil, enforce != nil && *enforce) ||
						(dialect != "") != (got.TokenDialect != nil) || dialect != "" && *got.TokenDialect != dialect {
						return fmt.Errorf("the tenant holds enforce_policies %v, token_dialect %v; want %v, %q", got.EnforcePolicies, got.TokenDialect, enforce, dialect)
					}
					return nil
				}
			}
			off, on := false, true
			created := map[string]*bool{"omit": nil, "fill": &off}[answer]
			createdDialect := map[string]string{"omit": "", "fill": "access_token"}[answer]
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
				Steps: []resource.TestStep{
					{
						Config:           bare,
						Check:            tenant(created, createdDialect),
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
					{Config: enforced, Check: tenant(&on, "access_token_authz")},
					{
						Config: bare,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Bool(false)),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("token_dialect"), knownvalue.StringExact("access_token_authz")),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: tenant(&off, "access_token_authz"),
					},
					{
						// Turned on outside Terraform, without the argument:
						// drift back to what the configuration means.
						PreConfig: func() {
							if _, err := target.Client().UpdateResourceServer(context.Background(), serverID(t, target, ident),
								mgmt.ResourceServerUpdate{EnforcePolicies: mgmt.Set(true)}); err != nil {
								t.Fatal(err)
							}
						},
						Config: bare,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectKnownValue(addr, tfjsonpath.New("enforce_policies"), knownvalue.Bool(false)),
						}},
						Check: tenant(&off, "access_token_authz"),
					},
					{Config: enforced, Check: tenant(&on, "access_token_authz")},
				},
			})
		})
	}
}

// TestAccResourceServer_multiByteNames: lengths count characters, as the API does.
func TestAccResourceServer_multiByteNames(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName() + "/" + strings.Repeat("é", 10)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{{
			Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
  name       = %[2]q
  scopes     = { %[3]q = %[4]q }
}
`, ident, strings.Repeat("é", 200), strings.Repeat("ü", 280), strings.Repeat("日", 500))),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(strings.Repeat("é", 200))),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func listServers(t *testing.T, target *acctest.Target) []mgmt.ResourceServer {
	t.Helper()
	all, err := target.Client().AllResourceServers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestAccResourceServer_signingSecretWriteOnlyAdopted: an HS256 API taken
// over by an import block with signing_secret_wo in the configuration ends
// with the configuration's secret in the tenant and no secret, neither the
// old one nor the new, in the state.
func TestAccResourceServer_signingSecretWriteOnlyAdopted(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	const old, secret = "secret-set-outside-0123456789", "write-only-secret-0123456789"
	alg := "HS256"
	outside, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, SigningAlg: &alg, SigningSecret: &[]string{old}[0]})
	if err != nil {
		t.Fatal(err)
	}
	config := target.Config(fmt.Sprintf(`
import {
  to = tenant_resource_server.test
  id = %[1]q
}

resource "tenant_resource_server" "test" {
  identifier                = %[2]q
  signing_alg               = "HS256"
  signing_secret_wo         = %[3]q
  signing_secret_wo_version = 1
}
`, outside.ID, ident, secret))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				rs, err := target.Client().GetResourceServer(context.Background(), ident)
				if err != nil {
					return err
				}
				if rs.SigningSecret == nil || *rs.SigningSecret != secret {
					return fmt.Errorf("the tenant's signing secret is %v, want the configuration's", rs.SigningSecret)
				}
				return nil
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
				nowhere{old},
				nowhere{secret},
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccResourceServerDataSource_signingSecret: looking an HS256 API up
// does not copy its signing secret into the state unless the configuration
// asks for it (include_signing_secret), even when the API's own resource
// keeps it write-only.
func TestAccResourceServerDataSource_signingSecret(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	const secret = "write-only-secret-0123456789"
	api := fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier                = %[1]q
  signing_alg               = "HS256"
  signing_secret_wo         = %[2]q
  signing_secret_wo_version = 1
}
`, ident, secret)
	lookup := func(include string) string {
		return api + fmt.Sprintf("\ndata \"tenant_resource_server\" \"x\" {\n  identifier = tenant_resource_server.test.identifier\n%s}\n", include)
	}
	const ds = "data.tenant_resource_server.x"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: target.Config(lookup("")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("signing_alg"), knownvalue.StringExact("HS256")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("signing_secret"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
					nowhere{secret},
				},
			},
			{
				Config: target.Config(lookup("  include_signing_secret = true\n")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("signing_secret"), knownvalue.StringExact(secret)),
				},
			},
		},
	})
}

// nowhere checks that a value is nowhere in the state.
type nowhere struct{ value string }

func (c nowhere) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	b, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if strings.Contains(string(b), c.value) {
		resp.Error = fmt.Errorf("the state holds %q", c.value)
	}
}

func TestAccResourceServerDataSource_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	config := testAccServerConfig_allFields(ident, "deny_all", "dpop", "all_clients", "payment", publicKeyPEM(t), "pol_1") + `
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
			"skip_consent_for_verifiable_first_party_clients", "enforce_policies", "token_dialect", "is_system", "allow_online_access",
			"allow_online_access_with_ephemeral_sessions", "subject_type_authorization", "consent_policy", "authorization_details",
			"proof_of_possession", "authorization_policy"} {
			checks = append(checks, statecheck.CompareValuePairs(addr, tfjsonpath.New(a), ds, tfjsonpath.New(a), compare.ValuesSame()))
		}
		thumb := tfjsonpath.New("token_encryption").AtMapKey("encryption_key").AtMapKey("thumbprint_sha256")
		checks = append(checks, statecheck.CompareValuePairs(addr, thumb, ds, thumb, compare.ValuesSame()))
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
  scopes                 = { %[5]s }
}
`, ident, name, alg, lifetime, scopes)
}

func testAccServerConfig_scopes(ident string, scopes map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(scopes)) {
		fmt.Fprintf(&b, "    %q = %q\n", k, scopes[k])
	}
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
  scopes = {
%[2]s  }
}
`, ident, b.String())
}

func testAccServerConfig_named(ident, name string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
  name       = %[2]q
}
`, ident, name)
}

func testAccServerConfig_lifetime(ident string, lifetime int) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier     = %[1]q
  name           = "Lifetimes"
  token_lifetime = %[2]d
}
`, ident, lifetime)
}

func testAccServerConfig_nonDefault(ident string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier                                      = %[1]q
  name                                            = "Not default"
  signing_alg                                     = "HS256"
  allow_offline_access                            = true
  skip_consent_for_verifiable_first_party_clients = true
  enforce_policies                                = true
  token_dialect                                   = "access_token_authz"
  token_lifetime                                  = 3600
  token_lifetime_for_web                          = 600
  scopes                                          = { "read:x" = "" }
}
`, ident)
}

func TestAccResourceServer_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: acctest.IdentitySteps(target.Config(testAccServerConfig_named(ident, "Identity")), addr, map[string]knownvalue.Check{
			"id": knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{24}$`)),
		}),
	})
}

// TestAccResourceServer_dialectWarning: an _authz dialect warns only when
// enforce_policies is set to false; left out, it keeps the tenant's value,
// which may well be true.
func TestAccResourceServer_dialectWarning(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	const warning = "Token dialect without enforced policies"
	for _, tc := range []struct {
		enforce string
		warns   bool
	}{{"", false}, {"enforce_policies = true", false}, {"enforce_policies = false", true}} {
		cli := acctest.NewCLI(t, map[string]string{"main.tf": fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier    = "https://api.example.com/dialect"
  token_dialect = "access_token_authz"
  %s
}
`, tc.enforce)})
		out, err := cli.Run("validate", "-no-color")
		if err != nil {
			t.Fatalf("validate with %q: %v\n%s", tc.enforce, err, out)
		}
		if strings.Contains(out, warning) != tc.warns {
			t.Errorf("with %q set, warning shown = %t, want %t:\n%s", tc.enforce, !tc.warns, tc.warns, out)
		}
	}
}

// TestAccResourceServer_signingSecretWriteOnly: a write-only signing secret
// reaches the tenant on create and when its version changes, and is never
// in the plan or the state (signing_secret stays null); a new value with the
// same version sends nothing.
func TestAccResourceServer_signingSecretWriteOnly(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	config := func(secret string, version int) string {
		return target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier                = %[1]q
  signing_alg               = "HS256"
  signing_secret_wo         = %[2]q
  signing_secret_wo_version = %[3]d
}
`, ident, secret, version))
	}
	tenantSecret := func(want string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			rs, err := target.Client().GetResourceServer(context.Background(), ident)
			if err != nil {
				return err
			}
			if rs.SigningSecret == nil || *rs.SigningSecret != want {
				return fmt.Errorf("the tenant's signing secret is %v, want %q", rs.SigningSecret, want)
			}
			if got := s.RootModule().Resources[addr].Primary.Attributes["signing_secret"]; got != "" {
				return fmt.Errorf("the state holds signing_secret %q", got)
			}
			return nil
		}
	}
	nullSecret := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret_wo"), knownvalue.Null()),
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{Config: config("first-secret-0123456789", 1), Check: tenantSecret("first-secret-0123456789"), ConfigStateChecks: nullSecret},
			{
				// Another value, the same version: nothing to send.
				Config:           config("second-secret-0123456789", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            tenantSecret("first-secret-0123456789"),
			},
			{
				// The version changes: the secret is rotated.
				Config:            config("second-secret-0123456789", 2),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:             tenantSecret("second-secret-0123456789"),
				ConfigStateChecks: nullSecret,
			},
			{
				// Removing both keeps the tenant's secret, now read into signing_secret.
				Config: target.Config(fmt.Sprintf("resource \"tenant_resource_server\" \"test\" {\n  identifier  = %q\n  signing_alg = \"HS256\"\n}\n", ident)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_secret"), knownvalue.StringExact("second-secret-0123456789")),
				},
			},
		},
	})
}

func testAccServerConfig_identifier(ident string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier = %[1]q
}
`, ident)
}

// testAccServerConfig_identifierAtApply makes the identifier unknown until
// apply: terraform_data's output is known only once it is created.
func testAccServerConfig_identifierAtApply(ident string) string {
	return fmt.Sprintf(`
resource "terraform_data" "identifier" {
  input = %[1]q
}

resource "tenant_resource_server" "test" {
  identifier = terraform_data.identifier.output
}
`, ident)
}

func testAccServerDataSourceConfig_identifier(ident string) string {
	return fmt.Sprintf(`
data "tenant_resource_server" "express" {
  identifier = %[1]q
}
`, ident)
}
