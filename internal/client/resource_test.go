package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strconv"
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

const addr = "tenant_client.test"

func getClient(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetClient(ctx, id)
	return err
}

// clientIDPattern is a client id as the tenant makes them [O].
var clientIDPattern = regexp.MustCompile(`^[A-Za-z0-9]{32}$`)

// TestAccClient_basic: a client with a name only holds the tenant's
// defaults, no secret in the state, and plans empty.
func TestAccClient_basic(t *testing.T) {
	// CLI work: a client with a name only, created and planned empty, and
	// the import of a client (one with every argument, in allFields).
	acctest.CLIWorkDoneBy(t, "TestAccClientSecret_ephemeral", "TestAccClientGrant_subjectTypes", "TestAccClient_allFields")
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	sameID := statecheck.CompareValuePairs(addr, tfjsonpath.New("id"), addr, tfjsonpath.New("client_id"), compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccClientConfig_name(name)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID,
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(clientIDPattern)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("app_type"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_first_party"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_conformant"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("grant_types"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("authorization_code"), knownvalue.StringExact("implicit"),
						knownvalue.StringExact("refresh_token"), knownvalue.StringExact("client_credentials"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("jwt_configuration"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"alg": knownvalue.Null(), "lifetime_in_seconds": knownvalue.Int64Exact(36000),
						"secret_encoded": knownvalue.Bool(false), "scopes": knownvalue.Null(),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("refresh_token").AtMapKey("infinite_token_lifetime"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret_in_state"), knownvalue.Bool(false)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
		},
	})
}

// TestAccClient_tokenExchange: the setting the custom token exchange
// needs, set, changed and removed in place.
func TestAccClient_tokenExchange(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	types := func(values ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, len(values))
		for i, v := range values {
			checks[i] = knownvalue.StringExact(v)
		}
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"allow_any_profile_of_type": knownvalue.ListExact(checks)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccClientConfig_exchange(name, `["custom_authentication"]`)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), types("custom_authentication")),
				},
				Check: checkClient(target, func(c *mgmt.AppClient) error {
					if c.TokenExchange == nil || strings.Join(c.TokenExchange.AllowAnyProfileOfType, ",") != "custom_authentication" || !*c.OIDCConformant {
						return fmt.Errorf("the tenant's client: %+v", c)
					}
					return nil
				}),
			},
			{
				Config: target.Config(testAccClientConfig_exchange(name, `["custom_authentication", "on_behalf_of_token_exchange"]`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), types("custom_authentication", "on_behalf_of_token_exchange")),
				},
			},
			{
				Config: target.Config(testAccClientConfig_exchange(name, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), knownvalue.Null()),
				},
				Check: checkClient(target, func(c *mgmt.AppClient) error {
					if c.TokenExchange != nil && len(c.TokenExchange.AllowAnyProfileOfType) > 0 {
						return fmt.Errorf("the tenant's client still allows %v", c.TokenExchange.AllowAnyProfileOfType)
					}
					return nil
				}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccClient_allFields sets every argument, changes each, imports,
// and removes them all, checking the tenant at each step: under both
// readings of a nested object's PATCH (replaced or merged).
func TestAccClient_allFields(t *testing.T) {
	for _, mode := range []string{"replace", "merge"} {
		t.Run(mode, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{ClientPatch: mode}})
			name := acctest.RandomName()
			sameID := statecheck.CompareValue(compare.ValuesSame())
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(client.TypeName, getClient),
				Steps: []resource.TestStep{
					{
						Config:            target.Config(testAccClientConfig_all(name, "first")),
						ConfigStateChecks: append(allFieldChecks("first"), sameID.AddStateValue(addr, tfjsonpath.New("id"))),
						Check:             checkClient(target, tenantHolds("first")),
						ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
					{ResourceName: addr, ImportState: true, ImportStateVerify: true},
					{
						Config: target.Config(testAccClientConfig_all(name, "second")),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: append(allFieldChecks("second"), sameID.AddStateValue(addr, tfjsonpath.New("id"))),
						Check:             checkClient(target, tenantHolds("second")),
					},
					{
						// Every optional argument removed: defaults back, lists
						// and nullable objects cleared, the tenant's own values kept.
						Config: target.Config(testAccClientConfig_name(name)),
						ConfigStateChecks: []statecheck.StateCheck{
							sameID.AddStateValue(addr, tfjsonpath.New("id")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_first_party"), knownvalue.Bool(true)),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("sso_disabled"), knownvalue.Bool(false)),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("custom_login_page_on"), knownvalue.Bool(true)),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("callbacks"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_metadata"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_quota"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("session_transfer"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_organization"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("compliance_level"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("organization_discovery_methods"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("async_approval_notification_channels"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("skip_non_verifiable_callback_uri_confirmation_prompt"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("refresh_token").AtMapKey("rotation_type"), knownvalue.StringExact("non-rotating")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("refresh_token").AtMapKey("infinite_token_lifetime"), knownvalue.Bool(true)),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("refresh_token").AtMapKey("policies"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("native_social_login").AtMapKey("apple"),
								knownvalue.ObjectExact(map[string]knownvalue.Check{"enabled": knownvalue.Bool(false)})),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_conformant"), knownvalue.Bool(false)),
							// Kept: the reference gives no way to clear them.
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("app_type"), knownvalue.StringExact("regular_web")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("logo_uri"), knownvalue.StringExact("https://second.example.com/logo.png")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("jwt_configuration").AtMapKey("alg"), knownvalue.StringExact("HS256")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_logout").AtMapKey("backchannel_logout_urls"),
								knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://second.example.com/logout")})),
						},
						Check: checkClient(target, func(c *mgmt.AppClient) error {
							switch {
							case c.Callbacks != nil && len(*c.Callbacks) > 0, c.ClientMetadata != nil && len(*c.ClientMetadata) > 0,
								c.TokenExchange != nil, c.TokenQuota != nil, c.SessionTransfer != nil, c.DefaultOrganization != nil,
								c.RefreshToken.Policies != nil && len(*c.RefreshToken.Policies) > 0, *c.RefreshToken.RotationType != "non-rotating":
								return fmt.Errorf("the tenant's client after the removals: %+v", c)
							}
							return nil
						}),
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
				},
			})
		})
	}
}

// testAccClientConfig_all sets every argument; v ("first", "second")
// picks one of two sets of values.
func testAccClientConfig_all(name, v string) string {
	second := v == "second"
	pick := func(a, b string) string {
		if second {
			return b
		}
		return a
	}
	return fmt.Sprintf(`
resource "tenant_client" "test" {
  name                                = %[1]q
  description                         = "%[2]s client"
  app_type                            = "regular_web"
  logo_uri                            = "https://%[2]s.example.com/logo.png"
  is_first_party                      = %[3]s
  is_token_endpoint_ip_header_trusted = %[4]s
  oidc_conformant                     = true
  callbacks                           = ["https://%[2]s.example.com/callback"]
  allowed_origins                     = ["https://%[2]s.example.com"]
  web_origins                         = ["https://%[2]s.example.com"]
  client_aliases                      = ["%[2]s-realm"]
  allowed_clients                     = ["%[2]sallowedclient0123456789abcdef"]
  allowed_logout_urls                 = ["https://%[2]s.example.com/bye"]
  grant_types                         = %[5]s
  jwt_configuration = {
    alg                 = %[6]q
    lifetime_in_seconds = %[7]s
    secret_encoded      = false
    scopes              = { openid = "%[2]s" }
  }
  sso                         = %[4]s
  sso_disabled                = %[4]s
  cross_origin_authentication = %[4]s
  cross_origin_loc            = "https://%[2]s.example.com/cross"
  custom_login_page_on        = %[3]s
  custom_login_page           = "<html>%[2]s</html>"
  custom_login_page_preview   = "<html>%[2]s preview</html>"
  form_template               = "<form>%[2]s</form>"
  token_endpoint_auth_method  = %[8]q
  client_metadata             = { team = %[2]q, tier = "gold" }
  initiate_login_uri          = "https://%[2]s.example.com/login"
  native_social_login = {
    apple  = { enabled = %[3]s }
    google = { enabled = %[4]s }
  }
  refresh_token = {
    rotation_type   = "rotating"
    expiration_type = "expiring"
    leeway          = %[7]s
    token_lifetime  = 86400
    policies        = [{ audience = "https://%[2]s.example.com/api", scope = ["read:%[2]s"] }]
  }
  organization_usage                    = "allow"
  organization_require_behavior         = "pre_login_prompt"
  organization_discovery_methods        = %[9]s
  require_pushed_authorization_requests = %[4]s
  require_proof_of_possession           = %[4]s
  oidc_logout = {
    backchannel_logout_urls             = ["https://%[2]s.example.com/logout"]
    backchannel_logout_initiators       = { mode = "custom", selected_initiators = ["rp-logout"] }
    backchannel_logout_session_metadata = { include = %[3]s }
  }
  compliance_level                     = "%[2]s-level"
  default_organization                 = { organization_id = "org_%[2]s", flows = ["client_credentials"] }
  token_exchange                       = { allow_any_profile_of_type = ["custom_authentication"] }
  token_quota                          = { client_credentials = { enforce = %[3]s, per_day = %[7]s, per_hour = 10 } }
  session_transfer                     = {
    can_create_session_transfer_token = %[3]s
    allowed_authentication_methods    = %[10]s
    enforce_device_binding            = %[11]q
    allow_refresh_token               = %[4]s
    enforce_online_refresh_tokens     = %[3]s
    enforce_cascade_revocation        = %[4]s
  }
  skip_non_verifiable_callback_uri_confirmation_prompt = %[3]s
  async_approval_notification_channels                 = %[12]s
  redirection_policy                                   = %[13]q
  fedcm_login                                          = { google = { is_enabled = %[4]s } }
  identity_assertion_authorization_grant               = { active = %[3]s }
}
`, name, v, pick("true", "false"), pick("false", "true"), pick(`["authorization_code", "client_credentials"]`, `["client_credentials"]`),
		pick("RS256", "HS256"), pick("3600", "7200"), pick("client_secret_post", "client_secret_basic"), pick(`["email"]`, `["email", "organization_name"]`),
		pick(`["cookie"]`, `["cookie", "query"]`), pick("ip", "asn"), pick(`["guardian-push"]`, `["email"]`), pick("allow_always", "open_redirect_protection"))
}

func allFieldChecks(v string) []statecheck.StateCheck {
	second := v == "second"
	b := func(first bool) knownvalue.Check { return knownvalue.Bool(first != second) }
	str := knownvalue.StringExact
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), str(v+" client")),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_first_party"), b(true)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("sso"), b(false)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("jwt_configuration"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"alg": str(map[bool]string{false: "RS256", true: "HS256"}[second]), "lifetime_in_seconds": knownvalue.Int64Exact(map[bool]int64{false: 3600, true: 7200}[second]),
			"secret_encoded": knownvalue.Bool(false), "scopes": knownvalue.MapExact(map[string]knownvalue.Check{"openid": str(v)}),
		})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_metadata"), knownvalue.MapExact(map[string]knownvalue.Check{"team": str(v), "tier": str("gold")})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("native_social_login"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"apple":    knownvalue.ObjectExact(map[string]knownvalue.Check{"enabled": b(true)}),
			"facebook": knownvalue.ObjectExact(map[string]knownvalue.Check{"enabled": knownvalue.Bool(false)}),
			"google":   knownvalue.ObjectExact(map[string]knownvalue.Check{"enabled": b(false)}),
		})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("refresh_token"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"rotation_type": str("rotating"), "expiration_type": str("expiring"), "leeway": knownvalue.Int64Exact(map[bool]int64{false: 3600, true: 7200}[second]),
			"token_lifetime": knownvalue.Int64Exact(86400), "idle_token_lifetime": knownvalue.Int64Exact(1296000),
			"infinite_token_lifetime": knownvalue.Bool(false), "infinite_idle_token_lifetime": knownvalue.Bool(false),
			"policies": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"audience": str("https://" + v + ".example.com/api"), "scope": knownvalue.ListExact([]knownvalue.Check{str("read:" + v)}),
			})}),
		})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_exchange"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"allow_any_profile_of_type": knownvalue.ListExact([]knownvalue.Check{str("custom_authentication")}),
		})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("session_transfer").AtMapKey("enforce_device_binding"), str(map[bool]string{false: "ip", true: "asn"}[second])),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_logout").AtMapKey("backchannel_logout_session_metadata"),
			knownvalue.ObjectExact(map[string]knownvalue.Check{"include": b(true)})),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_organization").AtMapKey("organization_id"), str("org_"+v)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("client_secret"), knownvalue.Null()),
	}
}

