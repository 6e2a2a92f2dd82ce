package e2e_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// migrateVersions requires both providers: the incumbent stays during the
// switch (Terraform needs it for the objects its state still holds).
const migrateVersions = `terraform {
  required_providers {
    auth0 = {
      source  = "auth0/auth0"
      version = "%[1]s"
    }
    tenant = {
      source  = "tenant-iac/tenant"
      version = "%[2]s"
    }
  }
}

provider "auth0" {}
provider "tenant" {}
`

// incumbentConfig is a tenant as the incumbent provider declares it: every
// type that moves, the scope resources that do not, secrets in state and
// write-only ones.
func incumbentConfig(pub string) string {
	return fmt.Sprintf(`
resource "auth0_resource_server" "orders" {
  identifier                                      = "https://orders.example.com"
  name                                            = "Orders"
  token_lifetime                                  = 3600
  allow_offline_access                            = true
  enforce_policies                                = true
  token_dialect                                   = "access_token_authz"
  skip_consent_for_verifiable_first_party_clients = true
}

resource "auth0_resource_server_scopes" "orders" {
  resource_server_identifier = auth0_resource_server.orders.identifier
  scopes {
    name        = "read:orders"
    description = "Read orders"
  }
  scopes {
    name        = "write:orders"
    description = "Write orders"
  }
}

resource "auth0_resource_server" "billing" {
  identifier     = "https://billing.example.com"
  name           = "Billing"
  signing_alg    = "HS256"
  signing_secret = "0123456789abcdef0123"
  token_encryption {
    format = "compact-nested-jwe"
    encryption_key {
      name      = "billing-key"
      algorithm = "RSA-OAEP-256"
      kid       = "billing-1"
      pem       = %[1]q
    }
  }
  proof_of_possession {
    mechanism = "dpop"
    required  = true
  }
}

resource "auth0_resource_server_scope" "invoices" {
  resource_server_identifier = auth0_resource_server.billing.identifier
  scope                      = "read:invoices"
  description                = "Read invoices"
}

resource "auth0_role" "support" {
  name        = "support"
  description = "Support staff"
}

resource "auth0_role_permissions" "support" {
  role_id = auth0_role.support.id
  permissions {
    name                       = "read:orders"
    resource_server_identifier = auth0_resource_server.orders.identifier
  }
  permissions {
    name                       = "read:invoices"
    resource_server_identifier = auth0_resource_server.billing.identifier
  }
  depends_on = [auth0_resource_server_scopes.orders, auth0_resource_server_scope.invoices]
}

resource "auth0_role" "admin" {
  name = "admin"
}

resource "auth0_role" "team" {
  for_each = toset(["ops", "dev"])
  name     = "team-${each.key}"
}

resource "auth0_role_permission" "ops" {
  count                      = 2
  role_id                    = auth0_role.team["ops"].id
  resource_server_identifier = auth0_resource_server.orders.identifier
  permission                 = ["read:orders", "write:orders"][count.index]
  depends_on                 = [auth0_resource_server_scopes.orders]
}

resource "auth0_role_permission" "admin_write" {
  role_id                    = auth0_role.admin.id
  resource_server_identifier = auth0_resource_server.orders.identifier
  permission                 = "write:orders"
  depends_on                 = [auth0_resource_server_scopes.orders]
}

resource "auth0_action" "exchange" {
  name    = "exchange"
  runtime = "node22"
  code    = "exports.onExecuteCustomTokenExchange = async (event, api) => {};"
  deploy  = true
  supported_triggers {
    id      = "custom-token-exchange"
    version = "v1"
  }
  dependencies {
    name    = "jose"
    version = "5.9.6"
  }
  secrets {
    name  = "SIGNING_KEY"
    value = "zz-signing"
  }
  secrets {
    name  = "API_KEY"
    value = "aa-api"
  }
}

resource "auth0_action" "login" {
  name    = "login"
  runtime = "node22"
  code    = "exports.onExecutePostLogin = async (event, api) => {};"
  deploy  = true
  supported_triggers {
    id      = "post-login"
    version = "v3"
  }
  secrets_wo {
    name  = "TOKEN"
    value = "wo-value"
  }
  secrets_wo_version = 3
}

resource "auth0_token_exchange_profile" "cis" {
  name               = "cis"
  subject_token_type = "https://acme.example.com/cis-token"
  action_id          = auth0_action.exchange.id
  type               = "custom_authentication"
}

resource "auth0_client" "exchange" {
  name            = "exchange-app"
  description     = "Exchanges CIS tokens"
  app_type        = "regular_web"
  oidc_conformant = true
  callbacks       = ["https://app.example.com/callback"]
  grant_types     = ["authorization_code", "refresh_token", "client_credentials"]
  client_metadata = { team = "identity" }
  jwt_configuration {
    alg = "RS256"
  }
  token_exchange {
    allow_any_profile_of_type = ["custom_authentication"]
  }
}

resource "auth0_client_grant" "exchange_orders" {
  client_id  = auth0_client.exchange.client_id
  audience   = auth0_resource_server.orders.identifier
  scopes     = ["read:orders"]
  depends_on = [auth0_resource_server_scopes.orders]
}

resource "auth0_trigger_actions" "login" {
  trigger = "post-login"
  actions {
    id           = auth0_action.login.id
    display_name = "Login"
  }
}

resource "auth0_phone_provider" "sms" {
  name     = "twilio"
  disabled = false
  credentials {
    auth_token = "twilio-token"
  }
  configuration {
    delivery_methods = ["text", "voice"]
    sid              = "AC0123"
    default_from     = "+15550001111"
  }
}
`, pub)
}

