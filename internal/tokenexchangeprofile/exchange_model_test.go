package tokenexchangeprofile

import (
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func signed(t *testing.T, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("test-key-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExchangeModel_issued(t *testing.T) {
	access := signed(t, jwt.MapClaims{
		"iss": "https://tenant.example/", "sub": "auth0|legacy-42", "aud": []string{"https://api.example.com/orders/", "https://tenant.example/userinfo"},
		"azp": "app", "scope": "openid read:orders", "iat": 1700000000, "exp": 1700003600, "permissions": []string{"read:orders"},
	})
	id := signed(t, jwt.MapClaims{"sub": "auth0|legacy-42", "aud": "app", "email": "ada@example.com"})
	var m exchangeModel
	m.refused(&mgmt.OAuthError{StatusCode: 400, Code: "x", Description: "y"}) // an earlier result is replaced whole
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: access, IDToken: id, TokenType: "Bearer", ExpiresIn: 3600, Scope: "openid read:orders"}); err != nil {
		t.Fatal(err)
	}
	c := m.Claims
	if m.UserID.ValueString() != "auth0|legacy-42" || c.Sub.ValueString() != "auth0|legacy-42" || c.Azp.ValueString() != "app" ||
		c.Iat.ValueInt64() != 1700000000 || c.Exp.ValueInt64() != 1700003600 || m.ExpiresIn.ValueInt64() != 3600 {
		t.Fatalf("model %+v claims %+v", m, c)
	}
	if got := c.Aud.String(); got != `["https://api.example.com/orders/","https://tenant.example/userinfo"]` {
		t.Fatalf("aud %s", got)
	}
	if c.Scope.String() != `["openid","read:orders"]` || m.GrantedScopes.String() != `["openid","read:orders"]` || c.Permissions.String() != `["read:orders"]` {
		t.Fatalf("scope %s granted %s permissions %s", c.Scope, m.GrantedScopes, c.Permissions)
	}
	if !m.Error.IsNull() || !m.StatusCode.IsNull() || !strings.Contains(m.IDTokenClaimsJSON.ValueString(), `"email":"ada@example.com"`) {
		t.Fatalf("refusal left over, or no ID token claims: %+v", m)
	}
}

// One audience as a string is a list of one; the RFC 9068 profile names the
// client client_id; no scope is a null list.
func TestClaimsFrom_shapes(t *testing.T) {
	c := claimsFrom(jwt.MapClaims{"aud": "https://api.example.com/", "client_id": "app", "sub": "s"})
	if c.Aud.String() != `["https://api.example.com/"]` || c.Azp.ValueString() != "app" || !c.Scope.IsNull() || !c.Permissions.IsNull() {
		t.Fatalf("%+v", c)
	}
}

func TestExchangeModel_refused(t *testing.T) {
	var m exchangeModel
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: signed(t, jwt.MapClaims{"sub": "s"})}); err != nil {
		t.Fatal(err)
	}
	m.refused(&mgmt.OAuthError{StatusCode: 400, Code: "invalid_request", Description: "The subject token is not valid."})
	if !m.AccessToken.IsNull() || m.Claims != nil || !m.UserID.IsNull() || m.Error.ValueString() != "invalid_request" ||
		m.ErrorDescription.ValueString() != "The subject token is not valid." || m.StatusCode.ValueInt64() != 400 {
		t.Fatalf("%+v", m)
	}
}

func TestExchangeModel_notAJWT(t *testing.T) {
	var m exchangeModel
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: "opaque-token"}); err == nil {
		t.Fatal("an opaque access token was read as a JWT")
	}
}

// Delegation: the act claim as JSON, and whether a refresh token came; a
// token without either shows null act and false.
func TestExchangeModel_actAndRefreshToken(t *testing.T) {
	var m exchangeModel
	access := signed(t, jwt.MapClaims{"sub": "auth0|u", "act": map[string]any{"sub": "agent-7", "act": map[string]any{"sub": "console"}}})
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: access}); err != nil {
		t.Fatal(err)
	}
	if m.ActJSON.ValueString() != `{"act":{"sub":"console"},"sub":"agent-7"}` || m.RefreshIssued.ValueBool() {
		t.Fatalf("act %s refresh %s", m.ActJSON, m.RefreshIssued)
	}
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: signed(t, jwt.MapClaims{"sub": "auth0|u"}), RefreshToken: "rt"}); err != nil {
		t.Fatal(err)
	}
	if !m.ActJSON.IsNull() || !m.RefreshIssued.ValueBool() {
		t.Fatalf("act %s refresh %s", m.ActJSON, m.RefreshIssued)
	}
	m.refused(&mgmt.OAuthError{StatusCode: 400, Code: "invalid_request"})
	if !m.ActJSON.IsNull() || !m.RefreshIssued.IsNull() {
		t.Fatalf("a refusal: act %s refresh %s", m.ActJSON, m.RefreshIssued)
	}
}

// org_id is the access token's org_id claim; null without one and after a
// refusal.
func TestExchangeModel_orgID(t *testing.T) {
	var m exchangeModel
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: signed(t, jwt.MapClaims{"sub": "auth0|u", "org_id": "org_abc"})}); err != nil {
		t.Fatal(err)
	}
	if m.OrgID.ValueString() != "org_abc" {
		t.Fatalf("org_id %s", m.OrgID)
	}
	if err := m.issued(&mgmt.ExchangedTokens{AccessToken: signed(t, jwt.MapClaims{"sub": "auth0|u"})}); err != nil {
		t.Fatal(err)
	}
	if !m.OrgID.IsNull() {
		t.Fatalf("org_id without the claim %s", m.OrgID)
	}
	m.OrgID = types.StringValue("org_abc")
	m.refused(&mgmt.OAuthError{StatusCode: 400, Code: "invalid_request"})
	if !m.OrgID.IsNull() {
		t.Fatalf("a refusal: org_id %s", m.OrgID)
	}
}
