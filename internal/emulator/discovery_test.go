package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

// The OpenID discovery document names the issuer the tokens carry (with
// its trailing slash), and endpoints that answer: a client that reads it
// first, as the platform's SDKs do, finds the token endpoint and the keys.
func TestDiscovery_namesTheIssuerAndEndpointsThatAnswer(t *testing.T) {
	h := start(t, Options{})
	r := h.call("", "GET", "/.well-known/openid-configuration", nil)
	h.expect(r, 200)
	var doc struct {
		Issuer        string   `json:"issuer"`
		TokenEndpoint string   `json:"token_endpoint"`
		JWKSURI       string   `json:"jwks_uri"`
		Userinfo      string   `json:"userinfo_endpoint"`
		Authorization string   `json:"authorization_endpoint"`
		Grants        []string `json:"grant_types_supported"`
		Subjects      []string `json:"subject_types_supported"`
		Algs          []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
		t.Fatal(err)
	}
	host := h.s.t.Host
	if doc.Issuer != "https://"+host+"/" || doc.Userinfo != "http://"+host+"/userinfo" || doc.Authorization != "http://"+host+"/authorize" ||
		!slices.Contains(doc.Grants, oauth.TokenExchangeGrant) || !slices.Contains(doc.Grants, "client_credentials") ||
		!slices.Equal(doc.Subjects, []string{"public"}) || !slices.Contains(doc.Algs, "RS256") {
		t.Fatalf("document %s", r.body)
	}
	resp, err := http.PostForm(doc.TokenEndpoint, url.Values{
		"grant_type": {"client_credentials"}, "client_id": {h.s.ClientID()}, "client_secret": {h.s.ClientSecret()}, "audience": {h.s.Audience()},
	})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(tok.AccessToken, claims); err != nil || claims["iss"] != doc.Issuer {
		t.Fatalf("the token endpoint's token: %v, iss %v", err, claims["iss"])
	}
	resp, err = http.Get(doc.JWKSURI)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var jwks struct{ Keys []map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&jwks); err != nil || len(jwks.Keys) != 1 {
		t.Fatalf("jwks_uri: %d %v %v", resp.StatusCode, err, jwks)
	}
}