// tenantHolds checks the tenant's client against testAccClientConfig_all.
func tenantHolds(v string) func(*mgmt.AppClient) error {
	return func(c *mgmt.AppClient) error {
		switch {
		case *c.Description != v+" client", *c.LogoURI != "https://"+v+".example.com/logo.png", (*c.Callbacks)[0] != "https://"+v+".example.com/callback",
			(*c.ClientMetadata)["team"] != v, *c.ComplianceLevel != v+"-level", c.DefaultOrganization.OrganizationID != "org_"+v,
			c.TokenExchange.AllowAnyProfileOfType[0] != "custom_authentication", (*c.RefreshToken.Policies)[0].Audience != "https://"+v+".example.com/api",
			*c.RefreshToken.RotationType != "rotating", c.OIDCLogout.BackchannelLogoutURLs[0] != "https://"+v+".example.com/logout":
			return fmt.Errorf("the tenant's client does not hold the %s values: %+v", v, c)
		}
		return nil
	}
}

// TestAccClient_drift: a client changed outside Terraform plans back to
// the configuration; one deleted outside Terraform is created again.
func TestAccClient_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccClientConfig_exchange(name, `["custom_authentication"]`)),
				Check: func(s *terraform.State) error {
					id = s.RootModule().Resources[addr].Primary.ID
					_, err := target.Client().UpdateClient(context.Background(), id, mgmt.AppClientUpdate{
						Description:   mgmt.Set("changed outside"),
						TokenExchange: mgmt.Null[mgmt.TokenExchange](),
						Callbacks:     mgmt.Set([]string{"https://outside.example.com"}),
					})
					return err
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: target.Config(testAccClientConfig_exchange(name, `["custom_authentication"]`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("callbacks"), knownvalue.Null()),
				}},
				Check: checkClient(target, func(c *mgmt.AppClient) error {
					if c.TokenExchange == nil || *c.Description != "" || c.Callbacks != nil && len(*c.Callbacks) > 0 {
						return fmt.Errorf("the drift was not repaired: %+v", c)
					}
					return target.Client().DeleteClient(context.Background(), c.ClientID)
				}),
				ExpectNonEmptyPlan: true,
			},
			{
				// Deleted outside Terraform: planned anew.
				Config: target.Config(testAccClientConfig_exchange(name, `["custom_authentication"]`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccClient_unfitTokenExchange: token_exchange on a client that is not
// OIDC-conformant warns at plan; a tenant that refuses it fails the apply
// with its message, a tenant that takes it applies.
func TestAccClient_unfitTokenExchange(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	const config = `
resource "tenant_client" "test" {
  name           = %q
  token_exchange = { allow_any_profile_of_type = ["custom_authentication"] }
}
`
	for _, answer := range []string{"accept", "refuse"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{UnfitTokenExchange: answer}})
			step := resource.TestStep{Config: target.Config(fmt.Sprintf(config, acctest.RandomName()))}
			if answer == "refuse" {
				step.ExpectError = acctest.ExpectError(`requires a first-party, OIDC-conformant client`)
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(client.TypeName, getClient),
				Steps:                    []resource.TestStep{step},
			})
		})
	}
	out := planOutput(t, fmt.Sprintf(config, "unfit"))
	if !strings.Contains(out, "Custom token exchange on an unfit client") || !strings.Contains(out, "oidc_conformant = false") {
		t.Fatalf("no warning:\n%s", out)
	}
}

