package client

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// recorded is a client as the API answers it (the recordings' create
// answer, with the fields the provider manages set).
const recorded = `{"name":"web","description":"The web app","client_id":"AbCdEfGhIjKlMnOpQrStUvWxYz012345","client_secret":"s",
"app_type":"regular_web","is_first_party":true,"is_token_endpoint_ip_header_trusted":false,"oidc_conformant":true,
"callbacks":["https://a/cb"],"jwt_configuration":{"secret_encoded":false,"alg":"RS256","lifetime_in_seconds":36000,"scopes":{"openid":"x"}},
"sso_disabled":false,"cross_origin_authentication":false,"grant_types":["authorization_code"],"custom_login_page_on":true,
"client_metadata":{"a":"1","b":"2"},"refresh_token":{"rotation_type":"rotating","expiration_type":"expiring","leeway":0,"token_lifetime":2592000,
"infinite_token_lifetime":false,"infinite_idle_token_lifetime":false,"idle_token_lifetime":1296000,"policies":[{"audience":"https://x","scope":["r"]}]},
"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]},"token_quota":{"client_credentials":{"enforce":true,"per_day":10,"per_hour":1}},
"session_transfer":{"can_create_session_transfer_token":true,"allowed_authentication_methods":["cookie"],"enforce_device_binding":"ip",
"allow_refresh_token":false,"enforce_online_refresh_tokens":true,"enforce_cascade_revocation":true},"compliance_level":"fapi1",
"default_organization":{"flows":["client_credentials"],"organization_id":"org_1"},"organization_discovery_methods":["email"],
"organization_require_behavior":"pre_login_prompt","addons":{"samlp":{}}}`

func fromRecorded(t *testing.T) clientModel {
	t.Helper()
	var c mgmt.AppClient
	if err := json.Unmarshal([]byte(recorded), &c); err != nil {
		t.Fatal(err)
	}
	var m clientModel
	if d := m.fromAPI(context.Background(), &c); d.HasError() {
		t.Fatal(d)
	}
	return m
}

// TestClientModel_roundTrip: what a read gives, sent back unchanged,
// sends nothing; every field read is the answer's.
func TestClientModel_roundTrip(t *testing.T) {
	m := fromRecorded(t)
	u, d := m.toUpdate(context.Background(), m)
	if d.HasError() {
		t.Fatal(d)
	}
	if b, _ := json.Marshal(u); string(b) != "{}" {
		t.Fatalf("an unchanged plan sends %s", b)
	}
	if m.Description.ValueString() != "The web app" || !m.OIDCConformant.ValueBool() {
		t.Fatalf("read %+v", m)
	}
}

// TestClientModel_removals: each optional argument removed, as the schema
// plans it, is sent the way the API clears or defaults it.
func TestClientModel_removals(t *testing.T) {
	ctx := context.Background()
	state := fromRecorded(t)
	plan := state
	plan.Description = types.StringValue("")                                                                       // default
	plan.Callbacks = types.ListNull(types.StringType)                                                              // emptied
	plan.ClientMetadata = types.MapValueMust(types.StringType, map[string]attr.Value{"a": types.StringValue("1")}) // b removed
	plan.TokenExchange = types.ObjectNull(exchangeType.AttrTypes)                                                  // null
	plan.TokenQuota = types.ObjectNull(quotaType.AttrTypes)                                                        // null [S]
	plan.SessionTransfer = types.ObjectNull(transferType.AttrTypes)                                                // null [O]
	plan.ComplianceLevel = types.StringNull()                                                                      // null [S]
	plan.DefaultOrganization = types.ObjectNull(defOrgType.AttrTypes)                                              // null
	plan.OrganizationDiscoveryMethods = types.ListNull(types.StringType)                                           // null [O]
	plan.RefreshToken = defaultRefreshToken()                                                                      // the default, whole
	plan.AppType = types.StringNull()                                                                              // kept: never sent
	u, d := plan.toUpdate(ctx, state)
	if d.HasError() {
		t.Fatal(d)
	}
	b, _ := json.Marshal(u)
	want := `{"description":"","callbacks":[],"client_metadata":{"a":"1","b":null},"refresh_token":{"rotation_type":"non-rotating",` +
		`"expiration_type":"non-expiring","leeway":0,"token_lifetime":2592000,"infinite_token_lifetime":true,"infinite_idle_token_lifetime":true,` +
		`"idle_token_lifetime":1296000,"policies":[]},"organization_discovery_methods":null,"compliance_level":null,"default_organization":null,` +
		`"token_exchange":null,"token_quota":null,"session_transfer":null}`
	if string(b) != want {
		t.Fatalf("PATCH\n%s\nwant\n%s", b, want)
	}
}

