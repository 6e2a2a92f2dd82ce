package tokenexchangeprofile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
)

func TestExchangeSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var resp ephemeral.SchemaResponse
	tokenexchangeprofile.NewExchange().Schema(ctx, ephemeral.SchemaRequest{}, &resp)
	if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
}

// exchangeCode accepts a subject token "good-<id>" for the user of that id,
// rejects any other; an actor token makes its value the actor.
const exchangeCode = `exports.onExecuteCustomTokenExchange = async (event, api) => {
  const t = event.transaction.subject_token;
  if (t === "crash") {
    throw new Error("the legacy IdP's key could not be read");
  }
  if (t === "hang") {
    await new Promise(() => setInterval(() => {}, 1000));
  }
  if (!t.startsWith("good-")) {
    api.access.rejectInvalidSubjectToken("The subject token is not a good one.");
    return;
  }
  api.authentication.setUserByConnection("Username-Password-Authentication",
    { user_id: t.slice(5), email: t.slice(5) + "@example.com" },
    { creationBehavior: "create_if_not_exists", updateBehavior: "none" });
  if (event.transaction.actor_token) {
    api.authentication.setActor({ sub: event.transaction.actor_token });
  }
};`

// exchangeFactories serve the provider and the echo provider, which keeps
// an ephemeral resource's result in the state for the test to check.
var exchangeFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"tenant": acctest.ProviderFactories["tenant"],
	"echo":   echoprovider.NewProviderServer(),
}

// exchangeSetup is an API, a deployed action, its profile and a client
// allowed to exchange, made through the API for the test.
type exchangeSetup struct {
	audience, subjectTokenType string
	clientID, clientSecret     string
}

func newExchangeSetup(t *testing.T, target *acctest.Target) exchangeSetup {
	t.Helper()
	emu := target.RequireEmulator(t) // clients are made through the emulator's API
	ctx := context.Background()
	c := target.Client()
	name := acctest.RandomName()
	x := exchangeSetup{audience: "https://api.example.com/" + name, subjectTokenType: "urn:acme:" + name}
	// An exchange's API lets first-party clients skip consent (the
	// exchange has no user present to consent).
	// It allows offline access, so that an exchange can ask for a refresh
	// token.
	yes := true
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: x.audience, SkipConsentForVerifiableFirstPartyClients: &yes, AllowOfflineAccess: &yes,
		Scopes: &[]mgmt.ResourceServerScope{{Value: "read:orders"}}}); err != nil {
		t.Fatal(err)
	}
	a, err := c.CreateAction(ctx, mgmt.ActionCreate{Name: name, Code: exchangeCode, Deploy: true,
		SupportedTriggers: []mgmt.ActionTrigger{{ID: "custom-token-exchange", Version: "v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTokenExchangeProfile(ctx, mgmt.TokenExchangeProfileCreate{Name: name, SubjectTokenType: x.subjectTokenType,
		ActionID: a.ID, Type: "custom_authentication"}); err != nil {
		t.Fatal(err)
	}
	x.clientID, x.clientSecret = emulatorClient(t, emu.Domain(), target)
	return x
}

// emulatorClient creates a client allowed to exchange, through the
// emulator's /clients.
func emulatorClient(t *testing.T, domain string, target *acctest.Target) (string, string) {
	t.Helper()
	var c struct {
		ID     string `json:"client_id"`
		Secret string `json:"client_secret"`
	}
	emulatorCall(t, domain, target, "POST", "/api/v2/clients", `{"name":"`+acctest.RandomName()+`","is_first_party":true,
		"oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`, 201, &c)
	return c.ID, c.Secret
}

// emulatorCall sends a request to the emulator's Management API with a
// token of the target's client, checks the answer's status and decodes its
// body into out (when not nil).
func emulatorCall(t *testing.T, domain string, target *acctest.Target, method, path, body string, status int, out any) {
	t.Helper()
	resp, err := http.PostForm(domain+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {target.ClientID},
		"client_secret": {target.ClientSecret}, "audience": {target.Client().Audience()}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	req, _ := http.NewRequest(method, domain+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d, want %d", method, path, resp.StatusCode, status)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

func TestAccTokenExchange_accepted(t *testing.T) {
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{{
			Config: target.Config(testAccExchangeConfig(x, "good-legacy-42", `["openid", "read:orders"]`, false)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("user_id"), knownvalue.StringExact("auth0|legacy-42")),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("claims").AtMapKey("azp"), knownvalue.StringExact(x.clientID)),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("claims").AtMapKey("aud"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(x.audience), knownvalue.StringRegexp(userinfo)})),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("claims").AtMapKey("scope"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("openid"), knownvalue.StringExact("read:orders")})),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("granted_scopes"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("openid"), knownvalue.StringExact("read:orders")})),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("expires_in"), knownvalue.Int64Exact(86400)),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("id_token_claims_json"),
					knownvalue.StringRegexp(regexp.MustCompile(`"aud":"`+x.clientID+`".*"sub":"auth0\|legacy-42"`))),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("error"), knownvalue.Null()),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("access_token"), knownvalue.StringRegexp(jwt)),
			},
		}},
	})
}

