package tenantaction_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	"github.com/tenant-iac/terraform-provider-tenant/internal/tenantaction"
)

const addr = "tenant_action.test"

// The action's code, in versions the tests switch between. None holds "${",
// which HCL would read as a template.
const (
	codeV1 = `exports.onExecuteCustomTokenExchange = async (event, api) => { api.authentication.setUserById("user-v1"); };`
	codeV2 = `exports.onExecuteCustomTokenExchange = async (event, api) => { api.authentication.setUserById("user-v2"); };`
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func getAction(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetAction(ctx, id)
	return err
}

// tenantAction reads the action in the state through the API.
func tenantAction(target *acctest.Target, s *terraform.State) (*mgmt.Action, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return nil, fmt.Errorf("%s is not in the state", addr)
	}
	return target.Client().GetAction(context.Background(), rs.Primary.ID)
}

// checkTenant checks the action as the tenant holds it.
func checkTenant(target *acctest.Target, check func(a *mgmt.Action) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a, err := tenantAction(target, s)
		if err != nil {
			return err
		}
		return check(a)
	}
}

func deployedCode(code string) func(a *mgmt.Action) error {
	return func(a *mgmt.Action) error {
		if a.Code != code || !mgmt.IsDeployed(a) {
			return fmt.Errorf("the tenant holds code %q, status %q, all_changes_deployed %t, deployed version %+v; want %q deployed",
				a.Code, a.Status, a.AllChangesDeployed, a.DeployedVersion, code)
		}
		return nil
	}
}