// planOutput plans config against a fresh emulator with the CLI and
// returns what it prints.
func planOutput(t *testing.T, config string) string {
	t.Helper()
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + config})
	out, err := cli.Run("plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	return out
}

// TestAccClient_validation: every bound and enum is refused at plan,
// naming the attribute, bound and value, before any request.
func TestAccClient_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`name = ""`, `Attribute name UTF-8 character count must be at least 1, got: 0`},
		{`description = "` + strings.Repeat("é", 141) + `"`, `Attribute description UTF-8 character count must be at most 140, got: 141`},
		{`app_type = "desktop"`, `Attribute app_type value must be one of:.*got: "desktop"`},
		{`token_endpoint_auth_method = "private_key_jwt"`, `Attribute token_endpoint_auth_method value must be one of:.*got: "private_key_jwt"`},
		{`organization_usage = "maybe"`, `Attribute organization_usage value must be one of:.*got: "maybe"`},
		{`organization_require_behavior = "ask"`, `Attribute organization_require_behavior value must be one of:.*got: "ask"`},
		{`organization_discovery_methods = ["phone"]`, `Attribute organization_discovery_methods\[0\] value must be one of:.*got: "phone"`},
		{`organization_require_behavior = "post_login_prompt"` + "\n  organization_discovery_methods = [\"email\"]",
			`organization_discovery_methods is used only with organization_require_behavior = "pre_login_prompt", got "post_login_prompt"`},
		{`async_approval_notification_channels = ["sms"]`, `Attribute async_approval_notification_channels\[0\] value must be one of:.*got: "sms"`},
		{`third_party_security_mode = "lax"`, `Attribute third_party_security_mode value must be one of:.*got: "lax"`},
		{`redirection_policy = "never"`, `Attribute redirection_policy value must be one of:.*got: "never"`},
		{`callbacks = []`, `Attribute callbacks list must contain at least 1 elements, got: 0`},
		{`callbacks = ["https://a", "https://a"]`, `Duplicate List Value.*callbacks.*duplicate values of: "https://a"`},
		{`grant_types = ["client_credentials", "client_credentials"]`, `Duplicate List Value.*grant_types.*duplicate values of: "client_credentials"`},
		{`client_metadata = { for i in range(11) : "k${i}" => "v" }`, `Attribute client_metadata map must contain at least 1 elements and at most 10 elements, got: 11`},
		{`client_metadata = { "` + strings.Repeat("k", 256) + `" = "v" }`, `Attribute client_metadata\["k+"\] string length must be between 1 and 255, got: 256`},
		{`client_metadata = { "a.b" = "v" }`, `Attribute client_metadata\["a.b"\] must use letters, digits`},
		{`client_metadata = { a = "` + strings.Repeat("v", 256) + `" }`, `Attribute client_metadata\["a"\] string length must be at most 255, got: 256`},
		{`initiate_login_uri = "http://app.example.com/login"`, `Attribute initiate_login_uri must be an https:// URL without a fragment`},
		{`initiate_login_uri = "https://app.example.com/login#x"`, `Attribute initiate_login_uri must be an https:// URL without a fragment`},
		{`jwt_configuration = { alg = "ES256" }`, `Attribute jwt_configuration.alg value must be one of:.*got: "ES256"`},
		{`jwt_configuration = { lifetime_in_seconds = -1 }`, `Attribute jwt_configuration.lifetime_in_seconds value must be at least 0, got: -1`},
		{`refresh_token = { rotation_type = "sometimes" }`, `Attribute refresh_token.rotation_type value must be one of:.*got: "sometimes"`},
		{`refresh_token = { expiration_type = "never" }`, `Attribute refresh_token.expiration_type value must be one of:.*got: "never"`},
		{`refresh_token = { leeway = -1 }`, `Attribute refresh_token.leeway value must be at least 0, got: -1`},
		{`refresh_token = { policies = [{ audience = "", scope = [] }] }`, `Attribute refresh_token.policies\[0\].audience UTF-8 character count must be between 1 and 600, got: 0`},
		{`token_exchange = { allow_any_profile_of_type = [] }`, `Attribute token_exchange.allow_any_profile_of_type list must contain at least 1 elements, got: 0`},
		{`token_exchange = { allow_any_profile_of_type = ["impersonation"] }`, `Attribute token_exchange.allow_any_profile_of_type\[0\] value must be one of:.*got: "impersonation"`},
		{`token_quota = { client_credentials = { enforce = true, per_day = -1, per_hour = 1 } }`, `Attribute token_quota.client_credentials.per_day value must be at least 0, got: -1`},
		{`session_transfer = { enforce_device_binding = "mac" }`, `Attribute session_transfer.enforce_device_binding value must be one of:.*got: "mac"`},
		{`session_transfer = { allowed_authentication_methods = ["header"] }`, `Attribute session_transfer.allowed_authentication_methods\[0\] value must be one of:.*got: "header"`},
		{`session_transfer = { delegation = { enforce_device_binding = "none" } }`, `Attribute session_transfer.delegation.enforce_device_binding value must be one of:.*got: "none"`},
		{`default_organization = { organization_id = "org_1", flows = ["authorization_code"] }`, `Attribute default_organization.flows\[0\] value must be one of:.*got: "authorization_code"`},
		{`oidc_logout = { backchannel_logout_urls = [] }`, `Attribute oidc_logout.backchannel_logout_urls list must contain at least 1 elements, got: 0`},
		{`oidc_logout = { backchannel_logout_urls = ["https://a"], backchannel_logout_initiators = { mode = "some" } }`,
			`Attribute oidc_logout.backchannel_logout_initiators.mode value must be one of:.*got: "some"`},
		{`resource_server_identifier = "` + strings.Repeat("i", 601) + `"`, `Attribute resource_server_identifier UTF-8 character count must be between 1 and 600, got: 601`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_client\" \"test\" {\n  name = \"v\"\n  " +
			strings.Replace(tc.body, `name = ""`, "", 1) + "\n}", Want: tc.want})
	}
	cases[0].Config = "resource \"tenant_client\" \"test\" {\n  name = \"\"\n}"
	target.ExpectPlanErrors(t, cases)
}

