package e2e_test

import (
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
)

// TestBadInput_catalogue plans every bad value the schema can know about:
// each side of every bound, wrong types and unknown attributes. Each must
// fail with a diagnostic that names the attribute, and no request may reach
// the API. (The action's bounds are checked at the protocol level in
// internal/phoneprovider, since Terraform 1.11 cannot plan actions.)
func TestBadInput_catalogue(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	const action = "00000000-0000-4000-8000-000000000000"
	profile := func(attrs string) string {
		return "resource \"tenant_token_exchange_profile\" \"x\" {\n" + attrs + "\n}\n"
	}
	base := map[string]string{"name": `"valid-name"`, "subject_token_type": `"urn:acme:valid"`, "action_id": `"` + action + `"`}
	with := func(k, v string) string {
		var lines []string
		for _, key := range []string{"name", "subject_token_type", "action_id"} {
			val := base[key]
			if key == k {
				val = v
			}
			lines = append(lines, "  "+key+" = "+val)
		}
		if k == "type" {
			lines = append(lines, "  type = "+v)
		}
		return profile(strings.Join(lines, "\n"))
	}
	cases := []struct{ name, config, want string }{
		{"profile name 2", with("name", `"ab"`), `Attribute name UTF-8 character count must be between 3 and 50, got: 2`},
		{"profile name 51", with("name", `"`+strings.Repeat("n", 51)+`"`), `Attribute name UTF-8 character count must be between 3 and 50, got: 51`},
		{"subject_token_type 7", with("subject_token_type", `"urn:a:b"`), `Attribute subject_token_type UTF-8 character count must be between 8 and 100, got: 7`},
		{"subject_token_type 101", with("subject_token_type", `"urn:a:`+strings.Repeat("b", 95)+`"`), `Attribute subject_token_type UTF-8 character count must be between 8 and 100, got: 101`},
		{"subject_token_type not a URI", with("subject_token_type", `"just-some-text"`), `Attribute subject_token_type value must be an absolute URI`},
		{"subject_token_type reserved", with("subject_token_type", `"urn:okta:token"`), `Attribute subject_token_type must not start with the reserved prefix "urn:okta"`},
		{"action_id empty", with("action_id", `""`), `Attribute action_id UTF-8 character count must be between 1 and 36, got: 0`},
		{"action_id 37", with("action_id", `"`+strings.Repeat("a", 37)+`"`), `Attribute action_id UTF-8 character count must be between 1 and 36, got: 37`},
		{"type custom", with("type", `"custom"`), `Attribute type value must be one of: \["custom_authentication"\], got: "custom"`},
		{"profile unknown attribute", profile(`  name = "valid-name"
  subject_token_type = "urn:acme:valid"
  action_id = "x"
  colour = "blue"`), `An argument named "colour" is not expected here`},
		{"profile wrong type", with("name", `["a", "b"]`), `Inappropriate value for attribute "name": string required`},
		{"permissions empty", `resource "tenant_role_permissions" "x" {
  role_id     = "rol_x"
  permissions = {}
}`, `Attribute permissions map must contain at least 1 elements, got: 0`},
		{"permission name empty", `resource "tenant_role_permissions" "x" {
  role_id     = "rol_x"
  permissions = { "https://a" = [""] }
}`, `Attribute permissions\["https://a"\]\[.*\] UTF-8 character count must be between 1 and 280, got: 0`},
		{"permissions wrong type", `resource "tenant_role_permissions" "x" {
  role_id     = "rol_x"
  permissions = "read:all"
}`, `Inappropriate value for attribute "permissions"`},
		{"resource server unknown attribute", `resource "tenant_resource_server" "x" {
  identifier = "https://a"
  audience   = "https://a"
}`, `An argument named "audience" is not expected here`},
		{"permission missing key", `resource "tenant_role_permissions" "x" {
  role_id     = "rol_x"
  permissions = [{ resource_server_identifier = "https://a", permission_name = "p" }]
}`, `Inappropriate value for attribute "permissions": map of set of string required`},
		{"token_lifetime wrong type", `resource "tenant_resource_server" "x" {
  identifier     = "https://a"
  token_lifetime = "a day"
}`, `Inappropriate value for attribute "token_lifetime": a number is required`},
		{"token_lifetime above", `resource "tenant_resource_server" "x" {
  identifier     = "https://a"
  token_lifetime = 2592001
}`, `Attribute token_lifetime value must be between 0 and 2592000, got: 2592001`},
		{"identifier 601", `resource "tenant_resource_server" "x" {
  identifier = "` + strings.Repeat("i", 601) + `"
}`, `Attribute identifier UTF-8 character count must be between 1 and 600, got: 601`},
		{"signing_alg enum", `resource "tenant_resource_server" "x" {
  identifier  = "https://a"
  signing_alg = "none"
}`, `Attribute signing_alg value must be one of`},
		{"data source both keys", `data "tenant_role" "x" {
  id   = "rol_x"
  name = "x"
}`, `Invalid Attribute Combination`},
		{"data source no key", `data "tenant_resource_server" "x" {}`, `Missing Attribute Configuration`},
		{"resource server data source id .", `data "tenant_resource_server" "x" {
  id = "."
}`, `Attribute id must not be "." or ".."`},
		{"resource server data source identifier ..", `data "tenant_resource_server" "x" {
  identifier = ".."
}`, `Attribute identifier must not be "." or ".."`},
		{"role data source id ..", `data "tenant_role" "x" {
  id = ".."
}`, `Attribute id must not be "." or ".."`},
		{"profile data source id .", `data "tenant_token_exchange_profile" "x" {
  id = "."
}`, `Attribute id must not be "." or ".."`},
		{"role_permissions role_id ..", `resource "tenant_role_permissions" "x" {
  role_id     = ".."
  permissions = { "https://a" = ["p"] }
}`, `Attribute role_id must be a role id: rol_ followed by letters and digits`},
		{"resource server name 201 two-byte characters", `resource "tenant_resource_server" "x" {
  identifier = "https://a"
  name       = "` + strings.Repeat("é", 201) + `"
}`, `Attribute name UTF-8 character count must be between 1 and 200, got: 201`},
	}
	planErrors := make([]acctest.PlanError, 0, len(cases))
	for _, tc := range cases {
		planErrors = append(planErrors, acctest.PlanError{Config: tc.config, Want: tc.want})
	}
	target.ExpectPlanErrors(t, planErrors)
	t.Logf("%d bad inputs refused at plan time, 0 requests sent", len(cases))
}