func secretNames(a *mgmt.Action) string {
	names := make([]string, 0, len(a.Secrets))
	for _, s := range a.Secrets {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

func secretTimes(a *mgmt.Action) map[string]string {
	out := map[string]string{}
	for _, s := range a.Secrets {
		out[s.Name] = s.UpdatedAt
	}
	return out
}

// requests counts what one step sent to the emulator, by route.
type requests struct {
	emu    *emulator.Server
	before emulator.Stats
}

func (r *requests) start() { r.before = r.emu.Stats() }

func (r *requests) delta() map[string]int64 {
	now := r.emu.Stats()
	out := map[string]int64{}
	for k, v := range now.ByRoute {
		if d := v - r.before.ByRoute[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// expect checks the count of each route named (routes not named may have any count).
func (r *requests) expect(t *testing.T, what string, want map[string]int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := r.delta()
		t.Logf("requests for %s: %v", what, got)
		for route, n := range want {
			if got[route] != n {
				return fmt.Errorf("%s: %d requests to %s, want %d (all: %v)", what, got[route], route, n, got)
			}
		}
		return nil
	}
}

const (
	routePost   = "POST /api/v2/actions/actions"
	routeList   = "GET /api/v2/actions/actions"
	routeGet    = "GET /api/v2/actions/actions/{id}"
	routePatch  = "PATCH /api/v2/actions/actions/{id}"
	routeDeploy = "POST /api/v2/actions/actions/{id}/deploy"
)

func TestAccAction_basic(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{{
			PreConfig: count.start,
			Config:    target.Config(testAccActionConfig_basic(name, codeV1)),
			Check: resource.ComposeTestCheckFunc(
				// Create: the look-up by name, the POST (with deploy), and the
				// reads until the tenant shows it built and deployed.
				count.expect(t, "create", map[string]int64{routeList: 1, routePost: 1, routeDeploy: 0, routePatch: 0}),
				checkTenant(target, deployedCode(codeV1)),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(uuidPattern)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("code"), knownvalue.StringExact(codeV1)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("runtime"), knownvalue.StringExact("node22")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("supported_triggers"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":      knownvalue.StringExact("custom-token-exchange"),
					"version": knownvalue.StringExact("v1"),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("dependencies"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("deploy"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("force_destroy"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("built")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("version_id"), knownvalue.StringRegexp(uuidPattern)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`Z$`))),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccAction_deployOncePerCreate creates actions with deploy = true
// whether the tenant deploys the moment the build ends or in a step of its
// own after it (the reference does not say): each create asks for exactly
// one deploy (the create's own), and each action ends with one version,
// deployed.
func TestAccAction_deployOncePerCreate(t *testing.T) {
	for _, answer := range []string{"together", "separate"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{BuildDelay: 400 * time.Millisecond, Assume: emulator.Assumptions{ActionDeploy: answer}})
			count := &requests{emu: target.RequireEmulator(t)}
			name := acctest.RandomName()
			versions := func(s *terraform.State) error {
				for i := 0; i < 3; i++ {
					id := s.RootModule().Resources[fmt.Sprintf("tenant_action.n.%d", i)].Primary.ID
					a, err := target.Client().GetAction(context.Background(), id)
					if err != nil {
						return err
					}
					if !mgmt.IsDeployed(a) || a.DeployedVersion.Number != 1 || a.CurrentVersion == nil || a.CurrentVersion.Number != 1 {
						return fmt.Errorf("action %s: deployed version %+v, current version %+v; want version 1, deployed, and no other", id, a.DeployedVersion, a.CurrentVersion)
					}
				}
				return nil
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
				Steps: []resource.TestStep{{
					PreConfig: count.start,
					Config:    target.Config(testAccActionConfig_count(name, 3)),
					Check: resource.ComposeTestCheckFunc(
						count.expect(t, "create", map[string]int64{routePost: 3, routeDeploy: 0}),
						versions,
					),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("tenant_action.n[0]", tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(1)),
						statecheck.ExpectKnownValue("tenant_action.n[0]", tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
					},
					ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				}},
			})
		})
	}
}

// TestAccAction_profileChain declares the whole chain in one configuration:
// the code, the built and deployed action, and the profile that uses it.
func TestAccAction_profileChain(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	stt := "urn:acme:" + name
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccActionConfig_profileChain(name, stt)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(addr, tfjsonpath.New("id"), "tenant_token_exchange_profile.test", tfjsonpath.New("action_id"), compare.ValuesSame()),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccAction_update(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	sameID := statecheck.CompareValue(compare.ValuesSame())
	update := []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccActionConfig_basic(name, codeV1)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_basic(name, codeV2)),
				Check: resource.ComposeTestCheckFunc(
					// Update: one refresh read, the PATCH, the reads until
					// built, the deploy, and the read that shows it deployed.
					count.expect(t, "update of code", map[string]int64{routePatch: 1, routeDeploy: 1, routePost: 0, routeList: 0}),
					checkTenant(target, deployedCode(codeV2)),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(update,
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("built")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("deployed_version")),
				)},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("code"), knownvalue.StringExact(codeV2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				},
			},
			{
				Config: target.Config(testAccActionConfig(name+"-renamed", codeV2, `
  runtime = "node18"
  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v2"
  }
`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: update},
				Check: checkTenant(target, func(a *mgmt.Action) error {
					if a.Runtime != "node18" || a.Name != name+"-renamed" || a.SupportedTriggers[0].Version != "v2" || !mgmt.IsDeployed(a) {
						return fmt.Errorf("tenant holds %+v", a)
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("runtime"), knownvalue.StringExact("node18")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(3)),
				},
			},
			{
				// Removing runtime returns to the tenant's default.
				Config:           target.Config(testAccActionConfig_basic(name, codeV2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: update, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: checkTenant(target, func(a *mgmt.Action) error {
					if a.Runtime != "node22" || a.SupportedTriggers[0].Version != "v1" {
						return fmt.Errorf("tenant holds runtime %q, trigger %+v", a.Runtime, a.SupportedTriggers)
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				// A new trigger id is a new action.
				Config: target.Config(testAccActionConfig(name, codeV2, `
  supported_triggers = {
    id      = "post-login"
    version = "v3"
  }
`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)}},
			},
		},
	})
}

func TestAccAction_dependencies(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	deps := func(want string) resource.TestCheckFunc {
		return checkTenant(target, func(a *mgmt.Action) error {
			if got := mgmt.DependencyList(a.Dependencies); got != want || !mgmt.IsDeployed(a) {
				return fmt.Errorf("tenant holds dependencies %q (status %q), want %q", got, a.Status, want)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`)),
				Check:  deps("jose@5.9.6"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dependencies"), knownvalue.MapExact(map[string]knownvalue.Check{
						"jose": knownvalue.ObjectExact(map[string]knownvalue.Check{
							"version":      knownvalue.StringExact("5.9.6"),
							"registry_url": knownvalue.Null(),
						}),
					})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: target.Config(testAccActionConfig_dependencies(name,
					`"jose" = { version = "4.15.9" }`,
					`"uuid" = { version = "9.0.1", registry_url = "https://registry.npmjs.org" }`)),
				Check: deps("jose@4.15.9, uuid@9.0.1 (from https://registry.npmjs.org)"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// registry_url removed from a dependency that stays, and a
				// published package whose name predates npm's lower-case rule.
				Config: target.Config(testAccActionConfig_dependencies(name,
					`"jose" = { version = "4.15.9" }`,
					`"uuid" = { version = "9.0.1" }`,
					`"JSONStream" = { version = "1.3.5" }`)),
				Check: deps("JSONStream@1.3.5, jose@4.15.9, uuid@9.0.1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Removing the argument removes every dependency.
				Config: target.Config(testAccActionConfig_basic(name, codeV1)),
				Check:  deps(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dependencies"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccAction_secrets(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	var times map[string]string
	names := func(want string) resource.TestCheckFunc {
		return checkTenant(target, func(a *mgmt.Action) error {
			if got := secretNames(a); got != want {
				return fmt.Errorf("tenant holds secrets %q, want %q", got, want)
			}
			times = secretTimes(a)
			return nil
		})
	}
	// kept checks that a change of code did not send the secrets again.
	kept := checkTenant(target, func(a *mgmt.Action) error {
		if got := secretTimes(a); fmt.Sprint(got) != fmt.Sprint(times) {
			return fmt.Errorf("secrets were written by a change of code: %v, before %v", got, times)
		}
		return nil
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig_secrets(name, codeV1, "API_KEY", "one", "AUDIENCE", "https://legacy.example.com")),
				Check:  names("API_KEY,AUDIENCE"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("API_KEY"), "value": knownvalue.StringExact("one")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("AUDIENCE"), "value": knownvalue.StringExact("https://legacy.example.com")}),
					})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Only code changes: the secrets are not sent, so none is wiped or rewritten.
				Config: target.Config(testAccActionConfig_secrets(name, codeV2, "API_KEY", "one", "AUDIENCE", "https://legacy.example.com")),
				Check:  resource.ComposeTestCheckFunc(kept, names("API_KEY,AUDIENCE"), checkTenant(target, deployedCode(codeV2))),
			},
			{
				// Rotation: the tenant cannot show values, but it shows when each was set.
				Config: target.Config(testAccActionConfig_secrets(name, codeV2, "API_KEY", "two", "AUDIENCE", "https://legacy.example.com")),
				Check: resource.ComposeTestCheckFunc(checkTenant(target, func(a *mgmt.Action) error {
					if secretTimes(a)["API_KEY"] == times["API_KEY"] {
						return fmt.Errorf("API_KEY was not written: updated_at %s", times["API_KEY"])
					}
					return nil
				}), names("API_KEY,AUDIENCE")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
			},
			{
				// Removing one secret removes it from the tenant.
				Config: target.Config(testAccActionConfig_secrets(name, codeV2, "API_KEY", "two")),
				Check:  names("API_KEY"),
			},
			{
				// A secret added outside Terraform shows as drift on names.
				Config: target.Config(testAccActionConfig_secrets(name, codeV2, "API_KEY", "two")),
				PreConfig: func() {
					a, err := target.Client().AllActions(context.Background(), "", name)
					if err != nil || len(a) != 1 {
						t.Fatalf("%v %v", a, err)
					}
					_, err = target.Client().UpdateAction(context.Background(), a[0].ID, mgmt.ActionUpdate{Secrets: mgmt.Set([]mgmt.ActionSecretValue{
						{Name: "API_KEY", Value: "two"},
						{Name: "OUTSIDE", Value: "x"},
					})})
					if err != nil {
						t.Fatal(err)
					}
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:            names("API_KEY"),
			},
			{
				// Removing the argument removes every secret.
				Config: target.Config(testAccActionConfig_basic(name, codeV2)),
				Check:  names(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// nowhere checks that a value appears neither in the state nor in the plan's
// values (terraform show -json of each). The plan's configuration section
// is left out: it repeats a literal written in the configuration file.
type nowhere struct{ value string }

func (c nowhere) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	b, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if strings.Contains(string(b), c.value) {
		resp.Error = fmt.Errorf("the write-only value %q is in the state", c.value)
	}
}

func (c nowhere) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal([]any{req.Plan.PlannedValues, req.Plan.ResourceChanges, req.Plan.PriorState, req.Plan.ResourceDrift, req.Plan.Variables})
	if err != nil {
		resp.Error = err
		return
	}
	if strings.Contains(string(b), c.value) {
		resp.Error = fmt.Errorf("the write-only value %q is in the plan", c.value)
	}
}

func TestAccAction_secretsWriteOnly(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	var times map[string]string
	written := func(names string, again bool) resource.TestCheckFunc {
		return checkTenant(target, func(a *mgmt.Action) error {
			if got := secretNames(a); got != names {
				return fmt.Errorf("tenant holds secrets %q, want %q", got, names)
			}
			if got := secretTimes(a); times != nil && (fmt.Sprint(got) != fmt.Sprint(times)) != again {
				return fmt.Errorf("secrets written again: %t (updated_at %v, before %v)", !again, got, times)
			}
			times = secretTimes(a)
			return nil
		})
	}
	hidden := func(values ...string) []statecheck.StateCheck {
		checks := []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets"), knownvalue.Null()),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets_wo"), knownvalue.Null()),
		}
		for _, v := range values {
			checks = append(checks, nowhere{v})
		}
		return checks
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccActionConfig_secretsWO(name, codeV1, 1, "API_KEY", "wo-value-one", "AUDIENCE", "wo-audience")),
				Check:             written("API_KEY,AUDIENCE", true),
				ConfigStateChecks: append(hidden("wo-value-one", "wo-audience"), statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets_wo_version"), knownvalue.Int64Exact(1))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{nowhere{"wo-value-one"}, nowhere{"wo-audience"}},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// A new value without a new version: Terraform cannot see it, nothing is sent.
				Config:            target.Config(testAccActionConfig_secretsWO(name, codeV1, 1, "API_KEY", "wo-value-two", "AUDIENCE", "wo-audience")),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:             written("API_KEY,AUDIENCE", false),
				ConfigStateChecks: hidden("wo-value-two"),
			},
			{
				// A change of code keeps the secrets as they are.
				Config:            target.Config(testAccActionConfig_secretsWO(name, codeV2, 1, "API_KEY", "wo-value-two", "AUDIENCE", "wo-audience")),
				Check:             resource.ComposeTestCheckFunc(written("API_KEY,AUDIENCE", false), checkTenant(target, deployedCode(codeV2))),
				ConfigStateChecks: hidden("wo-value-two"),
			},
			{
				// The new version sends the values again: rotation.
				Config: target.Config(testAccActionConfig_secretsWO(name, codeV2, 2, "API_KEY", "wo-value-two")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					nowhere{"wo-value-two"},
				}},
				Check:             written("API_KEY", true),
				ConfigStateChecks: hidden("wo-value-two"),
			},
			{
				// Removing secrets_wo and its version removes every secret.
				Config:            target.Config(testAccActionConfig_basic(name, codeV2)),
				Check:             written("", true),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("secrets_wo_version"), knownvalue.Null())},
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccAction_deployFalse(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	notDeployed := func(code string) resource.TestCheckFunc {
		return checkTenant(target, func(a *mgmt.Action) error {
			if a.Code != code || !mgmt.IsBuilt(a) || a.DeployedVersion != nil || a.AllChangesDeployed {
				return fmt.Errorf("tenant holds code %q, status %q, deployed %+v; want %q built, never deployed", a.Code, a.Status, a.DeployedVersion, code)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig(name, codeV1, "  deploy = false\n")),
				Check:     resource.ComposeTestCheckFunc(count.expect(t, "create without deploy", map[string]int64{routeDeploy: 0}), notDeployed(codeV1)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("built")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("version_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           target.Config(testAccActionConfig(name, codeV2, "  deploy = false\n")),
				Check:            notDeployed(codeV2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// deploy = true (the default) deploys what is built, with no PATCH.
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_basic(name, codeV2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				}},
				Check: resource.ComposeTestCheckFunc(
					count.expect(t, "deploy of a built action", map[string]int64{routePatch: 0, routeDeploy: 1}),
					checkTenant(target, deployedCode(codeV2)),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(1)),
				},
			},
			{
				// Back to false: nothing to send.
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig(name, codeV2, "  deploy = false\n")),
				Check:     count.expect(t, "deploy = false on a deployed action", map[string]int64{routePatch: 0, routeDeploy: 0, routeGet: 1}),
			},
		},
	})
}

func TestAccAction_import(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	config := testAccActionConfig(name, codeV1, `
  runtime = "node18"
  dependencies = {
    jose = { version = "5.9.6" }
  }
  secrets = [
    { name = "API_KEY", value = "imported-secret" },
  ]
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{Config: target.Config(config)},
			// The tenant never shows a secret's value, so an import cannot hold
			// secrets: it leaves them out and sets secrets_wo_version = 0 (the
			// configuration either takes them over write-only or sends them
			// again). Everything else is read back.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"secrets.", "secrets_wo_version"},
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if got := states[0].Attributes["secrets_wo_version"]; got != "0" {
						return fmt.Errorf("secrets_wo_version after import = %q, want 0", got)
					}
					return nil
				}},
			{ResourceName: addr, ImportState: true, ImportStateId: "00000000-0000-4000-8000-000000000000", ExpectError: acctest.ExpectError(`Cannot import non-existent remote object`)},
		},
	})
}

// TestAccAction_importRefused: import IDs the provider refuses from the ID
// alone.
func TestAccAction_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	cfg := target.Config(testAccActionConfig_basic(acctest.RandomName(), codeV1))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			acctest.ImportRefused(cfg, addr, "not-a-uuid", `The import ID "not-a-uuid" for tenant_action is not an action id`),
			acctest.ImportRefused(cfg, addr, "..", `The import ID ".." for tenant_action must not be "." or ".."`),
		},
	})
}

func TestAccAction_drift(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	editOutside := func(codes ...string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			for _, code := range codes {
				if _, err := target.Client().UpdateAction(context.Background(), s.RootModule().Resources[addr].Primary.ID, mgmt.ActionUpdate{Code: mgmt.Set(code)}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				// Code changed in the tenant's editor, not deployed: a diff on code.
				Config:             target.Config(testAccActionConfig_basic(name, codeV1)),
				Check:              editOutside(codeV2),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("code"), knownvalue.StringExact(codeV1)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				}},
			},
			{
				// The apply restores the code and deploys it.
				Config: target.Config(testAccActionConfig_basic(name, codeV1)),
				Check:  checkTenant(target, deployedCode(codeV1)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(2)),
				},
			},
			{
				// Edited and put back, never deployed: the code equals the
				// configuration, but the latest changes are not deployed.
				Config:             target.Config(testAccActionConfig_basic(name, codeV1)),
				Check:              editOutside(codeV2, codeV1),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				}},
			},
			{
				// The apply deploys without sending the code again.
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_basic(name, codeV1)),
				Check: resource.ComposeTestCheckFunc(
					count.expect(t, "deploy of changes made outside", map[string]int64{routePatch: 0, routeDeploy: 1}),
					checkTenant(target, deployedCode(codeV1)),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("all_changes_deployed"), knownvalue.Bool(true)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccAction_disappears(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccActionConfig_basic(name, codeV1)),
			Check: func(s *terraform.State) error {
				return target.Client().DeleteAction(context.Background(), s.RootModule().Resources[addr].Primary.ID, true)
			},
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
			}},
		}},
	})
}