// checkClient reads the client of addr from the tenant and checks it.
func checkClient(target *acctest.Target, check func(*mgmt.AppClient) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		c, err := target.Client().GetClient(context.Background(), rs.Primary.ID)
		if err != nil {
			return err
		}
		return check(c)
	}
}

func testAccClientConfig_name(name string) string {
	return fmt.Sprintf(`
resource "tenant_client" "test" {
  name = %[1]q
}
`, name)
}

func testAccClientConfig_exchange(name, types string) string {
	exchange := ""
	if types != "" {
		exchange = fmt.Sprintf("token_exchange = { allow_any_profile_of_type = %s }", types)
	}
	return fmt.Sprintf(`
resource "tenant_client" "test" {
  name            = %[1]q
  app_type        = "regular_web"
  oidc_conformant = true
  %[2]s
}
`, name, exchange)
}

// TestAccClient_partialObjects: an object the client did not have, added
// with only some of its settings, takes the tenant's values for the
// others and plans empty.
func TestAccClient_partialObjects(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccClientConfig_name(name))},
			{
				Config: target.Config(fmt.Sprintf(`
resource "tenant_client" "test" {
  name             = %[1]q
  session_transfer = { can_create_session_transfer_token = true }
  oidc_logout      = { backchannel_logout_urls = ["https://app.example.com/logout"] }
}
`, name)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("session_transfer").AtMapKey("can_create_session_transfer_token"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("session_transfer").AtMapKey("allow_refresh_token"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("session_transfer").AtMapKey("enforce_device_binding"), knownvalue.StringExact("ip")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_logout").AtMapKey("backchannel_logout_initiators").AtMapKey("mode"),
						knownvalue.StringExact("custom")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_logout").AtMapKey("backchannel_logout_session_metadata"),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"include": knownvalue.Bool(false)})),
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
		},
	})
}