// A refusal is a result with accept_refusal: the action's reason, and no
// token.
func TestAccTokenExchange_refusalAccepted(t *testing.T) {
	// CLI work: one exchange's result in another provider's configuration.
	acctest.CLIWorkDoneBy(t, "TestAccTokenExchange_accepted")
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{{
			Config: target.Config(testAccExchangeConfig(x, "forged", `["read:orders"]`, true)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("error"), knownvalue.StringExact("invalid_request")),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("error_description"),
					knownvalue.StringExact("The subject token is not a good one.")),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("status_code"), knownvalue.Int64Exact(400)),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("access_token"), knownvalue.Null()),
				statecheck.ExpectKnownValue("echo.exchange", tfjsonpath.New("data").AtMapKey("claims"), knownvalue.Null()),
			},
		}},
	})
}

// Without accept_refusal a refusal fails the plan, with the tenant's words
// and the way to check for it.
func TestAccTokenExchange_refusalIsAnError(t *testing.T) {
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{{
			Config: target.Config(testAccExchangeConfig(x, "forged", `["read:orders"]`, false)),
			ExpectError: acctest.ExpectError(`Unable to exchange token .*refused the exchange of a "` + x.subjectTokenType +
				`" subject token for client ` + x.clientID + `: 400 invalid_request: The subject token is not a good one\. If a refusal .*accept_refusal = true`),
		}},
	})
}

// An action that crashes or outlives its time limit is a failure, not a
// refusal: the error names it, from the answer's description, and says
// where the cause is, not how to check a refusal. The emulator's limit is
// 5 s here.
func TestAccTokenExchange_actionFailure(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTargetWith(t, emulator.Options{ActionTimeout: 5 * time.Second})
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{
			{Config: target.Config(testAccExchangeConfig(x, "crash", `["read:orders"]`, false)), PlanOnly: true,
				ExpectError: acctest.ExpectError(`Unable to exchange token .*client ` + x.clientID + ` failed in the tenant: ` +
					`500 server_error: The custom token exchange action failed\. The profile's action crashed, threw or did not end ` +
					`within its time limit.*not a refusal.*tenant's logs`)},
			{Config: target.Config(testAccExchangeConfig(x, "hang", `["read:orders"]`, false)), PlanOnly: true,
				ExpectError: acctest.ExpectError(`Unable to exchange token .*failed in the tenant: 500 server_error: ` +
					`The custom token exchange action did not complete in time\. .*not a refusal.*tenant's logs`)},
		},
	})
}

// An address that sent too many rejected subject tokens is throttled: the
// error says so and what to do, not how to check a refusal. The emulator
// throttles after one rejected token here.
func TestAccTokenExchange_throttled(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTargetWith(t, emulator.Options{ExchangeThrottle: emulator.ExchangeThrottle{MaxAttempts: 1}})
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{
			{Config: target.Config(testAccExchangeConfig(x, "forged", `["read:orders"]`, false)), PlanOnly: true,
				ExpectError: acctest.ExpectError(`400 invalid_request: The subject token is not a good one\. If a refusal`)},
			{Config: target.Config(testAccExchangeConfig(x, "good-ada", `["read:orders"]`, false)), PlanOnly: true,
				ExpectError: acctest.ExpectError(`Unable to exchange token .*client ` + x.clientID + `: 429 too_many_attempts: ` +
					`.*administrator\. This address is throttled after repeated rejected subject tokens\. .*--no-exchange-throttle`)},
		},
	})
}