// actionsNamed checks how many actions of this name the tenant holds, so a
// failed apply is seen to leave none behind.
func actionsNamed(t *testing.T, target *acctest.Target, name string, want int, status string) {
	t.Helper()
	all, err := target.Client().AllActions(context.Background(), "", name)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != want {
		t.Fatalf("the tenant holds %d actions named %s, want %d", len(all), name, want)
	}
	if status != "" && all[0].Status != status {
		t.Fatalf("the action is %q, want %q", all[0].Status, status)
	}
}

func TestAccAction_buildFailedOnCreate(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig_dependencies(name, `"crypto" = { version = "17.7.1" }`)),
				ExpectError: acctest.ExpectError(`Unable to create action.*could not build the action [0-9a-f-]+ \("` + name + `"\): its status is "failed".*` +
					`Its dependencies: crypto@17.7.1.*The API gives no reason for a failed build.*saved in the state.*terraform untaint tenant_action.<name>`),
			},
			{
				// The failed action is in the state: the next apply replaces it
				// instead of leaving it behind, and converges.
				PreConfig: func() { actionsNamed(t, target, name, 1, "failed") },
				Config:    target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error { actionsNamed(t, target, name, 1, "built"); return nil },
					checkTenant(target, deployedCode(codeV1)),
				),
			},
		},
	})
}