// TestAccClient_unsetNestedValue: a value the tenant leaves out of an
// object (jwt_configuration.lifetime_in_seconds when the create sends the
// object without it) stays out of the plans of later changes that do not
// send the object, also when an object the configuration leaves partly out
// (oidc_logout) is in the state; a change of the object plans it unknown.
func TestAccClient_unsetNestedValue(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	config := func(description, alg string) string {
		return target.Config(fmt.Sprintf(`
resource "tenant_client" "test" {
  name              = %[1]q
  description       = %[2]q
  jwt_configuration = { alg = %[3]q }
  oidc_logout       = { backchannel_logout_urls = ["https://app.example.com/logout"] }
}
`, name, description, alg))
	}
	lifetime := tfjsonpath.New("jwt_configuration").AtMapKey("lifetime_in_seconds")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config:            config("first", "RS256"),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, lifetime, knownvalue.Null())},
			},
			{
				// jwt_configuration is not sent: the tenant's null is kept.
				Config: config("second", "RS256"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, lifetime, knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// jwt_configuration is sent: the tenant may fill the value.
				Config: config("second", "HS256"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, lifetime)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// withoutGrantTypes is a proxy of target whose answers to the client
// requests of the given methods leave out grant_types, as the reference
// allows for GET /clients, GET and PATCH /clients/{id} ("sometimes").
func withoutGrantTypes(t *testing.T, target *acctest.Target, methods ...string) string {
	t.Helper()
	upstream, err := url.Parse(target.Domain)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasPrefix(r.Request.URL.Path, "/api/v2/clients") || !slices.Contains(methods, r.Request.Method) ||
			r.StatusCode/100 != 2 || r.StatusCode == http.StatusNoContent {
			return nil
		}
		var body any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return err
		}
		// A client, a page {clients: [...]} or a list of clients.
		clients := []any{body}
		if page, ok := body.(map[string]any); ok && page["clients"] != nil {
			clients, _ = page["clients"].([]any)
		} else if list, ok := body.([]any); ok {
			clients = list
		}
		for _, c := range clients {
			if c, ok := c.(map[string]any); ok {
				delete(c, "grant_types")
			}
		}
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		r.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAccClient_grantTypesLeftOut: a tenant that answers a client without
// grant_types plans no change after the apply, also when a nested object
// the configuration leaves partly out makes the framework mark computed
// values unknown; when only GET leaves it out (the create's answer always
// shows it [O]; the "every answer" case leaves it out of the create's
// answer too, stricter), an update keeps what it planned. Setting,
// changing and removing grant_types converge through either.
func TestAccClient_grantTypesLeftOut(t *testing.T) {
	for name, methods := range map[string][]string{"every answer": {"GET", "POST", "PATCH"}, "GET only": {"GET"}} {
		t.Run(name, func(t *testing.T) {
			target := acctest.NewTarget(t)
			emu := target.RequireEmulator(t)
			domain := withoutGrantTypes(t, target, methods...)
			clientName := acctest.RandomName()
			config := func(description, grantTypes string) string {
				return fmt.Sprintf(`provider "tenant" {
  domain        = %q
  audience      = %q
  client_id     = %q
  client_secret = %q
}

resource "tenant_client" "test" {
  name        = %q
  description = %q
  oidc_logout = { backchannel_logout_urls = ["https://app.example.com/logout"] }
  %s
}
`, domain, emu.Audience(), target.ClientID, target.ClientSecret, clientName, description, grantTypes)
			}
			empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
			onTenant := func(want ...string) resource.TestCheckFunc {
				return checkClient(target, func(c *mgmt.AppClient) error {
					if c.GrantTypes == nil || !slices.Equal(*c.GrantTypes, want) {
						return fmt.Errorf("grant_types on the tenant: %v, want %v", c.GrantTypes, want)
					}
					return nil
				})
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(client.TypeName, getClient),
				Steps: []resource.TestStep{
					{Config: config("first", ""), ConfigPlanChecks: empty},
					{Config: config("second", ""), ConfigPlanChecks: empty},
					{Config: config("second", `grant_types = ["client_credentials"]`), ConfigPlanChecks: empty, Check: onTenant("client_credentials")},
					{
						Config:           config("second", `grant_types = ["client_credentials", "refresh_token"]`),
						ConfigPlanChecks: empty,
						Check:            onTenant("client_credentials", "refresh_token"),
					},
					{Config: config("third", `grant_types = ["client_credentials", "refresh_token"]`), ConfigPlanChecks: empty},
					// Removed: the tenant keeps its list.
					{Config: config("third", ""), ConfigPlanChecks: empty, Check: onTenant("client_credentials", "refresh_token")},
				},
			})
		})
	}
}

// TestAccClient_grantTypesImported: a client imported from a tenant whose
// GET answers leave grant_types out holds none in the state; an update that
// changes something plans the list known after apply and reads it from the
// PATCH answer, which shows it, and the next plan is empty.
func TestAccClient_grantTypesImported(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	domain := withoutGrantTypes(t, target, "GET")
	name := acctest.RandomName()
	c, err := target.Client().CreateClient(context.Background(), mgmt.AppClient{Name: &name, GrantTypes: &[]string{"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	config := func(description string) string {
		return fmt.Sprintf(`provider "tenant" {
  domain        = %q
  audience      = %q
  client_id     = %q
  client_secret = %q
}

resource "tenant_client" "test" {
  name        = %q
  description = %q
}
`, domain, emu.Audience(), target.ClientID, target.ClientSecret, name, description)
	}
	grantTypes := tfjsonpath.New("grant_types")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(client.TypeName, getClient),
		Steps: []resource.TestStep{
			{
				Config: config(""), ResourceName: addr, ImportState: true, ImportStateId: c.ClientID, ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if n := s[0].Attributes["grant_types.#"]; n != "" && n != "0" {
						return fmt.Errorf("the import read %s grant types through answers that leave them out", n)
					}
					return nil
				},
			},
			{
				Config: config("second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, grantTypes)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, grantTypes, knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("client_credentials")})),
				},
			},
		},
	})
}

