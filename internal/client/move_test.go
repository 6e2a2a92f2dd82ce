package client_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
)

const incumbent = "registry.terraform.io/auth0/auth0"

// A state of the incumbent's auth0_client (schema version 0): blocks as
// lists, "" for unset strings, skip_non_verifiable_... as a string, and
// families this provider leaves alone (addons, mobile).
const incumbentClientState = `{"addons": [], "allowed_clients": [], "allowed_logout_urls": ["https://app.example.com/bye"],
 "allowed_origins": [], "app_type": "regular_web", "async_approval_notification_channels": [],
 "callbacks": ["https://app.example.com/cb"], "client_aliases": [], "client_id": "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
 "client_metadata": {"team": "web"}, "compliance_level": "", "cross_origin_auth": false, "cross_origin_loc": "",
 "custom_login_page": "", "custom_login_page_on": true, "default_organization": [], "description": "The web app",
 "encryption_key": null, "express_configuration": [], "external_client_id": "", "form_template": "",
 "grant_types": ["authorization_code", "refresh_token"], "id": "AbCdEfGhIjKlMnOpQrStUvWxYz012345", "initiate_login_uri": "",
 "is_first_party": true, "is_token_endpoint_ip_header_trusted": false,
 "jwt_configuration": [{"alg": "RS256", "lifetime_in_seconds": 36000, "scopes": {}, "secret_encoded": false}],
 "logo_uri": "", "mobile": [], "name": "web", "native_social_login": [{"apple": [{"enabled": true}], "facebook": [{"enabled": false}], "google": []}],
 "oidc_backchannel_logout_urls": [], "oidc_conformant": true, "oidc_logout": [], "organization_discovery_methods": [],
 "organization_require_behavior": "", "organization_usage": "", "redirection_policy": "", "refresh_token": [{"expiration_type": "expiring",
 "idle_token_lifetime": 1296000, "infinite_idle_token_lifetime": false, "infinite_token_lifetime": false, "leeway": 0,
 "policies": [], "rotation_type": "rotating", "token_lifetime": 2592000}], "require_proof_of_possession": false,
 "require_pushed_authorization_requests": false, "resource_server_identifier": "", "session_transfer": [],
 "signing_keys": [{"cert": "-----BEGIN CERTIFICATE-----"}], "skip_non_verifiable_callback_uri_confirmation_prompt": "true",
 "sso": false, "sso_disabled": false, "third_party_security_mode": "",
 "token_exchange": [{"allow_any_profile_of_type": ["custom_authentication"]}], "token_quota": [], "web_origins": []}`

func TestMoveState_client(t *testing.T) {
	state, identity, moved, diags := acctest.MoveState(t, client.NewResource(), incumbent, "auth0_client", incumbentClientState)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	ctx := context.Background()
	get := func(p path.Path, v any) {
		t.Helper()
		if d := state.GetAttribute(ctx, p, v); d.HasError() {
			t.Fatal(d)
		}
	}
	var id, name, description, secret, appType types.String
	var rotation types.String
	get(path.Root("id"), &id)
	get(path.Root("name"), &name)
	get(path.Root("description"), &description)
	get(path.Root("client_secret"), &secret)
	get(path.Root("app_type"), &appType)
	get(path.Root("refresh_token").AtName("rotation_type"), &rotation)
	if id.ValueString() != "AbCdEfGhIjKlMnOpQrStUvWxYz012345" || name.ValueString() != "web" || description.ValueString() != "The web app" ||
		!secret.IsNull() || appType.ValueString() != "regular_web" || rotation.ValueString() != "rotating" {
		t.Errorf("id %s name %s description %s secret %s app_type %s rotation %s", id, name, description, secret, appType, rotation)
	}
	var exchange, logout types.Object
	var callbacks, origins types.List
	var apple, skip, inState types.Bool
	get(path.Root("token_exchange"), &exchange)
	get(path.Root("oidc_logout"), &logout)
	get(path.Root("callbacks"), &callbacks)
	get(path.Root("allowed_origins"), &origins)
	get(path.Root("native_social_login").AtName("apple").AtName("enabled"), &apple)
	get(path.Root("skip_non_verifiable_callback_uri_confirmation_prompt"), &skip)
	get(path.Root("client_secret_in_state"), &inState)
	if exchange.IsNull() || !logout.IsNull() || len(callbacks.Elements()) != 1 || !origins.IsNull() || !apple.ValueBool() || !skip.ValueBool() || inState.ValueBool() {
		t.Errorf("token_exchange %s oidc_logout %s callbacks %s allowed_origins %s apple %s skip %s client_secret_in_state %s",
			exchange, logout, callbacks, origins, apple, skip, inState)
	}
	var identityID types.String
	identity.GetAttribute(ctx, path.Root("id"), &identityID)
	if identityID.ValueString() != "AbCdEfGhIjKlMnOpQrStUvWxYz012345" {
		t.Errorf("identity id = %s", identityID)
	}
	if _, _, moved, diags := acctest.MoveState(t, client.NewResource(), incumbent, "auth0_client_grant", incumbentClientState); moved || diags.HasError() {
		t.Errorf("another type: moved %v, %v", moved, diags)
	}
}

const incumbentGrantState = `{"allow_all_scopes": false, "allow_any_organization": false, "audience": "https://orders.example.com",
 "authorization_details_types": [], "client_id": "AbCdEfGhIjKlMnOpQrStUvWxYz012345", "default_for": "", "id": "cgr_0123456789abcdef",
 "is_system": false, "organization_usage": "", "scopes": ["read:orders", "write:orders"], "subject_type": "client"}`

func TestMoveState_grant(t *testing.T) {
	state, identity, moved, diags := acctest.MoveState(t, client.NewGrantResource(), incumbent, "auth0_client_grant", incumbentGrantState)
	if diags.HasError() || !moved {
		t.Fatalf("moved %v: %v", moved, diags)
	}
	ctx := context.Background()
	var id, usage types.String
	var scopes types.Set
	var details types.List
	state.GetAttribute(ctx, path.Root("id"), &id)
	state.GetAttribute(ctx, path.Root("organization_usage"), &usage)
	state.GetAttribute(ctx, path.Root("scopes"), &scopes)
	state.GetAttribute(ctx, path.Root("authorization_details_types"), &details)
	if id.ValueString() != "cgr_0123456789abcdef" || usage.ValueString() != "deny" || len(scopes.Elements()) != 2 || !details.IsNull() {
		t.Errorf("id %s organization_usage %s scopes %s authorization_details_types %s", id, usage, scopes, details)
	}
	var identityID types.String
	identity.GetAttribute(ctx, path.Root("id"), &identityID)
	if identityID.ValueString() != "cgr_0123456789abcdef" {
		t.Errorf("identity id = %s", identityID)
	}
}