func TestAccAction_buildFailedOnUpdate(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				Config: target.Config(testAccActionConfig_dependencies(name, `"crypto" = { version = "17.7.1" }`, `"jose" = { version = "5.9.6" }`)),
				ExpectError: acctest.ExpectError(`Unable to update action.*its status is "failed".*crypto@17.7.1, jose@5.9.6.*` +
					`The version deployed before \(number 1\) is still the one that runs.*the next apply sends the corrected configuration`),
			},
			{
				// Still failed, and the state knows it: the plan shows an update
				// that reports the failure again rather than an empty plan.
				PreConfig:          func() { actionsNamed(t, target, name, 1, "failed") },
				Config:             target.Config(testAccActionConfig_dependencies(name, `"crypto" = { version = "17.7.1" }`, `"jose" = { version = "5.9.6" }`)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`, `"uuid" = { version = "10.0.0" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(2)),
				},
			},
		},
	})
}

func TestAccAction_buildTimeoutOnCreate(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTargetWith(t, emulator.Options{BuildDelay: 4 * time.Second}), acctest.RandomName()
	target.RequireEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig(name, codeV1, "  timeouts = { create = \"1s\" }\n")),
				ExpectError: acctest.ExpectError(`Unable to create action.*Waited 1s \(timeouts.create\) for the action [0-9a-f-]+ \("` + name +
					`"\) to be built and deployed; when the time ran out its status was "(pending|building)".*saved in the state.*raise timeouts.create`),
			},
			{
				PreConfig: func() { actionsNamed(t, target, name, 1, "") },
				Config:    target.Config(testAccActionConfig_basic(name, codeV1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error { actionsNamed(t, target, name, 1, "built"); return nil },
					checkTenant(target, deployedCode(codeV1)),
				),
			},
		},
	})
}

func TestAccAction_buildTimeoutOnUpdate(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTargetWith(t, emulator.Options{BuildDelay: 4 * time.Second}), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccActionConfig_basic(name, codeV1)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				Config: target.Config(testAccActionConfig(name, codeV2, "  timeouts = { update = \"1s\" }\n")),
				ExpectError: acctest.ExpectError(`Unable to update action.*Waited 1s \(timeouts.update\).*its status was "(pending|building)".*` +
					`the next apply goes on from there: it waits for the build, then deploys it`),
			},
			{
				// The next apply continues: no PATCH, a wait, then the deploy.
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_basic(name, codeV2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("built")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					count.expect(t, "an update that goes on", map[string]int64{routePatch: 0, routeDeploy: 1}),
					checkTenant(target, deployedCode(codeV2)),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(2)),
				},
			},
		},
	})
}

// profileOutside creates, outside Terraform, a profile that uses the action
// in the state, and deletes it when the test ends.
func profileOutside(t *testing.T, target *acctest.Target, stt string, id *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		*id = target.Profile(t, "uses-the-action", stt, s.RootModule().Resources[addr].Primary.ID).ID
		return nil
	}
}

func TestAccAction_deleteInUse(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	stt := "urn:acme:" + name
	var profile string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig_basic(name, codeV1)),
				Check:  profileOutside(t, target, stt, &profile),
			},
			{
				// Refused, naming the profile, before the API is asked.
				Config: target.Config(""),
				ExpectError: acctest.ExpectError(`Unable to delete action.*is used by token exchange profiles: tep_[A-Za-z0-9]{16} \(subject_token_type ` +
					regexp.QuoteMeta(stt) + `\).*Delete the profiles first`),
			},
			{
				// Once the profile is gone, the action goes.
				PreConfig: func() {
					if err := target.Client().DeleteTokenExchangeProfile(context.Background(), profile); err != nil {
						t.Fatal(err)
					}
				},
				Config: target.Config(""),
			},
		},
	})
}

