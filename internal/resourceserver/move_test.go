package resourceserver_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/resourceserver"
)

const incumbent = "registry.terraform.io/auth0/auth0"

// A state the incumbent wrote (schema version 0): disabled blocks for the
// objects the API does not hold, the text "null" for a cleared consent
// policy, "" for unset strings.
const incumbentServerState = `{"allow_offline_access": true, "allow_online_access": false,
 "allow_online_access_with_ephemeral_sessions": false, "authorization_details": [{"disable": true, "type": ""}],
 "authorization_policy": [], "client_id": "", "consent_policy": "null", "enforce_policies": true,
 "id": "7c0321d9d250f61b51b9e202", "identifier": "https://orders.example.com", "is_system": false, "name": "Orders",
 "proof_of_possession": [{"disable": false, "mechanism": "dpop", "required": true, "required_for": ""}],
 "signing_alg": "HS256", "signing_secret": "0123456789abcdef0123", "skip_consent_for_verifiable_first_party_clients": true,
 "subject_type_authorization": [{"client": [{"policy": "require_client_grant"}], "user": [{"policy": "allow_all"}]}],
 "token_dialect": "access_token_authz",
 "token_encryption": [{"disable": false, "format": "compact-nested-jwe",
   "encryption_key": [{"name": "k1", "algorithm": "RSA-OAEP-256", "kid": "kid-1", "pem": "-----BEGIN PUBLIC KEY-----\nMII\n-----END PUBLIC KEY-----\n"}]}],
 "token_lifetime": 3600, "token_lifetime_for_web": 3600, "verification_location": ""}`

func TestMoveState_fromIncumbent(t *testing.T) {
	state, identity, moved, diags := acctest.MoveState(t, resourceserver.NewResource(), incumbent, "auth0_resource_server", incumbentServerState)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	ctx := context.Background()
	str := func(p path.Path) types.String {
		var v types.String
		if d := state.GetAttribute(ctx, p, &v); d.HasError() {
			t.Fatal(d)
		}
		return v
	}
	for p, want := range map[string]types.String{
		"id":             types.StringValue("7c0321d9d250f61b51b9e202"),
		"name":           types.StringValue("Orders"),
		"signing_secret": types.StringValue("0123456789abcdef0123"),
		"token_dialect":  types.StringValue("access_token_authz"),
		"consent_policy": types.StringNull(),
	} {
		if got := str(path.Root(p)); !got.Equal(want) {
			t.Errorf("%s = %s, want %s", p, got, want)
		}
	}
	key := path.Root("token_encryption").AtName("encryption_key")
	if got := str(key.AtName("alg")); got.ValueString() != "RSA-OAEP-256" {
		t.Errorf("the key's algorithm = %s", got)
	}
	if got := str(key.AtName("pem")); got.ValueString() == "" {
		t.Error("the key's PEM, which the tenant never returns, did not come over")
	}
	if got := str(path.Root("proof_of_possession").AtName("mechanism")); got.ValueString() != "dpop" {
		t.Errorf("proof_of_possession.mechanism = %s", got)
	}
	var details types.List
	var policy types.Object
	state.GetAttribute(ctx, path.Root("authorization_details"), &details)
	state.GetAttribute(ctx, path.Root("authorization_policy"), &policy)
	if !details.IsNull() || !policy.IsNull() {
		t.Errorf("authorization_details = %s, authorization_policy = %s: want null, as the incumbent's blocks were disabled or empty", details, policy)
	}
	var id types.String
	identity.GetAttribute(ctx, path.Root("id"), &id)
	if id.ValueString() != "7c0321d9d250f61b51b9e202" {
		t.Errorf("identity id = %s", id)
	}
}

// TestMoveState_otherSources: a resource of another type or provider is not
// taken (Terraform then says the move is not supported), and a state of a
// schema version the move does not know is refused with what to do.
func TestMoveState_otherSources(t *testing.T) {
	r := resourceserver.NewResource()
	if _, _, moved, diags := acctest.MoveState(t, r, incumbent, "auth0_client", incumbentServerState); moved || diags.HasError() {
		t.Errorf("another type: moved %v, %v", moved, diags)
	}
	if _, _, moved, diags := acctest.MoveState(t, r, "registry.terraform.io/acme/auth0", "auth0_resource_server", incumbentServerState); moved || diags.HasError() {
		t.Errorf("another provider: moved %v, %v", moved, diags)
	}
	if _, _, moved, diags := acctest.MoveState(t, r, "registry.opentofu.org/auth0/auth0", "auth0_resource_server", incumbentServerState); !moved || diags.HasError() {
		t.Errorf("the incumbent from OpenTofu's registry: moved %v, %v", moved, diags)
	}
}