// movedTypes are the incumbent's resources of incumbentConfig and where
// they move (one block per resource, for_each and count included).
var movedTypes = [][2]string{
	{"auth0_resource_server.orders", "tenant_resource_server.orders"},
	{"auth0_resource_server.billing", "tenant_resource_server.billing"},
	{"auth0_role.support", "tenant_role.support"},
	{"auth0_role.admin", "tenant_role.admin"},
	{"auth0_role.team", "tenant_role.team"},
	{"auth0_role_permissions.support", "tenant_role_permissions.support"},
	{"auth0_role_permission.admin_write", "tenant_role_permission.admin_write"},
	{"auth0_role_permission.ops", "tenant_role_permission.ops"},
	{"auth0_action.exchange", "tenant_action.exchange"},
	{"auth0_action.login", "tenant_action.login"},
	{"auth0_token_exchange_profile.cis", "tenant_token_exchange_profile.cis"},
	{"auth0_client.exchange", "tenant_client.exchange"},
	{"auth0_client_grant.exchange_orders", "tenant_client_grant.exchange_orders"},
	{"auth0_trigger_actions.login", "tenant_trigger_actions.login"},
	{"auth0_phone_provider.sms", "tenant_phone_provider.sms"},
}

// movedInstance is where an instance address of a moved type goes.
func movedInstance(address string) (string, bool) {
	for _, m := range movedTypes {
		if address == m[0] || strings.HasPrefix(address, m[0]+"[") {
			return m[1] + strings.TrimPrefix(address, m[0]), true
		}
	}
	return "", false
}