// TestAccAction_removedWithItsProfileByLiteralID: an action and the profile
// that uses it, named by a literal id (as terraform query writes it), removed
// in one apply, in which Terraform orders nothing between the two deletes.
// Either the action's check of the profiles finds none left (the profile's
// delete ended or was in flight: TestProfilesUsing_waitsForProfileDeletesInFlight),
// or it finds the profile and fails, saying to apply again, and the next
// apply removes the action. Either way the tenant ends with neither, and the
// next plan is empty.
func TestAccAction_removedWithItsProfileByLiteralID(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	t.Parallel()
	target, name := acctest.NewTarget(t), acctest.RandomName()
	stt := "urn:acme:" + name
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccActionConfig_profileByLiteralID(name, stt, ""))})
	apply := func(step string) {
		t.Helper()
		if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Fatalf("%s: %v\n%s", step, err, out)
		}
	}
	apply("the action")
	out, err := cli.Run("output", "-raw", "id")
	if err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	id := strings.TrimSpace(out)
	cli.Write(t, "main.tf", target.Config(testAccActionConfig_profileByLiteralID(name, stt, id)))
	apply("the profile naming the action by its literal id")

	cli.Write(t, "main.tf", target.ProviderBlock())
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "is used by token exchange profiles") || !strings.Contains(flat, "if this apply deletes them, apply again") ||
			strings.Count(flat, "Error:") != 1 {
			t.Fatalf("the apply that removes both failed otherwise than by the check saying to apply again: %v\n%s", err, out)
		}
		t.Logf("the action's check found the profile still there: applying again")
		apply("the second apply")
	}
	if _, err := target.Client().GetAction(context.Background(), id); !mgmt.IsNotFound(err) {
		t.Fatalf("the action: %v, want it deleted", err)
	}
	profiles, err := target.Client().AllTokenExchangeProfiles(context.Background())
	if err != nil || slices.ContainsFunc(profiles, func(p mgmt.TokenExchangeProfile) bool { return p.SubjectTokenType == stt }) {
		t.Fatalf("the profiles: %v %v, want none of %s", profiles, err, stt)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the apply is not empty: %v\n%s", err, out)
	}
}

// testAccActionConfig_profileByLiteralID is a custom token exchange action
// with its id as an output and, when action is set, a profile that names
// that id literally.
func testAccActionConfig_profileByLiteralID(name, stt, action string) string {
	config := testAccActionConfig_basic(name, codeV1) + `
output "id" {
  value = tenant_action.test.id
}
`
	if action == "" {
		return config
	}
	return config + fmt.Sprintf(`
resource "tenant_token_exchange_profile" "test" {
  name               = %q
  subject_token_type = %q
  action_id          = %q
}
`, name, stt, action)
}

// TestAccAction_forceDestroy runs under each answer of the tenant to the
// delete of an action a profile uses (action_in_use): the provider's own
// check refuses first either way; with it skipped, a tenant that refuses
// needs force_destroy, and one that allows deletes the action and leaves the
// profile naming it.
func TestAccAction_forceDestroy(t *testing.T) {
	for _, answer := range []string{"refuse", "allow"} {
		t.Run(answer, func(t *testing.T) {
			target, name := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{ActionInUse: answer}}), acctest.RandomName()
			count := &requests{emu: target.RequireEmulator(t)}
			stt := "urn:acme:" + name
			var profile string
			// Deleted although the profile still names it.
			leftNaming := func(*terraform.State) error {
				p, err := target.Client().GetTokenExchangeProfile(context.Background(), profile)
				if err != nil {
					return fmt.Errorf("the profile should be left as it was: %w", err)
				}
				if err := getAction(context.Background(), target.Client(), p.ActionID); !mgmt.IsNotFound(err) {
					return fmt.Errorf("the action should be gone: %v", err)
				}
				return nil
			}
			steps := []resource.TestStep{
				{
					Config: target.Config(testAccActionConfig_basic(name, codeV1)),
					Check:  profileOutside(t, target, stt, &profile),
				},
				{
					// The provider's own check refuses, whatever the tenant would do.
					Config:      target.Config(""),
					ExpectError: acctest.ExpectError(`Unable to delete action.*is used by token exchange profiles`),
				},
				{
					Config: target.Config(testAccActionConfig(name, codeV1, "  skip_profile_check = true\n")),
				},
			}
			if answer == "allow" {
				// The check skipped, the tenant deletes the action in use.
				steps = append(steps, resource.TestStep{Config: target.Config(""), Check: leftNaming})
			} else {
				steps = append(steps,
					resource.TestStep{
						// The check skipped, the tenant itself refuses: the action
						// is in use, and force_destroy is not set.
						Config:      target.Config(""),
						ExpectError: acctest.ExpectError(`Unable to delete action.*The tenant refused to delete the action.*in use.*force_destroy = true`),
					},
					resource.TestStep{
						// force_destroy alone sends nothing.
						PreConfig:        count.start,
						Config:           target.Config(testAccActionConfig(name, codeV1, "  skip_profile_check = true\n  force_destroy = true\n")),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
						Check:            count.expect(t, "force_destroy = true", map[string]int64{routePatch: 0, routeDeploy: 0, routeGet: 1}),
					},
					resource.TestStep{Config: target.Config(""), Check: leftNaming})
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
				Steps:                    steps,
			})
		})
	}
}

// TestAccAction_deleteWhenProfilesCannotBeListed: the reference does not say
// the API refuses to delete an action in use, so when the profiles cannot be
// listed nothing is deleted; once they can, the error names the profile.
func TestAccAction_deleteWhenProfilesCannotBeListed(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	stt := "urn:acme:" + name
	var profile, id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccActionConfig_basic(name, codeV1)),
				Check: resource.ComposeTestCheckFunc(
					profileOutside(t, target, stt, &profile),
					func(s *terraform.State) error { id = s.RootModule().Resources[addr].Primary.ID; return nil },
				),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"GET /api/v2/token-exchange-profiles": 403}})
				},
				Config:      target.Config(""),
				ExpectError: acctest.ExpectError(`Unable to delete action.*Listing the token exchange profiles.*The action was not deleted.*skip_profile_check = true`),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{})
					if err := getAction(context.Background(), target.Client(), id); err != nil {
						t.Fatalf("the action was deleted although its profiles could not be listed: %v", err)
					}
				},
				Config:      target.Config(""),
				ExpectError: acctest.ExpectError(`Unable to delete action.*` + regexp.QuoteMeta(stt) + `.*Delete the profiles first`),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{})
					if err := target.Client().DeleteTokenExchangeProfile(context.Background(), profile); err != nil {
						t.Fatal(err)
					}
				},
				Config: target.Config(""),
			},
		},
	})
}

