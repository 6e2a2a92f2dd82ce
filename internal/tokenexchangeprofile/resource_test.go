package tokenexchangeprofile_test

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
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
)

const addr = "tenant_token_exchange_profile.test"

func getProfile(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetTokenExchangeProfile(ctx, id)
	return err
}

func TestAccTokenExchangeProfile_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccProfileConfig("", stt, action)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^tep_[A-Za-z0-9]{16}$`))),
				// Created without a name: named after its subject token type.
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(stt)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_token_type"), knownvalue.StringExact(stt)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("action_id"), knownvalue.StringExact(action)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("type"), knownvalue.StringExact("custom_authentication")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`Z$`))),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccTokenExchangeProfile_update(t *testing.T) {
	target := acctest.NewTarget(t)
	action, name, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), acctest.RandomName(), "urn:acme:"+acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccProfileConfig(name, stt, action)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
			},
			{
				Config: target.Config(testAccProfileConfig(name+"-2", stt+"-2", action)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_token_type"), knownvalue.StringExact(stt+"-2")),
				},
			},
			{
				// Lengths count characters: 50 two-byte characters fit.
				Config: target.Config(testAccProfileConfig(strings.Repeat("ü", 50), stt+"-2", action)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(strings.Repeat("ü", 50))),
				},
			},
			{
				// Removing name keeps the name.
				Config: target.Config(testAccProfileConfig("", stt+"-2", action)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(strings.Repeat("ü", 50))),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccTokenExchangeProfile_nameKept: a profile imported without name in
// the configuration keeps the tenant's name, and removing name keeps the
// name the profile has: the API requires a name on create (reference §1),
// but no name is the tenant's default, so only a create invents one.
func TestAccTokenExchangeProfile_nameKept(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	existing := target.Profile(t, "Named outside", stt, action)
	tenantName := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			p, err := target.Client().GetTokenExchangeProfile(context.Background(), existing.ID)
			if err != nil {
				return err
			}
			if p.Name != want {
				return fmt.Errorf("the tenant's profile is named %q, want %q", p.Name, want)
			}
			return nil
		}
	}
	unnamed := target.Config(testAccProfileConfig("", stt, action))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{
			{Config: unnamed, ResourceName: addr, ImportState: true, ImportStateId: existing.ID, ImportStatePersist: true},
			{
				Config:           unnamed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            tenantName("Named outside"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Named outside")),
				},
			},
			{Config: target.Config(testAccProfileConfig("Named here", stt, action)), Check: tenantName("Named here")},
			{
				Config: unnamed,
				Check:  tenantName("Named here"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccTokenExchangeProfile_replace(t *testing.T) {
	target := acctest.NewTarget(t)
	a1, a2 := target.Action(t, mgmt.TriggerCustomTokenExchange, true), target.Action(t, mgmt.TriggerCustomTokenExchange, true)
	stt := "urn:acme:" + acctest.RandomName()
	differentID := statecheck.CompareValue(compare.ValuesDiffer())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccProfileConfig("replace-me", stt, a1)), ConfigStateChecks: []statecheck.StateCheck{differentID.AddStateValue(addr, tfjsonpath.New("id"))}},
			{
				Config: target.Config(testAccProfileConfig("replace-me", stt, a2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					differentID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("action_id"), knownvalue.StringExact(a2)),
				},
			},
		},
	})
}

func TestAccTokenExchangeProfile_import(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "https://acme.example.com/"+acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccProfileConfig("imported", stt, action))},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateId: stt},
			{ResourceName: addr, ImportState: true, ImportStateId: "tep_0000000000000000", ExpectError: acctest.ExpectError(`Cannot import non-existent remote object`)},
		},
	})
}

// TestAccTokenExchangeProfile_importRefused: import IDs the provider refuses,
// from the ID alone or from one look-up by subject_token_type, which reads
// a profile of another one and passes it by.
func TestAccTokenExchangeProfile_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	target.Profile(t, "Another", stt, action)
	cfg := target.Config(testAccProfileConfig("", stt, action))
	importErr := func(id, want string) resource.TestStep { return acctest.ImportRefused(cfg, addr, id, want) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			importErr("urn:acme:no-such-profile", `No token exchange profile has subject_token_type`),
			importErr("tep one", `The import ID "tep one" is neither a profile id`),
			importErr("..", `The import ID ".." is neither a profile id`),
			importErr(".", `The import ID "." is neither a profile id`),
		},
	})
}

func TestAccTokenExchangeProfile_disappears(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccProfileConfig("gone", stt, action)),
			Check: func(s *terraform.State) error {
				return target.Client().DeleteTokenExchangeProfile(context.Background(), s.RootModule().Resources[addr].Primary.ID)
			},
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
			}},
		}},
	})
}

func TestAccTokenExchangeProfile_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccProfileConfig("drifting", stt, action)),
				Check: func(s *terraform.State) error {
					name := "renamed-outside"
					_, err := target.Client().UpdateTokenExchangeProfile(context.Background(), s.RootModule().Resources[addr].Primary.ID, mgmt.TokenExchangeProfileUpdate{Name: &name})
					return err
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("drifting")),
				}},
			},
			{
				Config:            target.Config(testAccProfileConfig("drifting", stt, action)),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("drifting"))},
			},
		},
	})
}

// TestAccTokenExchangeProfile_validation refuses each side of every bound at
// plan time, and the emulator's counter shows no request reached the API.
func TestAccTokenExchangeProfile_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	action := target.Action(t, mgmt.TriggerCustomTokenExchange, true)
	var cases []acctest.PlanError
	for _, tc := range []struct {
		name, stt, action, typ, want string
	}{
		{name: "ab", want: `Attribute name UTF-8 character count must be between 3 and 50, got: 2`},
		{name: strings.Repeat("n", 51), want: `Attribute name UTF-8 character count must be between 3 and 50, got: 51`},
		{name: strings.Repeat("ü", 51), want: `Attribute name UTF-8 character count must be between 3 and 50, got: 51`},
		{stt: "urn:a:b", want: `Attribute subject_token_type UTF-8 character count must be between 8 and 100, got: 7`},
		{stt: "urn:a:" + strings.Repeat("b", 95), want: `Attribute subject_token_type UTF-8 character count must be between 8 and 100, got: 101`},
		{stt: "urn:a:" + strings.Repeat("é", 95), want: `Attribute subject_token_type UTF-8 character count must be between 8 and 100, got: 101`},
		{action: "..", want: `Attribute action_id must not be "." or ".."`},
		{stt: "not-a-uri-at-all", want: `Attribute subject_token_type value must be an absolute URI`},
		{stt: "urn:ietf:params:oauth:token-type:jwt", want: `reserved prefix "urn:ietf"`},
		{stt: "https://auth0.com/token", want: `reserved prefix "https://auth0.com"`},
		{action: "-", want: `Attribute action_id UTF-8 character count must be between 1 and 36, got: 0`},
		{action: strings.Repeat("a", 37), want: `Attribute action_id UTF-8 character count must be between 1 and 36, got: 37`},
		{typ: "custom", want: `Attribute type value must be one of: \["custom_authentication"\], got: "custom"`},
		{typ: strings.Repeat("t", 22), want: `Attribute type value must be one of: \["custom_authentication"\]`},
	} {
		name, stt, act := "valid-name", "urn:acme:valid-token", action
		if tc.name != "" {
			name = tc.name
		}
		if tc.stt != "" {
			stt = tc.stt
		}
		switch tc.action {
		case "-":
			act = ""
		case "":
		default:
			act = tc.action
		}
		cfg := fmt.Sprintf("resource %q \"test\" {\n  name = %q\n  subject_token_type = %q\n  action_id = %q\n", tokenexchangeprofile.TypeName, name, stt, act)
		if tc.typ != "" {
			cfg += fmt.Sprintf("  type = %q\n", tc.typ)
		}
		cases = append(cases, acctest.PlanError{Config: cfg + "}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccTokenExchangeProfile_apiErrors asserts the diagnostic of each
// creation error the API can give.
func TestAccTokenExchangeProfile_apiErrors(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTargetWith(t, emulator.Options{})
	emu := target.RequireEmulator(t)
	deployed := target.Action(t, mgmt.TriggerCustomTokenExchange, true)
	undeployed := target.Action(t, mgmt.TriggerCustomTokenExchange, false)
	postLogin := target.Action(t, "post-login", true)
	existing := target.Profile(t, "existing", "urn:acme:taken", deployed)
	emu.AddClient(emulator.Client{ID: "non-global", Secret: "non-global-secret", Scopes: emulator.AllScopes()})
	emu.AddClient(emulator.Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:token_exchange_profiles"}, Global: true})
	// A client that cannot read actions: the plan's action checks are
	// skipped (with a warning), and the tenant's own refusals show at apply.
	var noActionReads []string
	for _, s := range emulator.AllScopes() {
		if s != "read:actions" {
			noActionReads = append(noActionReads, s)
		}
	}
	emu.AddClient(emulator.Client{ID: "no-action-reads", Secret: "no-action-reads-secret", Scopes: noActionReads, Global: true})
	withClient := func(id, secret, hcl string) string {
		return fmt.Sprintf("provider \"tenant\" {\n  domain = %q\n  client_id = %q\n  client_secret = %q\n}\n", target.Domain, id, secret) + hcl
	}
	cfg := func(stt, action string) string { return testAccProfileConfig("errors", stt, action) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			// Refused at plan, from one read each.
			{Config: target.Config(cfg("urn:acme:taken", deployed)), ExpectError: acctest.ExpectError(`Unable to use token exchange profile subject token type.*A token exchange profile with subject_token_type "urn:acme:taken" already exists in the tenant \(id ` + existing.ID + `, name "existing"\).*terraform import tenant_token_exchange_profile.<name> ` + existing.ID)},
			// Equal to the configuration, but there before: still not adopted.
			{Config: target.Config(testAccProfileConfig("existing", "urn:acme:taken", deployed)), ExpectError: acctest.ExpectError(`Unable to use token exchange profile subject token type.*` + existing.ID + `.*terraform import`)},
			// With the action checks skipped: the tenant's refusals at apply,
			// whatever their text (the reference does not give it), say what a
			// profile's action must be.
			{Config: withClient("no-action-reads", "no-action-reads-secret", cfg("urn:acme:e1", "00000000-0000-4000-8000-000000000000")), ExpectError: acctest.ExpectError(`Unable to create token exchange profile.*answered 400.*must exist, support the custom-token-exchange trigger and be deployed: check the action "00000000-0000-4000-8000-000000000000"`)},
			{Config: withClient("no-action-reads", "no-action-reads-secret", cfg("urn:acme:e2", undeployed)), ExpectError: acctest.ExpectError(`Unable to create token exchange profile.*answered 400.*check the action "` + undeployed + `"`)},
			{Config: withClient("no-action-reads", "no-action-reads-secret", cfg("urn:acme:e3", postLogin)), ExpectError: acctest.ExpectError(`Unable to create token exchange profile.*answered 400.*check the action "` + postLogin + `"`)},
			{Config: withClient("non-global", "non-global-secret", cfg("urn:acme:e4", deployed)), ExpectError: acctest.ExpectError(`can only be created by a global client`)},
			{Config: withClient("reader", "reader-secret", cfg("urn:acme:e5", deployed)), ExpectError: acctest.ExpectError(`Insufficient scope, expected any of: create:token_exchange_profiles.*Grant the scope`)},
			{Config: withClient("reader", "wrong-secret", cfg("urn:acme:e6", deployed)), ExpectError: acctest.ExpectError(`client_id "reader" were refused.*access_denied`)},
			{
				PreConfig:   func() { emu.SetEntityCap(1) },
				Config:      target.Config(cfg("urn:acme:e7", deployed)),
				ExpectError: acctest.ExpectError(`You reached the limit of entities.*tenant holds as many`),
			},
		},
	})
}

// TestAccTokenExchangeProfile_actionItCannotRun: the tenant refuses a
// profile on an action that does not exist, runs at another trigger, or has
// no deployed version (400, reference §1 [P]), so the plan fails, naming the
// action, its trigger and what to do. An action of the configuration, known
// only at apply, is checked at apply, before the profile is sent.
func TestAccTokenExchangeProfile_actionItCannotRun(t *testing.T) {
	target := acctest.NewTarget(t)
	undeployed := target.Action(t, mgmt.TriggerCustomTokenExchange, false)
	postLogin := target.Action(t, "post-login", true)
	var steps []resource.TestStep
	for i, tc := range []struct{ action, want string }{
		{"00000000-0000-4000-8000-000000000000", `Unable to use action.*No action with id "00000000-0000-4000-8000-000000000000" exists in the tenant.*correct the id`},
		{undeployed, `Unable to use action.*The action ` + undeployed + ` \(.*of the trigger "custom-token-exchange" has no deployed version.*deploy = true`},
		{postLogin, `Unable to use action.*The action ` + postLogin + ` \(.*runs at the trigger "post-login", not "custom-token-exchange".*supported_triggers`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      target.Config(testAccProfileConfig("cannot run", fmt.Sprintf("urn:acme:cannot-run-%d", i), tc.action)),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(tc.want),
		})
	}
	steps = append(steps, resource.TestStep{
		Config:      target.Config(testAccProfileConfig_undeployedActionOfConfig("urn:acme:cannot-run-"+acctest.RandomName(), acctest.RandomName())),
		ExpectError: acctest.ExpectError(`Unable to use action.*has no deployed version.*Set deploy = true on the tenant_action`),
	})
	before := target.Requests()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps:                    steps,
	})
	if target.Emulator != nil {
		if n := target.Emulator.Stats().ByRoute["POST /api/v2/token-exchange-profiles"]; n != 0 || target.Requests() == before {
			t.Errorf("%d profiles were sent to the tenant, which refuses them", n)
		}
	}
}

func TestAccTokenExchangeProfileDataSource_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	config := testAccProfileConfig("looked-up", stt, action) + `
data "tenant_token_exchange_profile" "by_id" {
  id = tenant_token_exchange_profile.test.id
}

data "tenant_token_exchange_profile" "by_type" {
  subject_token_type = tenant_token_exchange_profile.test.subject_token_type
}
`
	var checks []statecheck.StateCheck
	for _, ds := range []string{"data.tenant_token_exchange_profile.by_id", "data.tenant_token_exchange_profile.by_type"} {
		for _, attr := range []string{"id", "name", "subject_token_type", "action_id", "type", "created_at", "updated_at"} {
			checks = append(checks, statecheck.CompareValuePairs(addr, tfjsonpath.New(attr), ds, tfjsonpath.New(attr), compare.ValuesSame()))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{PlanOnly: true, Config: target.Config(`
data "tenant_token_exchange_profile" "none" {
  subject_token_type = "urn:acme:nothing-here"
}
`), ExpectError: acctest.ExpectError(`No token exchange profile has subject_token_type "urn:acme:nothing-here"`)},
			{PlanOnly: true, Config: target.Config(`
data "tenant_token_exchange_profile" "both" {
  id                 = "tep_x"
  subject_token_type = "urn:acme:nothing-here"
}
`), ExpectError: acctest.ExpectError(`Invalid Attribute Combination`)},
			{Config: target.Config(config), ConfigStateChecks: checks},
		},
	})
}

func testAccProfileConfig(name, stt, action string) string {
	nameLine := ""
	if name != "" {
		nameLine = fmt.Sprintf("  name               = %q\n", name)
	}
	return fmt.Sprintf(`
resource "tenant_token_exchange_profile" "test" {
%[1]s  subject_token_type = %[2]q
  action_id          = %[3]q
}
`, nameLine, stt, action)
}

// testAccProfileConfig_undeployedActionOfConfig is a profile on an action
// of the same configuration that is not deployed: its id is known only at
// apply.
func testAccProfileConfig_undeployedActionOfConfig(stt, name string) string {
	return fmt.Sprintf(`
resource "tenant_action" "test" {
  name               = %[2]q
  code               = "exports.onExecuteCustomTokenExchange = async (event, api) => {};"
  supported_triggers = { id = "custom-token-exchange", version = "v1" }
  deploy             = false
}

resource "tenant_token_exchange_profile" "test" {
  subject_token_type = %[1]q
  action_id          = tenant_action.test.id
}
`, stt, name)
}

func TestAccTokenExchangeProfile_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	action, stt := target.Action(t, mgmt.TriggerCustomTokenExchange, true), "urn:acme:"+acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             target.CheckGone(tokenexchangeprofile.TypeName, getProfile),
		Steps: acctest.IdentitySteps(target.Config(testAccProfileConfig("identity", stt, action)), addr, map[string]knownvalue.Check{
			"id": knownvalue.StringRegexp(regexp.MustCompile(`^tep_[A-Za-z0-9]{16}$`)),
		}),
	})
}
