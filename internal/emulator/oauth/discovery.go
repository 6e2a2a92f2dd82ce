package oauth

import (
	"net/http"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// discovery is GET /.well-known/openid-configuration, the OpenID Provider
// Metadata (OpenID Connect Discovery 1.0 [P]) that the platform's SDKs read
// before they call the token endpoint (@auth0/auth0-auth-js does, and fails
// on a 404).
//
// The issuer is the one the tokens carry, with its trailing slash, as a
// tenant publishes it; the endpoints are the emulator's, on the scheme
// the request came in on (an SDK refuses plain http unless told not to).
// The keys a tenant's document has are kept, endpoints the emulator does
// not serve included, so that a client reading them sees the tenant's
// shape. grant_types_supported lists the grants the emulator's token
// endpoint serves, the token-exchange grant among them: whether a tenant's
// document has the key is not recorded [?], and a client that finds it
// must find the grant it uses there.
func (s *Server) discovery(w http.ResponseWriter, r *http.Request) {
	base := "http://" + s.Host
	if r.TLS != nil {
		base = "https://" + s.Host
	}
	w.Header().Set("Cache-Control", "public, max-age=15")
	wire.WriteJSON(w, 200, wire.Ordered{
		{"issuer", s.issuer()},
		{"authorization_endpoint", base + "/authorize"},
		{"token_endpoint", base + "/oauth/token"},
		{"device_authorization_endpoint", base + "/oauth/device/code"},
		{"userinfo_endpoint", base + "/userinfo"},
		{"mfa_challenge_endpoint", base + "/mfa/challenge"},
		{"jwks_uri", base + "/.well-known/jwks.json"},
		{"registration_endpoint", base + "/oidc/register"},
		{"revocation_endpoint", base + "/oauth/revoke"},
		{"scopes_supported", []string{"openid", "profile", "offline_access", "name", "given_name", "family_name", "nickname",
			"email", "email_verified", "picture", "created_at", "identities", "phone", "address"}},
		{"response_types_supported", []string{"code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token"}},
		{"code_challenge_methods_supported", []string{"S256", "plain"}},
		{"response_modes_supported", []string{"query", "fragment", "form_post"}},
		{"subject_types_supported", []string{"public"}},
		{"grant_types_supported", []string{"client_credentials", "refresh_token", TokenExchangeGrant}},
		{"token_endpoint_auth_methods_supported", []string{"client_secret_basic", "client_secret_post", "private_key_jwt"}},
		{"claims_supported", []string{"aud", "auth_time", "created_at", "email", "email_verified", "exp", "family_name",
			"given_name", "iat", "identities", "iss", "name", "nickname", "phone_number", "picture", "sub"}},
		{"request_uri_parameter_supported", false},
		{"request_parameter_supported", false},
		{"id_token_signing_alg_values_supported", []string{"HS256", "RS256", "PS256"}},
		{"token_endpoint_auth_signing_alg_values_supported", []string{"RS256", "RS384", "PS256"}},
		{"end_session_endpoint", base + "/oidc/logout"},
	})
}