// TestAccAction_deleteOtherTrigger: an action for a trigger no profile can
// use is deleted without listing profiles, by credentials that may not
// read them.
func TestAccAction_deleteOtherTrigger(t *testing.T) {
	// CLI work: a post-login action created, then removed from the
	// configuration.
	acctest.CLIWorkDoneBy(t, "TestAccAction_boundOutside")
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	var scopes []string
	for _, s := range emulator.AllScopes() {
		if s != "read:token_exchange_profiles" {
			scopes = append(scopes, s)
		}
	}
	emu.AddClient(emulator.Client{ID: "no-profiles", Secret: "no-profiles-secret-0123456789", Scopes: scopes})
	provider := acctest.ProviderHCL(target.Domain, "no-profiles", "no-profiles-secret-0123456789")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{Config: provider + testAccActionConfig(name, codeV1, "  supported_triggers = { id = \"post-login\", version = \"v3\" }\n")},
			{
				PreConfig: emu.ResetStats,
				Config:    provider,
				Check: func(*terraform.State) error {
					if n := emu.Stats().ByRoute["GET /api/v2/token-exchange-profiles"]; n != 0 {
						return fmt.Errorf("deleting a post-login action listed the profiles %d times", n)
					}
					return nil
				},
			},
		},
	})
}

// TestAccAction_boundOutside: destroying an action that the tenant holds
// bound to a trigger whose bindings this configuration does not manage is
// refused by the tenant; the plan warns and the destroy's error names the
// trigger and the ways out. With force_destroy the tenant unbinds and
// deletes it.
func TestAccAction_boundOutside(t *testing.T) {
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	config := func(lines string) string {
		return target.Config(testAccActionConfig(name, codeV1, "  supported_triggers = { id = \"post-login\", version = \"v3\" }\n"+lines))
	}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				Check: func(s *terraform.State) error {
					id = s.RootModule().Resources[addr].Primary.ID
					_, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", []mgmt.BindingUpdate{
						{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: id}, DisplayName: "Bound outside"},
					})
					return err
				},
			},
			{
				Config:      target.Config(""),
				ExpectError: acctest.ExpectError(`Unable to delete action.*The tenant refused to delete the action [0-9a-f-]{36} \(".*"\), which is bound to the trigger "post-login" \(the API said: Unable to delete an action bound to a trigger\.\).*set force_destroy = true`),
			},
			{
				// Still bound: the refusal changed nothing.
				Config: config("  force_destroy = true\n"),
				Check: func(*terraform.State) error {
					b, err := target.Client().TriggerBindings(context.Background(), "post-login")
					if err != nil || len(b) != 1 || b[0].Action.ID != id {
						return fmt.Errorf("bindings %v, %v", b, err)
					}
					return nil
				},
			},
			{
				PreConfig: emu.ResetStats,
				Config:    target.Config(""),
				Check: func(*terraform.State) error {
					// force_destroy skips the plan's look at the bindings.
					if n := emu.Stats().ByRoute["GET /api/v2/actions/triggers/{trigger}/bindings"]; n != 0 {
						return fmt.Errorf("%d reads of the bindings", n)
					}
					if b, err := target.Client().TriggerBindings(context.Background(), "post-login"); err != nil || len(b) != 0 {
						return fmt.Errorf("bindings after the forced delete %v, %v", b, err)
					}
					return nil
				},
			},
		},
	})
}

// TestAccAction_boundOutsideReadOnce: the destroys of several actions bound
// outside this configuration are all refused (409), and their errors, which
// name the trigger, share one read of its bindings: the refusals changed
// nothing.
func TestAccAction_boundOutsideReadOnce(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.ProviderBlock() + fmt.Sprintf(`
resource "tenant_action" "n" {
  count              = 3
  name               = "%[1]s-${count.index}"
  code               = %[2]q
  supported_triggers = { id = "post-login", version = "v3" }
}

output "ids" {
  value = tenant_action.n[*].id
}
`, name, codeV1)})
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	out, err := cli.Run("output", "-json", "ids")
	var ids []string
	if err != nil || json.Unmarshal([]byte(out), &ids) != nil || len(ids) != 3 {
		t.Fatalf("ids %q: %v", out, err)
	}
	var body []mgmt.BindingUpdate
	for _, id := range ids {
		body = append(body, mgmt.BindingUpdate{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: id}, DisplayName: id[:8]})
	}
	if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", body); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, id := range ids {
			if err := target.Client().DeleteAction(context.Background(), id, true); err != nil {
				t.Error(err)
			}
		}
	})
	cli.Write(t, "main.tf", target.ProviderBlock())
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-out=tfplan"); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	emu.ResetStats()
	out, err = cli.Run("apply", "-input=false", "-no-color", "tfplan")
	if n := strings.Count(strings.Join(strings.Fields(out), " "), `which is bound to the trigger "post-login"`); err == nil || n != 3 {
		t.Fatalf("the apply named the trigger in %d refusal(s), want 3: %v\n%s", n, err, out)
	}
	if n := emu.Stats().ByRoute["GET /api/v2/actions/triggers/{trigger}/bindings"]; n != 1 {
		t.Fatalf("the 3 refusals read the bindings %d times, want 1", n)
	}
}

// TestAccAction_failedBuildIsRetried: a build that failed with nothing
// changed since (the registry did not answer) is started again by the next
// apply, and once it builds, the plan is empty: the failure can be cleared
// without a change to the configuration.
func TestAccAction_failedBuildIsRetried(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	cfg := target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`, `"left-pad" = { version = "1.3.0" }`))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`))},
			{
				PreConfig:   func() { emu.SetFaults(emulator.Faults{FailingPackages: []string{"left-pad"}}) },
				Config:      cfg,
				ExpectError: acctest.ExpectError(`Unable to update action.*its status is "failed"`),
			},
			{
				PreConfig: func() { emu.SetFaults(emulator.Faults{}) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("built")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("deployed_version"), knownvalue.Int64Exact(2)),
				},
			},
		},
	})
}