// TestClientModel_nestedSentWhole: a nested object is sent with every
// value the plan knows, so the API's merge and replace give the same
// client; its scopes cleared as an empty object.
func TestClientModel_nestedSentWhole(t *testing.T) {
	ctx := context.Background()
	state := fromRecorded(t)
	plan := state
	plan.JWTConfiguration = types.ObjectValueMust(jwtType.AttrTypes, map[string]attr.Value{
		"alg": types.StringValue("HS256"), "lifetime_in_seconds": types.Int64Value(36000), "secret_encoded": types.BoolValue(false),
		"scopes": types.MapNull(types.StringType),
	})
	u, _ := plan.toUpdate(ctx, state)
	if b, _ := json.Marshal(u); string(b) != `{"jwt_configuration":{"secret_encoded":false,"alg":"HS256","lifetime_in_seconds":36000,"scopes":{}}}` {
		t.Fatalf("PATCH %s", b)
	}
}

// TestClientModel_create: only what the configuration sets is sent; what
// it leaves to the tenant is not, even where the plan shows the tenant's
// default.
func TestClientModel_create(t *testing.T) {
	ctx := context.Background()
	plan := fromRecorded(t)
	config := plan
	config.Description = types.StringNull()
	config.AppType = types.StringNull()
	config.IsFirstParty = types.BoolNull()
	config.GrantTypes = types.ListNull(types.StringType)
	config.JWTConfiguration = types.ObjectNull(jwtType.AttrTypes)
	config.RefreshToken = types.ObjectNull(refreshType.AttrTypes)
	config.NativeSocialLogin = types.ObjectNull(socialType.AttrTypes)
	c, d := plan.toCreate(ctx, config)
	if d.HasError() {
		t.Fatal(d)
	}
	b, _ := json.Marshal(c)
	var sent map[string]json.RawMessage
	_ = json.Unmarshal(b, &sent)
	for _, k := range []string{"name", "oidc_conformant", "callbacks", "client_metadata", "token_exchange", "token_quota", "session_transfer",
		"compliance_level", "default_organization", "organization_discovery_methods", "organization_require_behavior", "sso_disabled"} {
		if _, ok := sent[k]; !ok {
			t.Errorf("%s is configured but not sent: %s", k, b)
		}
	}
	for _, k := range []string{"description", "app_type", "is_first_party", "grant_types", "jwt_configuration", "refresh_token",
		"native_social_login", "client_id", "client_secret", "client_authentication_methods"} {
		if _, ok := sent[k]; ok {
			t.Errorf("%s is not configured but sent: %s", k, b)
		}
	}
	if string(sent["token_exchange"]) != `{"allow_any_profile_of_type":["custom_authentication"]}` {
		t.Errorf("token_exchange %s", sent["token_exchange"])
	}
}

// TestGrantModel: scopes go whole, none as an empty list; allow_all_scopes
// sends none; removals return to the documented defaults.
func TestGrantModel(t *testing.T) {
	ctx := context.Background()
	var state grantModel
	state.fromAPI(&mgmt.ClientGrant{ID: "cgr_1", ClientID: "c", Audience: "https://a", Scope: &[]string{"b", "a"},
		OrganizationUsage: mgmt.Ptr("allow"), AuthorizationDetailsTypes: &[]string{"payment"}})
	if len(state.Scopes.Elements()) != 2 || state.SubjectType.ValueString() != "client" || state.AllowAnyOrganization.ValueBool() {
		t.Fatalf("read %+v", state)
	}
	plan := state
	plan.Scopes = types.SetValueMust(types.StringType, []attr.Value{})
	plan.OrganizationUsage = types.StringValue("deny")
	plan.AuthorizationDetailsTypes = types.ListNull(types.StringType)
	u, _ := plan.toUpdate(ctx, state)
	if b, _ := json.Marshal(u); string(b) != `{"scope":[],"organization_usage":"deny","authorization_details_types":[]}` {
		t.Fatalf("PATCH %s", b)
	}
	plan = state
	plan.AllowAllScopes = types.BoolValue(true)
	plan.Scopes = types.SetNull(types.StringType)
	u, _ = plan.toUpdate(ctx, state)
	if b, _ := json.Marshal(u); string(b) != `{"allow_all_scopes":true}` {
		t.Fatalf("PATCH %s", b)
	}
	g, _ := state.toCreate(ctx, grantModel{})
	if b, _ := json.Marshal(g); string(b) != `{"client_id":"c","audience":"https://a","scope":["a","b"],"authorization_details_types":["payment"]}` {
		t.Fatalf("POST %s", b)
	}
}
