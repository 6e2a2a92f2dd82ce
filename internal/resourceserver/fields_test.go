package resourceserver_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
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

// publicKeyPEM is a fresh RSA public key, PEM-encoded.
func publicKeyPEM(t *testing.T) string {
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

// TestAccResourceServer_allFields sets every argument the API has, changes
// each, imports, repairs drift made outside Terraform (the encryption key
// included) and removes them all, checking the tenant at each step.
func TestAccResourceServer_allFields(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	key1, key2, key3 := publicKeyPEM(t), publicKeyPEM(t), publicKeyPEM(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	thumb := statecheck.CompareValue(compare.ValuesDiffer())
	var id string
	tenant := func() *mgmt.ResourceServer {
		s, err := target.Client().GetResourceServer(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccServerConfig_allFields(ident, "allow_all", "mtls", "public_clients", "payment", key1, "pol_1")),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					thumb.AddStateValue(addr, tfjsonpath.New("token_encryption").AtMapKey("encryption_key").AtMapKey("thumbprint_sha256")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_type_authorization"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"user":   knownvalue.ObjectExact(map[string]knownvalue.Check{"policy": knownvalue.StringExact("allow_all")}),
						"client": knownvalue.ObjectExact(map[string]knownvalue.Check{"policy": knownvalue.StringExact("deny_all")}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_encryption").AtMapKey("encryption_key").AtMapKey("pem"), knownvalue.StringExact(key1)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(s *terraform.State) error {
					id = s.RootModule().Resources[addr].Primary.ID
					got := tenant()
					switch {
					case got.AllowOnlineAccess == nil || !*got.AllowOnlineAccess || got.AllowOnlineAccessWithEphemeralSessions == nil || !*got.AllowOnlineAccessWithEphemeralSessions:
						return fmt.Errorf("online access not set: %v %v", got.AllowOnlineAccess, got.AllowOnlineAccessWithEphemeralSessions)
					case got.ConsentPolicy == nil || *got.ConsentPolicy != "transactional-authorization-with-mfa":
						return fmt.Errorf("consent_policy %v", got.ConsentPolicy)
					case got.ProofOfPossession == nil || got.ProofOfPossession.Mechanism != "mtls" || got.ProofOfPossession.RequiredFor != "public_clients":
						return fmt.Errorf("proof_of_possession %+v", got.ProofOfPossession)
					case got.TokenEncryption == nil || got.TokenEncryption.EncryptionKey.ThumbprintSHA256 == "" || got.TokenEncryption.EncryptionKey.PEM != "":
						return fmt.Errorf("token_encryption %+v", got.TokenEncryption)
					case got.AuthorizationPolicy == nil || got.AuthorizationPolicy.PolicyID != "pol_1":
						return fmt.Errorf("authorization_policy %+v", got.AuthorizationPolicy)
					case got.AuthorizationDetails == nil || len(*got.AuthorizationDetails) != 1:
						return fmt.Errorf("authorization_details %v", got.AuthorizationDetails)
					}
					return nil
				},
			},
			{
				// The PEM cannot be read back: it is the one value import cannot verify.
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token_encryption.encryption_key.pem"},
			},
			{
				Config: target.Config(testAccServerConfig_allFields(ident, "require_client_grant", "dpop", "all_clients", "payment_initiation", key2, "pol_2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(addr, tfjsonpath.New("id")),
					thumb.AddStateValue(addr, tfjsonpath.New("token_encryption").AtMapKey("encryption_key").AtMapKey("thumbprint_sha256")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("proof_of_possession").AtMapKey("mechanism"), knownvalue.StringExact("dpop")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("authorization_policy").AtMapKey("policy_id"), knownvalue.StringExact("pol_2")),
				},
			},
			{
				// Drift: proof of possession and the encryption key changed outside.
				Config: target.Config(testAccServerConfig_allFields(ident, "require_client_grant", "dpop", "all_clients", "payment_initiation", key2, "pol_2")),
				PreConfig: func() {
					_, err := target.Client().UpdateResourceServer(context.Background(), id, mgmt.ResourceServerUpdate{
						ProofOfPossession: mgmt.Null[mgmt.ProofOfPossession](),
						TokenEncryption: mgmt.Set(mgmt.TokenEncryption{Format: "compact-nested-jwe", EncryptionKey: mgmt.EncryptionKey{
							Alg: "RSA-OAEP-512", PEM: key3,
						}}),
					})
					if err != nil {
						t.Fatal(err)
					}
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					got := tenant()
					if got.ProofOfPossession == nil || got.TokenEncryption == nil || got.TokenEncryption.EncryptionKey.Alg != "RSA-OAEP-384" {
						return fmt.Errorf("drift not repaired: %+v %+v", got.ProofOfPossession, got.TokenEncryption)
					}
					return nil
				},
			},
			{
				// Removing every argument returns to the defaults.
				Config: target.Config(testAccServerConfig_named(ident, "All fields")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_type_authorization"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"user":   knownvalue.ObjectExact(map[string]knownvalue.Check{"policy": knownvalue.StringExact("allow_all")}),
						"client": knownvalue.ObjectExact(map[string]knownvalue.Check{"policy": knownvalue.StringExact("require_client_grant")}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token_encryption"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error {
					got := tenant()
					switch {
					case got.AllowOnlineAccess != nil && *got.AllowOnlineAccess:
						return fmt.Errorf("allow_online_access still true")
					case got.AllowOnlineAccessWithEphemeralSessions != nil && *got.AllowOnlineAccessWithEphemeralSessions:
						return fmt.Errorf("allow_online_access_with_ephemeral_sessions still true")
					case got.ConsentPolicy != nil, got.ProofOfPossession != nil, got.TokenEncryption != nil, got.AuthorizationPolicy != nil:
						return fmt.Errorf("a setting is left: %+v", got)
					case got.AuthorizationDetails != nil && len(*got.AuthorizationDetails) > 0:
						return fmt.Errorf("authorization_details left: %v", *got.AuthorizationDetails)
					case got.SubjectTypeAuthorization == nil || got.SubjectTypeAuthorization.Client.Policy != "require_client_grant" ||
						got.SubjectTypeAuthorization.User.Policy != "allow_all":
						return fmt.Errorf("subject_type_authorization %+v", got.SubjectTypeAuthorization)
					}
					return nil
				},
			},
		},
	})
}

// TestAccResourceServer_subjectTypeAuthorizationOneSide: setting one side
// keeps the default of the other, and removing it returns to the default.
func TestAccResourceServer_subjectTypeAuthorizationOneSide(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(resourceserver.TypeName, getServer),
		Steps: []resource.TestStep{
			{
				Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier                 = %[1]q
  subject_type_authorization = { user = { policy = "deny_all" } }
}
`, ident)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_type_authorization").AtMapKey("client").AtMapKey("policy"),
						knownvalue.StringExact("require_client_grant")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: target.Config(testAccServerConfig_named(ident, "One side")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subject_type_authorization").AtMapKey("user").AtMapKey("policy"),
						knownvalue.StringExact("allow_all")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccResourceServer_fieldValidation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`subject_type_authorization = { user = { policy = "nobody" } }`, `policy value must be one of`},
		{`subject_type_authorization = { client = { policy = "allow_all" } }`, `policy value must be one of: \["deny_all" "require_client_grant"\]`},
		{`consent_policy = "always"`, `Attribute consent_policy value must be one of`},
		{`authorization_details = []`, `Attribute authorization_details list must contain at least 1 elements, got: 0`},
		{`authorization_details = [{ type = "" }]`, `UTF-8 character count must be between 1 and 255, got: 0`},
		{`proof_of_possession = { mechanism = "tls", required = true }`, `mechanism value must be one of`},
		{`proof_of_possession = { mechanism = "dpop", required = true, required_for = "everyone" }`, `required_for value must be one of`},
		{`proof_of_possession = { mechanism = "dpop" }`, `attribute "required" is required`},
		{`token_encryption = { format = "jwe", encryption_key = { alg = "RSA-OAEP-256", pem = "x" } }`, `format value must be one of`},
		{`token_encryption = { format = "compact-nested-jwe", encryption_key = { alg = "RSA1_5", pem = "x" } }`, `alg value must be one of`},
		{`token_encryption = { format = "compact-nested-jwe", encryption_key = { alg = "RSA-OAEP-256" } }`, `attribute "pem" is required`},
		{`authorization_policy = { policy_id = "" }`, `UTF-8 character count must be between 1 and 255, got: 0`},
	} {
		cases = append(cases, acctest.PlanError{
			Config: "resource \"tenant_resource_server\" \"test\" {\n  identifier = \"https://v\"\n  " + tc.body + "\n}",
			Want:   tc.want,
		})
	}
	target.ExpectPlanErrors(t, cases)
}

func testAccServerConfig_allFields(ident, userPolicy, mechanism, requiredFor, detail, key, policy string) string {
	alg := map[string]string{"mtls": "RSA-OAEP-256", "dpop": "RSA-OAEP-384"}[mechanism]
	return fmt.Sprintf(`
resource "tenant_resource_server" "test" {
  identifier                                  = %[1]q
  name                                        = "All fields"
  allow_online_access                         = true
  allow_online_access_with_ephemeral_sessions = true
  consent_policy                              = "transactional-authorization-with-mfa"
  subject_type_authorization = {
    user   = { policy = %[2]q }
    client = { policy = "deny_all" }
  }
  authorization_details = [{ type = %[5]q }]
  proof_of_possession = {
    mechanism    = %[3]q
    required     = true
    required_for = %[4]q
  }
  token_encryption = {
    format = "compact-nested-jwe"
    encryption_key = {
      name = "tokens"
      alg  = %[8]q
      kid  = "key-1"
      pem  = %[6]q
    }
  }
  authorization_policy = { policy_id = %[7]q }
}
`, ident, userPolicy, mechanism, requiredFor, detail, key, policy, alg)
}