// tenantConfig is incumbentConfig rewritten for this provider, as the
// migration guide says: scopes in the API's scopes map, blocks as
// objects, and the scope resources forgotten (removed, not destroyed); the
// moved blocks are the guide's script's. orderScope is the description of
// read:orders.
func tenantConfig(pub, orderScope, supportDescription string) string {
	return fmt.Sprintf(`
resource "tenant_resource_server" "orders" {
  identifier                                      = "https://orders.example.com"
  name                                            = "Orders"
  token_lifetime                                  = 3600
  allow_offline_access                            = true
  enforce_policies                                = true
  token_dialect                                   = "access_token_authz"
  skip_consent_for_verifiable_first_party_clients = true
  scopes = {
    "read:orders"  = %[2]q
    "write:orders" = "Write orders"
  }
}

resource "tenant_resource_server" "billing" {
  identifier     = "https://billing.example.com"
  name           = "Billing"
  signing_alg    = "HS256"
  signing_secret = "0123456789abcdef0123"
  token_encryption = {
    format = "compact-nested-jwe"
    encryption_key = {
      name = "billing-key"
      alg  = "RSA-OAEP-256"
      kid  = "billing-1"
      pem  = %[1]q
    }
  }
  proof_of_possession = { mechanism = "dpop", required = true }
  scopes = {
    "read:invoices" = "Read invoices"
  }
}

resource "tenant_role" "support" {
  name        = "support"
  description = %[3]q
}

resource "tenant_role_permissions" "support" {
  role_id = tenant_role.support.id
  permissions = {
    (tenant_resource_server.orders.identifier)  = ["read:orders"]
    (tenant_resource_server.billing.identifier) = ["read:invoices"]
  }
}

resource "tenant_role" "admin" {
  name = "admin"
}

resource "tenant_role" "team" {
  for_each = toset(["ops", "dev"])
  name     = "team-${each.key}"
}

resource "tenant_role_permission" "ops" {
  count                      = 2
  role_id                    = tenant_role.team["ops"].id
  resource_server_identifier = tenant_resource_server.orders.identifier
  permission_name            = ["read:orders", "write:orders"][count.index]
}

resource "tenant_role_permission" "admin_write" {
  role_id                    = tenant_role.admin.id
  resource_server_identifier = tenant_resource_server.orders.identifier
  permission_name            = "write:orders"
}

resource "tenant_action" "exchange" {
  name               = "exchange"
  runtime            = "node22"
  code               = "exports.onExecuteCustomTokenExchange = async (event, api) => {};"
  supported_triggers = { id = "custom-token-exchange", version = "v1" }
  dependencies       = { jose = { version = "5.9.6" } }
  # In the order of their names.
  secrets = [
    { name = "API_KEY", value = "aa-api" },
    { name = "SIGNING_KEY", value = "zz-signing" },
  ]
}

resource "tenant_action" "login" {
  name               = "login"
  runtime            = "node22"
  code               = "exports.onExecutePostLogin = async (event, api) => {};"
  supported_triggers = { id = "post-login", version = "v3" }
  secrets_wo         = [{ name = "TOKEN", value = "wo-value" }]
  secrets_wo_version = 3
}

resource "tenant_token_exchange_profile" "cis" {
  name               = "cis"
  subject_token_type = "https://acme.example.com/cis-token"
  action_id          = tenant_action.exchange.id
  type               = "custom_authentication"
}

resource "tenant_client" "exchange" {
  name              = "exchange-app"
  description       = "Exchanges CIS tokens"
  app_type          = "regular_web"
  oidc_conformant   = true
  callbacks         = ["https://app.example.com/callback"]
  grant_types       = ["authorization_code", "refresh_token", "client_credentials"]
  client_metadata   = { team = "identity" }
  jwt_configuration = { alg = "RS256" }
  token_exchange    = { allow_any_profile_of_type = ["custom_authentication"] }
}

resource "tenant_client_grant" "exchange_orders" {
  client_id = tenant_client.exchange.client_id
  audience  = tenant_resource_server.orders.identifier
  scopes    = ["read:orders"]
}

resource "tenant_trigger_actions" "login" {
  trigger = "post-login"
  actions = [{ id = tenant_action.login.id, display_name = "Login" }]
}

# The auth token moves to credentials_wo; version 0 (what the move sets)
# sends nothing.
resource "tenant_phone_provider" "sms" {
  name = "twilio"
  configuration = {
    delivery_methods = ["text", "voice"]
    sid              = "AC0123"
    default_from     = "+15550001111"
  }
  credentials_wo         = { auth_token = "twilio-token" }
  credentials_wo_version = 0
}

removed {
  from = auth0_resource_server_scopes.orders
  lifecycle {
    destroy = false
  }
}

removed {
  from = auth0_resource_server_scope.invoices
  lifecycle {
    destroy = false
  }
}
`, pub, orderScope, supportDescription)
}