// TestAccClient_scopesRemoved: jwt_configuration.scopes removed from the
// configuration, under both readings of a nested object's PATCH. A tenant
// that replaces the object clears them; one that merges it keeps them,
// since it takes no request that removes them (an empty object is merged,
// a null refused): the apply reads that back, and later plans keep them.
// Either way the next plans are empty.
func TestAccClient_scopesRemoved(t *testing.T) {
	for mode, kept := range map[string]bool{"replace": false, "merge": true} {
		t.Run(mode, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{ClientPatch: mode}})
			name := acctest.RandomName()
			scopes := tfjsonpath.New("jwt_configuration").AtMapKey("scopes")
			var after knownvalue.Check = knownvalue.Null()
			if kept {
				after = knownvalue.MapExact(map[string]knownvalue.Check{"openid": knownvalue.StringExact("sub")})
			}
			onTenant := checkClient(target, func(c *mgmt.AppClient) error {
				if has := c.JWTConfiguration != nil && c.JWTConfiguration.Scopes != nil && len(*c.JWTConfiguration.Scopes) > 0; has != kept {
					return fmt.Errorf("the tenant's scopes: %v, want kept %v", c.JWTConfiguration, kept)
				}
				return nil
			})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(client.TypeName, getClient),
				Steps: []resource.TestStep{
					{Config: target.Config(testAccClientConfig_jwt(name, "", `scopes = { openid = "sub" }`))},
					{
						Config: target.Config(testAccClientConfig_jwt(name, "", "")),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, scopes)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, scopes, after)},
						Check:             onTenant,
					},
					{
						Config: target.Config(testAccClientConfig_jwt(name, "second", "")),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, scopes, after)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: onTenant,
					},
				},
			})
		})
	}
}

