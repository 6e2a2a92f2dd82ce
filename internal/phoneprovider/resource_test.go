package phoneprovider_test

import (
	"context"
	"encoding/json"
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
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/phoneprovider"
)

const addr = "tenant_phone_provider.test"

// writeOnly needs Terraform 1.11, the first with write-only attributes.
var writeOnly = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)}

func getProvider(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetPhoneProvider(ctx, id)
	return err
}

// checkTenant checks the tenant's provider, as the API shows it, and the
// credentials the emulator holds for it (which the API never shows).
func checkTenant(target *acctest.Target, want string, token string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		p, err := target.Client().GetPhoneProvider(context.Background(), id)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(struct {
			Name          string
			Disabled      bool
			Configuration *mgmt.PhoneConfiguration
		}{p.Name, p.Disabled, p.Configuration})
		if string(b) != want {
			return fmt.Errorf("the tenant holds %s, want %s", b, want)
		}
		if emu := target.Emulator; emu != nil {
			if got := emu.PhoneCredentials(id)["auth_token"]; got != token {
				return fmt.Errorf("the tenant holds the auth token %q, want %q", got, token)
			}
		}
		return nil
	}
}

// nowhere checks that a value appears neither in the state nor in the plan's
// values. The plan's configuration section is left out: it repeats a
// literal written in the configuration file.
type nowhere struct{ value string }

func (c nowhere) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if b, err := json.Marshal(req.State); err != nil || strings.Contains(string(b), c.value) {
		resp.Error = fmt.Errorf("the write-only value %q is in the state (%v)", c.value, err)
	}
}

func (c nowhere) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal([]any{req.Plan.PlannedValues, req.Plan.ResourceChanges, req.Plan.PriorState, req.Plan.ResourceDrift, req.Plan.Variables})
	if err != nil || strings.Contains(string(b), c.value) {
		resp.Error = fmt.Errorf("the write-only value %q is in the plan (%v)", c.value, err)
	}
}