// TestMigrateGuide follows docs/guides/migrate.md from its text, in the
// working folder of a tenant the incumbent provider manages (applied
// first, with the incumbent's AUTH0_* variables, which both providers
// read): the providers block, init, the guide's script for the moved
// blocks, the configuration rewritten as the guide's table says, the plan
// that shows every move and nothing to add, change or destroy, and its
// apply, which sends no write to the tenant; the next plan is empty. Then
// the incumbent is dropped, the incumbent's import IDs import the same
// objects, and an edit applies.
func TestMigrateGuide(t *testing.T) {
	t.Parallel() // a folder, a home and an emulator of its own
	requireAcc(t)
	acctest.RequireIncumbent(t)
	emu, err := emulator.Start(emulator.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	token, err := acctest.IncumbentToken(emu)
	if err != nil {
		t.Fatal(err)
	}
	pub := rsaPublicKeyPEM(t)

	// The reader's working folder: a configuration of the incumbent, applied;
	// their CLI configuration installs both providers from a mirror.
	r := newReader(t)
	r.env = append(r.env, "SSL_CERT_FILE="+emu.CAFile(),
		"AUTH0_DOMAIN="+strings.TrimPrefix(emu.Domain(), "https://"), "AUTH0_API_TOKEN="+token)
	if _, err := acctest.PrepareCLI(r.dir, map[string]string{
		"versions.tf": fmt.Sprintf("terraform {\n  required_providers {\n    auth0 = {\n      source  = \"auth0/auth0\"\n      version = %q\n    }\n  }\n}\n\nprovider \"auth0\" {}\n", acctest.IncumbentVersion),
		"main.tf":     incumbentConfig(pub),
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(r.dir, ".terraformrc"), filepath.Join(r.home, ".terraformrc")); err != nil {
		t.Fatal(err)
	}
	r.terraform("init -input=false -no-color")
	r.terraform("apply -auto-approve -input=false -no-color")
	incumbentIDs := stateIDs(t, r.terraform("show -json -no-color"))

	// The reader's install is there already: the test's mirror holds both
	// providers.
	r.step("install the provider as the README's Install section says", `terraform-provider-tenant#install`, func(*reader) {})
	r.hookOn("moved-blocks.sh moved.tf", roleRun, hook{
		after: func(r *reader, b *guideBlock) {
			moved := r.read("moved.tf")
			for _, m := range movedTypes {
				if !strings.Contains(moved, fmt.Sprintf("moved {\n  from = %s\n  to   = %s\n}\n", m[0], m[1])) {
					t.Fatalf("moved-blocks.sh wrote no block from %s to %s:\n%s", m[0], m[1], moved)
				}
			}
			if n := strings.Count(moved, "moved {"); n != len(movedTypes) {
				t.Fatalf("moved-blocks.sh wrote %d blocks, want %d (the scope resources do not move):\n%s", n, len(movedTypes), moved)
			}
		},
	})
	r.hooks = append(r.hooks, &hook{
		name:  "the example of a moved block",
		match: func(b *guideBlock) bool { return b.Role == roleExcerpt && strings.HasPrefix(b.Text, "moved {") },
		after: func(r *reader, b *guideBlock) {
			if !strings.Contains(r.read("moved.tf"), b.Text) {
				t.Fatalf("%s is not a block the script wrote:\n%s", b, r.read("moved.tf"))
			}
		},
	})
	// The reader rewrites the configuration as the guide's table says.
	r.hookOn(`resource "tenant_role_permissions" "support"`, roleExcerpt, hook{
		after: func(r *reader, b *guideBlock) { r.write("main.tf", tenantConfig(pub, "Read orders", "Support staff")) },
	})
	var planStats emulator.Stats
	r.hookOn("terraform plan -out=switch.tfplan", roleRun, hook{
		before: func(r *reader, b *guideBlock) { emu.ResetStats() },
		after: func(r *reader, b *guideBlock) {
			plan := r.lastOut
			planStats = emu.Stats()
			for from := range incumbentIDs {
				to, ok := movedInstance(from)
				if ok && !strings.Contains(plan, fmt.Sprintf("# %s has moved to %s", from, to)) && !strings.Contains(plan, "(moved from "+from+")") {
					t.Errorf("the plan does not show %s moved to %s:\n%s", from, to, plan)
				}
			}
			want := "Plan: 0 to add, 0 to change, 0 to destroy"
			if acctest.OpenTofu(t) {
				// OpenTofu plans an update when only a value's sensitivity
				// marking changes: the incumbent marked an action's whole
				// secrets list, this provider marks the values (the guide
				// says so). The apply sends nothing (below).
				want = "Plan: 0 to add, 1 to change, 0 to destroy"
				changed := strings.Join(acctest.ChangedLines(plan), "\n")
				if changed != "~ resource \"tenant_action\" \"exchange\" {\n~ secrets = (sensitive value)\n~ secrets_wo = (write-only attribute)" ||
					!strings.Contains(plan, "will no longer be marked as sensitive") {
					t.Fatalf("OpenTofu plans another change than the secrets' marking:\n%s", plan)
				}
			}
			if !strings.Contains(plan, want) {
				t.Fatalf("the switch plans changes; want %q:\n%s", want, plan)
			}
			if n := acctest.Writes(planStats.ByRoute); n != 0 {
				t.Fatalf("the plan sent %d write(s): %v", n, planStats.ByRoute)
			}
		},
	})
	r.hookOn("terraform apply switch.tfplan", roleRun, hook{
		before: func(r *reader, b *guideBlock) { emu.ResetStats() },
		after: func(r *reader, b *guideBlock) {
			applyStats := emu.Stats()
			if n := acctest.Writes(applyStats.ByRoute); n != 0 {
				t.Fatalf("the switch's apply sent %d write(s): %v", n, applyStats.ByRoute)
			}
			t.Logf("the switch of %d resources: plan %d requests (%s), apply %d requests, 0 writes",
				len(movedTypes), planStats.Total, routes(planStats.ByRoute), applyStats.Total)
		},
	})
	r.walk(readGuide(t, "migrate"))
	if out, err := r.runOnce("terraform plan -input=false -no-color -detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the switch is not empty: %v\n%s", err, out)
	}

	// After the switch (the guide's step 5): the incumbent is no longer
	// needed.
	r.write("versions.tf", fmt.Sprintf("terraform {\n  required_providers {\n    tenant = {\n      source  = \"tenant-iac/tenant\"\n      version = %q\n    }\n  }\n}\n\nprovider \"tenant\" {}\n", acctest.CLIVersion))
	if err := os.Remove(filepath.Join(r.dir, "moved.tf")); err != nil {
		t.Fatal(err)
	}
	r.write("main.tf", strings.Split(tenantConfig(pub, "Read orders", "Support staff"), "removed {")[0])
	r.terraform("init -input=false -no-color")
	if out, err := r.runOnce("terraform plan -input=false -no-color -detailed-exitcode"); err != nil {
		t.Fatalf("the plan without the incumbent is not empty: %v\n%s", err, out)
	}

	// The import IDs of the incumbent's users name the same objects.
	for from, id := range incumbentIDs {
		to, ok := movedInstance(from)
		if !ok || strings.HasPrefix(to, "tenant_action.") {
			continue // an import cannot read secrets: the adoption guide's case
		}
		r.terraform(fmt.Sprintf("state rm -no-color '%s'", to))
		r.terraform(fmt.Sprintf("import -input=false -no-color '%s' '%s'", to, id))
	}
	// The tenant never returns a key's PEM, so after an import the one API
	// with token encryption sends its key again (as its documentation says),
	// and that is the only change.
	plan := r.terraform("plan -input=false -no-color")
	if !strings.Contains(plan, "Plan: 0 to add, 1 to change, 0 to destroy") || !strings.Contains(plan, "# tenant_resource_server.billing will be updated in-place") ||
		!regexp.MustCompile(`\+ pem\s+= \(sensitive value\)`).MatchString(plan) {
		t.Fatalf("the plan after importing by the incumbent's ids:\n%s", plan)
	}
	r.terraform("apply -auto-approve -input=false -no-color")
	if out, err := r.runOnce("terraform plan -input=false -no-color -detailed-exitcode"); err != nil {
		t.Fatalf("the plan after importing by the incumbent's ids is not empty: %v\n%s", err, out)
	}

	// An edit after the switch applies.
	r.write("main.tf", strings.Split(tenantConfig(pub, "Read all orders", "Support and billing staff"), "removed {")[0])
	r.terraform("apply -auto-approve -input=false -no-color")
	hc, err := acctest.EmulatorHTTPClient(emu)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), APIToken: token, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	role, err := c.GetRole(context.Background(), incumbentIDs["auth0_role.support"])
	if err != nil || role.Description != "Support and billing staff" {
		t.Fatalf("the role after the edit: %+v, %v", role, err)
	}
	rs, err := c.GetResourceServer(context.Background(), incumbentIDs["auth0_resource_server.orders"])
	if err != nil || rs.Scopes == nil || !hasScope(*rs.Scopes, "read:orders", "Read all orders") {
		t.Fatalf("the API after the edit: %+v, %v", rs, err)
	}
	if out, err := r.runOnce("terraform plan -input=false -no-color -detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the edit is not empty: %v\n%s", err, out)
	}
	r.terraform("destroy -auto-approve -input=false -no-color")
}