// TestAccAction_faults creates, updates and destroys an action while the
// emulator answers slowly and fails one request in ten with a 5xx.
func TestAccAction_faults(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTargetWith(t, emulator.Options{Faults: emulator.Faults{LatencyMS: 100, ErrorRate: 0.1, Seed: 1}}), acctest.RandomName()
	count := &requests{emu: target.RequireEmulator(t)}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tenantaction.TypeName, getAction),
		Steps: []resource.TestStep{
			{
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_dependencies(name, `"jose" = { version = "5.9.6" }`)),
				Check: resource.ComposeTestCheckFunc(
					count.expect(t, "create under faults", map[string]int64{}),
					func(*terraform.State) error { actionsNamed(t, target, name, 1, "built"); return nil },
					checkTenant(target, deployedCode(codeV1)),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: count.start,
				Config:    target.Config(testAccActionConfig_secrets(name, codeV2, "API_KEY", "x")),
				Check: resource.ComposeTestCheckFunc(
					count.expect(t, "update under faults", map[string]int64{}),
					checkTenant(target, deployedCode(codeV2)),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
	t.Logf("answers by status: %v", target.Emulator.Stats().ByStatus)
}

// TestAccAction_validation refuses bad input at plan time: the emulator's
// counter shows no request reached the API.
// An apply of an action with 10,000 dependencies that npm does not know
// ends at plan, naming the limit, and sends nothing: nothing is left in
// the tenant, and no install runs. The timeout only ends an apply that went
// on to the build.
func TestAccAction_tooManyDependencies(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target, name := acctest.NewTarget(t), acctest.RandomName()
	emu := target.RequireEmulator(t)
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		PreCheck:                 func() { before = emu.Stats().Total },
		Steps: []resource.TestStep{{
			Config:      target.Config(testAccActionConfig(name, codeV1, testAccActionConfig_unknownDependencies(10000)+"  timeouts = { create = \"60s\" }\n")),
			ExpectError: acctest.ExpectError(`Attribute dependencies map must contain at least 1 elements and at most 10 elements, got: 10000`),
		}},
	})
	if got := emu.Stats().Total - before; got != 0 {
		t.Fatalf("%d requests reached the API for an action over the limit", got)
	}
}

func TestAccAction_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	body := func(lines string) string { return testAccActionConfig("valid-name", codeV1, lines) }
	trig := func(id, version string) string {
		return fmt.Sprintf("  supported_triggers = {\n    id      = %q\n    version = %q\n  }\n", id, version)
	}
	target.ExpectPlanErrors(t, []acctest.PlanError{
		{Config: testAccActionConfig_basic("", codeV1), Want: `Attribute name UTF-8 character count must be between 1 and 255, got: 0`},
		{Config: testAccActionConfig_basic(strings.Repeat("ü", 256), codeV1), Want: `Attribute name UTF-8 character count must be between 1 and 255, got: 256`},
		{Config: body(`  runtime = "node16"`), Want: `Attribute runtime value must be one of: \["node18" "node18-actions" "node22"\], got: "node16"`},
		{Config: testAccActionConfig("valid-name", codeV1, trig("pre-login", "v1")), Want: `Attribute supported_triggers.id value must be one of`},
		{Config: testAccActionConfig("valid-name", codeV1, trig("custom-token-exchange", "")), Want: `Attribute supported_triggers.version UTF-8 character count must be at least 1`},
		{Config: testAccActionConfig_dependencies("valid-name", `"jose lib" = { version = "5.9.6" }`), Want: `must be an npm package name`},
		{Config: testAccActionConfig_dependencies("valid-name", `"_private" = { version = "1.0.0" }`), Want: `must be an npm package name`},
		{Config: testAccActionConfig_dependencies("valid-name", `"`+strings.Repeat("a", 215)+`" = { version = "1.0.0" }`), Want: `character count must be between 1 and 214, got: 215`},
		{Config: testAccActionConfig_dependencies("valid-name", `"jose" = { version = "" }`), Want: `version UTF-8 character count must be at least 1`},
		{Config: testAccActionConfig_dependencies("valid-name", `"jose" = { version = "5.9.6", registry_url = "ftp://npm.example.com" }`), Want: `must be an http:// or https:// URL`},
		{Config: body(`  dependencies = {}`), Want: `Attribute dependencies map must contain at least 1 elements and at most 10 elements, got: 0`},
		{Config: body(testAccActionConfig_unknownDependencies(11)), Want: `Attribute dependencies map must contain at least 1 elements and at most 10 elements, got: 11`},
		{Config: body(`  secrets = []`), Want: `Attribute secrets list must contain at least 1 elements`},
		{Config: body(`  secrets = [{ name = "", value = "x" }]`), Want: `name UTF-8 character count must be at least 1`},
		{Config: testAccActionConfig_secretsWO("valid-name", codeV1, 1, "K", "a", "K", "b"), Want: `Duplicate secret name.*secrets_wo names the secret "K" more than once`},
		{Config: body(`  secrets_wo = [{ name = "K", value = "a" }]`), Want: `Attribute "secrets_wo_version" must be specified when "secrets_wo" is specified`},
		{Config: body(`  secrets_wo_version = 1`), Want: `Attribute "secrets_wo" must be specified when "secrets_wo_version" is specified \(it is\s+1\)\. The tenant never\s+returns secret values`},
		{Config: body("  secrets = [{ name = \"K\", value = \"a\" }]\n  secrets_wo = [{ name = \"K\", value = \"a\" }]\n  secrets_wo_version = 1"), Want: `Attribute "secrets" cannot be specified when "secrets_wo" is specified`},
		{Config: body(`  timeouts = { create = "soon" }`), Want: `Invalid Attribute Value Time Duration`},
	})
}

func testAccActionConfig_basic(name, code string) string {
	return testAccActionConfig(name, code, "")
}

// testAccActionConfig is an action with lines added to its body; without a
// supported_triggers line in them, the trigger is custom-token-exchange v1.
func testAccActionConfig(name, code, lines string) string {
	if !strings.Contains(lines, "supported_triggers") {
		lines = `
  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v1"
  }
` + lines
	}
	return fmt.Sprintf(`
resource "tenant_action" "test" {
  name = %[1]q
  code = %[2]q
%[3]s
}
`, name, code, lines)
}

// testAccActionConfig_count is n actions named name-0, name-1, ...
func testAccActionConfig_count(name string, n int) string {
	return fmt.Sprintf(`
resource "tenant_action" "n" {
  count              = %[2]d
  name               = "%[1]s-${count.index}"
  code               = %[3]q
  supported_triggers = { id = "custom-token-exchange", version = "v1" }
}
`, name, n, codeV1)
}

func testAccActionConfig_dependencies(name string, deps ...string) string {
	return testAccActionConfig(name, codeV1, fmt.Sprintf("  dependencies = {\n    %s\n  }\n", strings.Join(deps, "\n    ")))
}

// testAccActionConfig_unknownDependencies are the lines of n dependencies
// that npm does not know (HCL's range stops at 1,024 values).
func testAccActionConfig_unknownDependencies(n int) string {
	var b strings.Builder
	b.WriteString("  dependencies = {\n")
	for i := range n {
		fmt.Fprintf(&b, "    \"tenant-emulator-unknown-%d\" = { version = \"1.0.0\" }\n", i)
	}
	return b.String() + "  }\n"
}