func testAccClientConfig_jwt(name, description, scopes string) string {
	return fmt.Sprintf(`
resource "tenant_client" "test" {
  name        = %[1]q
  description = %[2]q
  jwt_configuration = {
    alg = "RS256"
    %[3]s
  }
}
`, name, description, scopes)
}

// TestAccClient_lostCreate: a create whose answer is lost (the tenant
// applies it and closes the connection) finds the client of that name and
// does not adopt it, since names are not unique: the error names it with
// its import command, and the tenant holds the one client, not two.
func TestAccClient_lostCreate(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	emu.SetFaults(emulator.Faults{DropRate: 1})
	var found []mgmt.AppClient
	t.Cleanup(func() {
		for _, c := range found {
			_ = target.Client().DeleteClient(context.Background(), c.ClientID)
		}
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: target.Config(testAccClientConfig_name(name)),
			ExpectError: regexp.MustCompile(`(?s)creating the client with name "` + name + `" was lost.*holds\s+the\s+client\s+\w{32}\s+of\s+that\s+name\.` +
				`\s+The\s+name\s+is\s+not\s+unique,\s+so\s+none\s+was\s+adopted.*terraform import tenant_client.<name> \w{32}`),
		}},
		CheckDestroy: func(*terraform.State) error {
			emu.SetFaults(emulator.Faults{})
			var err error
			if found, err = target.Client().FindClientsByName(context.Background(), name); err != nil {
				return err
			}
			if len(found) != 1 {
				return fmt.Errorf("the tenant holds %d clients named %q, want the one created", len(found), name)
			}
			return nil
		},
	})
}