// TestMigrateFromIncumbent_generatedSigningSecret: an HS256 API whose
// signing secret the tenant generated (the incumbent keeps it in its
// state, the configuration does not set it) moves with one update, the
// one change of the plan, which takes the secret out of the state and
// leaves it in the tenant; the next plan is empty.
func TestMigrateFromIncumbent_generatedSigningSecret(t *testing.T) {
	api := func(typ string) string {
		return fmt.Sprintf("\nresource %q \"signed\" {\n  identifier  = \"https://signed.example.com\"\n  name        = \"Signed\"\n  signing_alg = \"HS256\"\n}\n", typ)
	}
	emu, token, cli, run := incumbentCLI(t, api("auth0_resource_server"))
	run("apply", "-auto-approve", "-input=false", "-no-color")
	secret := stateValue(t, run("show", "-json", "-no-color"), "auth0_resource_server.signed", "signing_secret")
	if secret == "" {
		t.Fatal("the incumbent's state holds no generated signing secret; this test is for one that does")
	}
	cli.Write(t, "main.tf", api("tenant_resource_server")+"\nmoved {\n  from = auth0_resource_server.signed\n  to   = tenant_resource_server.signed\n}\n")
	plan := run("plan", "-input=false", "-no-color", "-out=switch.tfplan")
	if !strings.Contains(plan, "Plan: 0 to add, 1 to change, 0 to destroy") || !regexp.MustCompile(`- signing_secret\s+= \(sensitive value\) -> null`).MatchString(plan) {
		t.Fatalf("the switch's plan, want one update of signing_secret:\n%s", plan)
	}
	emu.ResetStats()
	run("apply", "-input=false", "-no-color", "switch.tfplan")
	t.Logf("the switch's apply: %v", emu.Stats().ByRoute)
	if got := stateValue(t, run("show", "-json", "-no-color"), "tenant_resource_server.signed", "signing_secret"); got != "" {
		t.Fatal("the state holds the signing secret after the switch")
	}
	c := tenantAPI(t, emu, token)
	rs, err := c.GetResourceServer(context.Background(), "https://signed.example.com")
	if err != nil || rs.SigningSecret == nil || *rs.SigningSecret != secret {
		t.Fatalf("the tenant's API after the switch does not hold the generated signing secret: %v", err)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the switch is not empty: %v\n%s", err, out)
	}
	run("destroy", "-auto-approve", "-input=false", "-no-color")
}