// testAccActionConfig_secrets sets secrets from name, value pairs.
func testAccActionConfig_secrets(name, code string, pairs ...string) string {
	return testAccActionConfig(name, code, "  secrets = [\n"+secretItems(pairs)+"  ]\n")
}

func testAccActionConfig_secretsWO(name, code string, version int, pairs ...string) string {
	return testAccActionConfig(name, code, fmt.Sprintf("  secrets_wo = [\n%s  ]\n  secrets_wo_version = %d\n", secretItems(pairs), version))
}

func secretItems(pairs []string) string {
	var b strings.Builder
	for i := 0; i < len(pairs); i += 2 {
		fmt.Fprintf(&b, "    { name = %q, value = %q },\n", pairs[i], pairs[i+1])
	}
	return b.String()
}

func testAccActionConfig_profileChain(name, stt string) string {
	return testAccActionConfig_basic(name, codeV1) + fmt.Sprintf(`
resource "tenant_token_exchange_profile" "test" {
  name               = "chain"
  subject_token_type = %[1]q
  action_id          = tenant_action.test.id
}
`, stt)
}

func TestAccAction_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		Steps: acctest.IdentitySteps(target.Config(testAccActionConfig_basic(acctest.RandomName(), "exports.onExecuteCustomTokenExchange = async () => {};")),
			addr, map[string]knownvalue.Check{"id": knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f-]{36}$`))}),
	})
}

// TestAccAction_deleteRefused: a delete refused (409) while the action was
// bound reads the trigger's bindings once, to decide what to do and what to
// say. When the trigger no longer binds it (bindings that name it by
// literal id were written meanwhile, in no order with the delete), the
// delete is sent again and succeeds. When the bindings cannot be read,
// nothing more is sent, the action is kept, and the error says that the
// binding is not known, with the read's error and what to do. The tenant's
// side is played by a proxy in front of the emulator, right after it
// passed the refusal on: the order is the proxy's, not a timing.
func TestAccAction_deleteRefused(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	for _, tc := range []struct {
		name string
		// unbind: once the refusal has been answered, the trigger stops
		// running the action, as the bindings' write would. unreadable: the
		// reads of the trigger's bindings after it are refused (403).
		unbind, unreadable bool
		want               *regexp.Regexp // the destroy's error; nil: it succeeds
	}{
		{name: "unbound meanwhile", unbind: true},
		{
			name:       "bindings unreadable",
			unreadable: true,
			want: regexp.MustCompile(`The tenant refused to delete the action .* because it is in use.*Whether the trigger "post-login" ` +
				`still binds it is not known: reading its bindings failed \(GET /actions/triggers/post-login/bindings: 403 .*Insufficient scope.*` +
				`Grant read:actions to the provider's client and apply again`),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target, name := acctest.NewTarget(t), acctest.RandomName()
			emu := target.RequireEmulator(t)
			upstream, err := url.Parse(emu.Domain())
			if err != nil || upstream.Scheme != "http" {
				t.Fatalf("the emulator's domain %q: %v", emu.Domain(), err)
			}
			var refused, readsAfter atomic.Int32
			var forbid atomic.Bool
			forbid.Store(tc.unreadable)
			proxy := httputil.NewSingleHostReverseProxy(upstream)
			proxy.ModifyResponse = func(r *http.Response) error {
				switch {
				case r.Request.Method == http.MethodDelete && r.StatusCode == http.StatusConflict:
					if refused.Add(1) == 1 && tc.unbind {
						_, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", nil)
						return err
					}
				case r.Request.Method == http.MethodGet && strings.HasSuffix(r.Request.URL.Path, "/bindings") && refused.Load() > 0:
					readsAfter.Add(1)
					if forbid.Load() {
						body := `{"statusCode":403,"error":"Forbidden","message":"Insufficient scope, expected any of: read:actions","errorCode":"insufficient_scope"}`
						_ = r.Body.Close()
						r.StatusCode, r.Body, r.ContentLength = http.StatusForbidden, io.NopCloser(strings.NewReader(body)), int64(len(body))
						r.Header.Set("Content-Length", strconv.Itoa(len(body)))
					}
				}
				return nil
			}
			front := httptest.NewServer(proxy)
			t.Cleanup(front.Close)
			provider := fmt.Sprintf("provider \"tenant\" {\n  domain        = %q\n  client_id     = %q\n  client_secret = %q\n  audience      = %q\n}\n",
				front.URL, target.ClientID, target.ClientSecret, emu.Audience())
			cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + fmt.Sprintf(`
resource "tenant_action" "n" {
  name               = %q
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}
`, name)})
			if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("apply: %v\n%s", err, out)
			}
			out, err := cli.Run("state", "show", "-no-color", "tenant_action.n")
			id := regexp.MustCompile(`(?m)^\s*id\s*=\s*"([^"]+)"`).FindStringSubmatch(out)
			if err != nil || id == nil {
				t.Fatalf("state show: %v\n%s", err, out)
			}
			if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", []mgmt.BindingUpdate{
				{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: id[1]}, DisplayName: "Bound"},
			}); err != nil {
				t.Fatal(err)
			}
			emu.ResetStats()
			out, err = cli.Run("destroy", "-auto-approve", "-input=false", "-no-color")
			t.Logf("requests %v, by status %v", emu.Stats().ByRoute, emu.Stats().ByStatus)
			if n, reads := refused.Load(), readsAfter.Load(); n != 1 || reads != 1 {
				t.Fatalf("the tenant refused %d delete(s), and the bindings were read %d time(s) after; want 1 and 1 (the test's order did not happen)\n%s", n, reads, out)
			}
			_, gone := target.Client().GetAction(context.Background(), id[1])
			if tc.want == nil {
				if err != nil || !mgmt.IsNotFound(gone) {
					t.Fatalf("the destroy after the refusal and the unbinding: %v (the action: %v)\n%s", err, gone, out)
				}
				return
			}
			if err == nil || !tc.want.MatchString(strings.Join(strings.Fields(out), " ")) || gone != nil {
				t.Fatalf("the destroy: %v, want an error matching %s, and the action kept (%v)\n%s", err, tc.want, gone, out)
			}
			forbid.Store(false)
			if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", nil); err != nil {
				t.Fatal(err)
			}
			if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("the destroy once unbound: %v\n%s", err, out)
			}
		})
	}
}