func TestAccPhoneProvider_lifecycle(t *testing.T) {
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	const custom = `{"Name":"custom","Disabled":false,"Configuration":{"delivery_methods":["text"]}}`
	twilio := func(disabled bool, from string) string {
		return fmt.Sprintf(`{"Name":"twilio","Disabled":%t,"Configuration":{"sid":"AC123","%s","delivery_methods":["text","voice"]}}`, disabled, from)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   writeOnly,
		CheckDestroy:             target.CheckGone(phoneprovider.TypeName, getProvider),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccCustom(`["text"]`, "")),
				Check:  checkTenant(target, custom, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^pro_\w{22}$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("custom")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("disabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("channel"), knownvalue.StringExact("phone")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tenant"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("credentials_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("credentials_wo_version"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				// To Twilio in place: the configuration and the token go together.
				Config: target.Config(testAccTwilio(`default_from = "+15550001111"`, "token-one", 1, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), nowhere{"token-one"}},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check:             checkTenant(target, twilio(false, `default_from":"+15550001111`), "token-one"),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id")), nowhere{"token-one"}},
			},
			{
				// A new token without a new version: Terraform cannot see it.
				Config:           target.Config(testAccTwilio(`default_from = "+15550001111"`, "token-two", 1, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            checkTenant(target, twilio(false, `default_from":"+15550001111`), "token-one"),
			},
			{
				// A new version sends it: rotation. Disabled, too.
				Config:            target.Config(testAccTwilio(`default_from = "+15550001111"`, "token-two", 2, "  disabled = true\n")),
				Check:             checkTenant(target, twilio(true, `default_from":"+15550001111`), "token-two"),
				ConfigStateChecks: []statecheck.StateCheck{nowhere{"token-two"}},
			},
			{
				// Removing disabled returns to false; default_from gives way
				// to mssid (the configuration is replaced whole).
				Config:           target.Config(testAccTwilio(`mssid = "MG123"`, "token-two", 2, "")),
				Check:            checkTenant(target, twilio(false, `mssid":"MG123`), "token-two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Back to custom: its credentials are none.
				Config:            target.Config(testAccCustom(`["text"]`, "")),
				Check:             checkTenant(target, custom, ""),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addr, tfjsonpath.New("id"))},
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccPhoneProvider_importTwilio: an import of a Twilio provider sets
// credentials_wo_version to 0, so a configuration that writes the token
// with version 0 plans nothing; another version sends it.
func TestAccPhoneProvider_importTwilio(t *testing.T) {
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	p, err := target.Client().CreatePhoneProvider(context.Background(), mgmt.PhoneProviderCreate{
		Name: "twilio", Configuration: mgmt.PhoneConfiguration{SID: "AC123", DefaultFrom: "+15550001111", DeliveryMethods: []string{"text", "voice"}},
		Credentials: mgmt.PhoneCredentials{AuthToken: "outside"},
	})
	if err != nil {
		t.Fatal(err)
	}
	config := target.Config(testAccTwilio(`default_from = "+15550001111"`, "adopted", 0, ""))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   writeOnly,
		CheckDestroy:             target.CheckGone(phoneprovider.TypeName, getProvider),
		Steps: []resource.TestStep{
			{
				Config: config, ResourceName: addr, ImportState: true, ImportStateId: p.ID, ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if v := s[0].Attributes["credentials_wo_version"]; v != "0" {
						return fmt.Errorf("credentials_wo_version %q after the import, want 0", v)
					}
					return nil
				},
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            checkTenant(target, `{"Name":"twilio","Disabled":false,"Configuration":{"sid":"AC123","default_from":"+15550001111","delivery_methods":["text","voice"]}}`, "outside"),
			},
			{
				Config: target.Config(testAccTwilio(`default_from = "+15550001111"`, "adopted", 1, "")),
				Check:  checkTenant(target, `{"Name":"twilio","Disabled":false,"Configuration":{"sid":"AC123","default_from":"+15550001111","delivery_methods":["text","voice"]}}`, "adopted"),
			},
		},
	})
}

// TestAccPhoneProvider_secondIsRefused: a tenant has one phone provider; a
// create in a tenant that has one is refused at plan, with the import
// command, and nothing is written.
func TestAccPhoneProvider_secondIsRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTargetWith(t, emulator.Options{Demo: true})
	emu := target.RequireEmulator(t)
	id := emu.Demo().PhoneProviderID
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccCustom(`["voice"]`, "")),
				ExpectError: acctest.ExpectError(`Unable to create phone provider.*The tenant already has a phone provider \(id ` + id +
					`, name "custom"\), and a tenant has one.*terraform import tenant_phone_provider.<name> ` + id),
			},
			{
				// Nothing was written; the import the error gives works.
				PreConfig: func() {
					if n := acctest.Writes(emu.Stats().ByRoute); n != 0 {
						t.Errorf("the refused plan sent %d writes", n)
					}
				},
				Config:             target.Config(testAccCustom(`["text", "voice"]`, "")),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      id,
				ImportStatePersist: true,
			},
			{
				Config:           target.Config(testAccCustom(`["text", "voice"]`, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccPhoneProvider_refusedBeforeAnyRequest(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	twilio := func(cfg, creds string) string {
		return fmt.Sprintf(`
resource "tenant_phone_provider" "test" {
  name                   = "twilio"
  configuration          = { delivery_methods = ["text"]%s }
  %s
}
`, cfg, creds)
	}
	const token = `credentials_wo = { auth_token = "t" }
  credentials_wo_version = 1`
	target.ExpectPlanErrors(t, []acctest.PlanError{
		{Config: twilio(`, default_from = "+1"`, token), Want: `Attribute configuration.sid, the Twilio account SID, must be set when name is "twilio"`},
		{Config: twilio(`, sid = "AC1"`, token), Want: `Attribute configuration.default_from \(the number messages are sent from\) or configuration.mssid`},
		{Config: twilio(`, sid = "AC1", default_from = "+1"`, ""), Want: `Attribute credentials_wo \(with auth_token, the Twilio auth token\) must be set when name is "twilio"`},
		{Config: twilio(`, sid = "AC1", default_from = "+1", mssid = "MG1"`, token), Want: `Attribute "configuration.(mssid|default_from)" cannot be specified when "configuration.(mssid|default_from)" is specified`},
		{Config: twilio(`, sid = "AC1", default_from = "+1"`, `credentials_wo = { auth_token = "t" }`), Want: `Missing credentials_wo_version`},
		{Config: twilio(`, sid = "AC1", default_from = "+1"`, `credentials_wo = { auth_token = "`+strings.Repeat("t", 256)+`" }
  credentials_wo_version = 1`), Want: `Attribute credentials_wo.auth_token UTF-8 character count must be between 1 and 255, got: 256`},
		{Config: testAccCustom(`["text"]`, `  configuration = { delivery_methods = ["text"], sid = "AC1" }`), Want: `Attribute configuration.sid is a Twilio setting, only used when name is "twilio"`},
		{Config: testAccCustom(`["text"]`, "  credentials_wo = { auth_token = \"t\" }\n  credentials_wo_version = 1\n"), Want: `a custom provider has no credentials`},
		{Config: testAccCustom(`[]`, ""), Want: `Attribute configuration.delivery_methods set must contain at least 1 elements and at most 2 elements, got: 0`},
		{Config: testAccCustom(`["email"]`, ""), Want: `value must be one of: \["text" "voice"\], got: "email"`},
		{Config: strings.Replace(testAccCustom(`["text"]`, ""), `"custom"`, `"vonage"`, 1), Want: `Attribute name value must be one of: \["twilio" "custom"\], got: "vonage"`},
	})
}

func TestAccPhoneProvider_disappears(t *testing.T) {
	target := acctest.NewTarget(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(phoneprovider.TypeName, getProvider),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccCustom(`["text", "voice"]`, "")),
				Check: func(s *terraform.State) error {
					return target.Client().DeletePhoneProvider(context.Background(), s.RootModule().Resources[addr].Primary.ID)
				},
				ExpectNonEmptyPlan: true,
			},
			{
				// Created again.
				Config:           target.Config(testAccCustom(`["text", "voice"]`, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccPhoneProvider_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             target.CheckGone(phoneprovider.TypeName, getProvider),
		Steps: acctest.IdentitySteps(target.Config(testAccCustom(`["voice"]`, "")), addr, map[string]knownvalue.Check{
			"id": knownvalue.StringRegexp(regexp.MustCompile(`^pro_\w{22}$`)),
		}),
	})
}

// TestAccPhoneProviderDataSource_ofTheResource: the data source shows the
// provider the resource made, attribute for attribute.
func TestAccPhoneProviderDataSource_ofTheResource(t *testing.T) {
	target := acctest.NewTarget(t)
	ds := "data.tenant_phone_provider.current"
	var checks []statecheck.StateCheck
	for _, a := range []string{"id", "name", "disabled", "configuration", "tenant", "channel", "created_at", "updated_at"} {
		checks = append(checks, statecheck.CompareValuePairs(ds, tfjsonpath.New(a), addr, tfjsonpath.New(a), compare.ValuesSame()))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(phoneprovider.TypeName, getProvider),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccCustom(`["text"]`, "") + `
data "tenant_phone_provider" "current" {
  depends_on = [tenant_phone_provider.test]
}
`),
			ConfigStateChecks: checks,
		}},
	})
}

// testAccCustom is a custom provider with the delivery methods, and lines
// that replace its configuration when they set one.
func testAccCustom(methods, lines string) string {
	cfg := fmt.Sprintf("  configuration = { delivery_methods = %s }\n", methods)
	if strings.Contains(lines, "configuration") {
		cfg = ""
	}
	return fmt.Sprintf(`
resource "tenant_phone_provider" "test" {
  name = "custom"
%s%s
}
`, cfg, lines)
}

// testAccTwilio is a Twilio provider with a sender line, its token and
// version, and more lines.
func testAccTwilio(sender, token string, version int, lines string) string {
	return fmt.Sprintf(`
resource "tenant_phone_provider" "test" {
  name = "twilio"
  configuration = {
    sid              = "AC123"
    %[1]s
    delivery_methods = ["voice", "text"]
  }
  credentials_wo         = { auth_token = %[2]q }
  credentials_wo_version = %[3]d
%[4]s}
`, sender, token, version, lines)
}
