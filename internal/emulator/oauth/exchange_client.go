package oauth

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// exchangeClient is what a token exchange needs of the client that asks.
type exchangeClient struct {
	id, name, secret string
	metadata         map[string]string
	firstParty       bool
	oidcConformant   bool
	profileTypes     []string // token_exchange.allow_any_profile_of_type
	trustIPHeader    bool     // is_token_endpoint_ip_header_trusted
	idTokenLifetime  time.Duration
	idTokenAlg       string
	refresh          refreshSettings // refresh_token (refresh.go)
	refreshGrant     bool            // grant_types lists refresh_token
}

// exchangeGrant answers POST /oauth/token with the token-exchange grant:
// the client authenticates as for client credentials, with its secret in
// the body or as HTTP Basic (management-api.md §6, already merged into
// fields), or, a public client (token_endpoint_auth_method none), with its
// id alone: public clients may exchange (token-exchange-flow.md §1).
func (s *Server) exchangeGrant(w http.ResponseWriter, r *http.Request, fields map[string]string) {
	if s.exchangeRateLimited(w) {
		return
	}
	s.Lock()
	ec := s.authenticatedClient(fields)
	s.Unlock()
	if ec == nil {
		oauthErr(w, 401, "access_denied", "Unauthorized")
		return
	}
	delete(fields, "client_secret")
	s.tokenExchange(w, r, ec, fields)
}

// authenticatedClient is the client the request's client_id names, read
// for an exchange or a refresh, when its client_secret is the client's or
// the client is public (token_endpoint_auth_method none); nil otherwise.
// The caller holds the tenant's lock.
func (s *Server) authenticatedClient(fields map[string]string) *exchangeClient {
	c, ok := s.St.Clients[fields["client_id"]]
	if !ok || (c.Secret != fields["client_secret"] && c.Str("token_endpoint_auth_method") != "none") {
		return nil
	}
	return exchangeClientOf(c)
}

// exchangeClientOf reads what an exchange needs of a stored client; the
// ID token's lifetime and algorithm are its jwt_configuration's (36000
// seconds and RS256 when unset).
func exchangeClientOf(c *tenant.ClientRecord) *exchangeClient {
	ec := &exchangeClient{
		id: c.ID, name: c.Str("name"), secret: c.Secret, metadata: map[string]string{},
		firstParty: c.Flag("is_first_party"), oidcConformant: c.Flag("oidc_conformant"),
		trustIPHeader: c.Flag("is_token_endpoint_ip_header_trusted"), idTokenLifetime: 36000 * time.Second, idTokenAlg: "RS256",
		refresh: refreshSettingsOf(c), refreshGrant: slices.Contains(c.Strings("grant_types"), "refresh_token"),
	}
	var te struct {
		Types []string `json:"allow_any_profile_of_type"`
	}
	_ = json.Unmarshal(c.Fields["token_exchange"], &te)
	ec.profileTypes = te.Types
	_ = json.Unmarshal(c.Fields["client_metadata"], &ec.metadata)
	var jc struct {
		Alg      string `json:"alg"`
		Lifetime int64  `json:"lifetime_in_seconds"`
	}
	_ = json.Unmarshal(c.Fields["jwt_configuration"], &jc)
	if jc.Alg != "" {
		ec.idTokenAlg = jc.Alg
	}
	if jc.Lifetime > 0 {
		ec.idTokenLifetime = time.Duration(jc.Lifetime) * time.Second
	}
	return ec
}