// A postcondition on the claims is how a configuration proves its exchange.
//
// terraform-plugin-testing reads each plan with terraform show -json, which
// Terraform 1.11 (1.11.4) cannot do for a plan with an ephemeral resource's
// postcondition (it crashes; 1.15.9 does not): this test runs with 1.15 and
// newer, and the testing guide's example proves postconditions with
// terraform test, which does not show plans, on 1.11 too.
func TestAccTokenExchange_postcondition(t *testing.T) {
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_15_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: target.Config(testAccExchangeConfig_postcondition(x, "good-ada", "auth0|ada")), PlanOnly: true},
			{Config: target.Config(testAccExchangeConfig_postcondition(x, "good-ada", "auth0|grace")), PlanOnly: true,
				ExpectError: acctest.ExpectError(`Resource postcondition failed.*the exchange gave another user`)},
		},
	})
}

// Bad input is refused at plan, before any request.
func TestAccTokenExchange_badInput(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	body := func(attrs string) string {
		return fmt.Sprintf(`
ephemeral "tenant_token_exchange" "x" {
  client_id     = "app"
  subject_token = "t"
%s
}
`, attrs)
	}
	target.ExpectPlanErrors(t, []acctest.PlanError{
		{Config: body(`  subject_token_type = "urn:auth0:legacy"`), Want: `reserved by the platform`},
		{Config: body(`  subject_token_type = "urn:a"`), Want: `subject_token_type UTF-8 character count must be between 8 and 100, got: 5`},
		{Config: body(`  subject_token_type = "not a uri at all"`), Want: `absolute URI`},
		{Config: body("  subject_token_type = \"urn:acme:legacy\"\n  scopes = [\"read orders\"]"), Want: `must not contain white space`},
		{Config: body("  subject_token_type = \"urn:acme:legacy\"\n  client_secret = \"\""), Want: `client_secret string length must be at least 1`},
	})
}

var (
	userinfo = regexp.MustCompile(`^https://127\.0\.0\.1:\d+/userinfo$`)
	jwt      = regexp.MustCompile(`^eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$`)
)

func testAccExchangeConfig(x exchangeSetup, subject, scopes string, acceptRefusal bool) string {
	return fmt.Sprintf(`
ephemeral "tenant_token_exchange" "x" {
  client_id          = %[1]q
  client_secret      = %[2]q
  subject_token_type = %[3]q
  subject_token      = %[4]q
  audience           = %[5]q
  scopes             = %[6]s
  accept_refusal     = %[7]t
}

provider "echo" {
  data = ephemeral.tenant_token_exchange.x
}

resource "echo" "exchange" {}
`, x.clientID, x.clientSecret, x.subjectTokenType, subject, x.audience, scopes, acceptRefusal)
}

func testAccExchangeConfig_postcondition(x exchangeSetup, subject, user string) string {
	return fmt.Sprintf(`
ephemeral "tenant_token_exchange" "x" {
  client_id          = %[1]q
  client_secret      = %[2]q
  subject_token_type = %[3]q
  subject_token      = %[4]q
  audience           = %[5]q
  scopes             = ["read:orders"]

  lifecycle {
    postcondition {
      condition     = self.user_id == %[6]q && self.claims.scope == tolist(["read:orders"])
      error_message = "the exchange gave another user, or other scopes"
    }
  }
}
`, x.clientID, x.clientSecret, x.subjectTokenType, subject, x.audience, user)
}