// incumbentCLI starts an emulator (TLS, which the incumbent needs) and a
// CLI whose configuration requires both providers, with main.tf, and
// whose environment gives the incumbent's AUTH0_* variables only; run runs
// a command and fails the test on an error. It skips without TF_ACC or the
// incumbent provider.
func incumbentCLI(t *testing.T, main string) (emu *emulator.Server, token string, cli *acctest.CLI, run func(args ...string) string) {
	t.Helper()
	requireAcc(t)
	acctest.RequireIncumbent(t)
	emu, err := emulator.Start(emulator.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	token, err = acctest.IncumbentToken(emu)
	if err != nil {
		t.Fatal(err)
	}
	versions := fmt.Sprintf(migrateVersions, acctest.IncumbentVersion, acctest.CLIVersion)
	cli = acctest.NewCLI(t, map[string]string{"versions.tf": versions, "main.tf": main})
	cli.Env = append(cli.Env, "SSL_CERT_FILE="+emu.CAFile(),
		"AUTH0_DOMAIN="+strings.TrimPrefix(emu.Domain(), "https://"), "AUTH0_API_TOKEN="+token,
		"TENANT_DOMAIN=", "TENANT_CLIENT_ID=", "TENANT_CLIENT_SECRET=", "TENANT_API_TOKEN=")
	run = func(args ...string) string {
		t.Helper()
		out, err := cli.Run(args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	return emu, token, cli, run
}

// tenantAPI is a client of the emulator's Management API with token.
func tenantAPI(t *testing.T, emu *emulator.Server, token string) *mgmt.Client {
	t.Helper()
	hc, err := acctest.EmulatorHTTPClient(emu)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), APIToken: token, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stateValue is the string attribute attr of the resource at address in
// `show -json` output ("" when null or absent).
func stateValue(t *testing.T, show, address, attr string) string {
	t.Helper()
	values, ok := stateValues(t, show)[address]
	if !ok {
		t.Fatalf("show -json has no %s", address)
	}
	v, _ := values[attr].(string)
	return v
}

// stateIDs maps each resource address of `show -json` output to its id.
func stateIDs(t *testing.T, show string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for address, values := range stateValues(t, show) {
		ids[address], _ = values["id"].(string)
	}
	return ids
}

// stateValues maps each resource address of `show -json` output to its
// values.
func stateValues(t *testing.T, show string) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(show), &doc); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	out := map[string]map[string]any{}
	for _, r := range doc.Values.RootModule.Resources {
		out[r.Address] = r.Values
	}
	return out
}

// routes lists request counts by route, sorted.
func routes(byRoute map[string]int64) string {
	var out []string
	for route, n := range byRoute {
		out = append(out, fmt.Sprintf("%s ×%d", route, n))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func hasScope(scopes []mgmt.ResourceServerScope, value, description string) bool {
	for _, s := range scopes {
		if s.Value == value {
			return s.Description == description
		}
	}
	return false
}

func rsaPublicKeyPEM(t *testing.T) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// repoRoot is the repository's root folder, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