// Delegation: the actor token reaches the action, whose setActor gives the
// act claim; with an actor no refresh token is issued, without one
// offline_access gives one. The refresh token itself is kept nowhere.
func TestAccTokenExchange_delegation(t *testing.T) {
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	// Each step's echo is a new resource: an echo keeps the data it was
	// created with.
	config := func(echo, actor string) string {
		return target.Config(fmt.Sprintf(`
ephemeral "tenant_token_exchange" "x" {
  client_id          = %[1]q
  client_secret      = %[2]q
  subject_token_type = %[3]q
  subject_token      = "good-legacy-7"
  audience           = %[4]q
  scopes             = ["offline_access", "read:orders"]
  %[5]s
}

provider "echo" {
  data = {
    act_json             = ephemeral.tenant_token_exchange.x.act_json
    refresh_token_issued = ephemeral.tenant_token_exchange.x.refresh_token_issued
    user_id              = ephemeral.tenant_token_exchange.x.user_id
  }
}

resource "echo" %[6]q {}
`, x.clientID, x.clientSecret, x.subjectTokenType, x.audience, actor, echo))
	}
	data := func(k string) tfjsonpath.Path { return tfjsonpath.New("data").AtMapKey(k) }
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{
			{
				Config:      config("refused", `actor_token = "agent-7"`),
				ExpectError: regexp.MustCompile(`(?s)actor_token_type.*must be specified`),
			},
			{
				Config: config("delegated", `
  actor_token        = "agent-7"
  actor_token_type   = "urn:acme:support-agent"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.delegated", data("act_json"), knownvalue.StringExact(`{"sub":"agent-7"}`)),
					statecheck.ExpectKnownValue("echo.delegated", data("refresh_token_issued"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("echo.delegated", data("user_id"), knownvalue.StringExact("auth0|legacy-7")),
				},
			},
			{
				Config: config("offline", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.offline", data("act_json"), knownvalue.Null()),
					statecheck.ExpectKnownValue("echo.offline", data("refresh_token_issued"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// An exchange for an organization: the organization argument (by name)
// reaches the tenant, whose tokens carry its id in org_id, which the
// result shows; an organization the tenant does not have is refused.
func TestAccTokenExchange_organization(t *testing.T) {
	target := acctest.NewTarget(t)
	x := newExchangeSetup(t, target)
	domain := target.RequireEmulator(t).Domain()
	// The organization lets the users of the action's connection in.
	var conns []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	emulatorCall(t, domain, target, "GET", "/api/v2/connections", "", 200, &conns)
	connID := ""
	for _, c := range conns {
		if c.Name == "Username-Password-Authentication" {
			connID = c.ID
		}
	}
	var org struct {
		ID string `json:"id"`
	}
	name := acctest.RandomName()
	emulatorCall(t, domain, target, "POST", "/api/v2/organizations", `{"name":"`+name+`"}`, 201, &org)
	emulatorCall(t, domain, target, "POST", "/api/v2/organizations/"+org.ID+"/enabled_connections",
		`{"connection_id":"`+connID+`","assign_membership_on_login":true}`, 201, nil)
	config := func(echo, organization string) string {
		return target.Config(fmt.Sprintf(`
ephemeral "tenant_token_exchange" "x" {
  client_id          = %[1]q
  client_secret      = %[2]q
  subject_token_type = %[3]q
  subject_token      = "good-legacy-8"
  audience           = %[4]q
  scopes             = ["read:orders"]
  organization       = %[5]q
  accept_refusal     = true
}

provider "echo" {
  data = {
    org_id      = ephemeral.tenant_token_exchange.x.org_id
    status_code = ephemeral.tenant_token_exchange.x.status_code
  }
}

resource "echo" %[6]q {}
`, x.clientID, x.clientSecret, x.subjectTokenType, x.audience, organization, echo))
	}
	data := func(k string) tfjsonpath.Path { return tfjsonpath.New("data").AtMapKey(k) }
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: exchangeFactories,
		Steps: []resource.TestStep{
			{
				Config: config("member", name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.member", data("org_id"), knownvalue.StringExact(org.ID)),
					statecheck.ExpectKnownValue("echo.member", data("status_code"), knownvalue.Null()),
				},
			},
			{
				Config: config("unknown", name+"-none"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.unknown", data("org_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue("echo.unknown", data("status_code"), knownvalue.Int64Exact(400)),
				},
			},
		},
	})
}
