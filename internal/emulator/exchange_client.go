package emulator

import (
	"encoding/json"
	"net/http"
	"time"
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
}

// exchangeGrant answers POST /oauth/token with the token-exchange grant:
// the client authenticates as for client credentials, with its secret in
// the body or as HTTP Basic (management-api.md §6, already merged into
// fields), or, a public client (token_endpoint_auth_method none), with its
// id alone: public clients may exchange (token-exchange-flow.md §1).
func (s *Server) exchangeGrant(w http.ResponseWriter, r *http.Request, fields map[string]string) {
	s.mu.Lock()
	c, ok := s.st.Clients[fields["client_id"]]
	var ec *exchangeClient
	if ok && (c.Secret == fields["client_secret"] || c.str("token_endpoint_auth_method") == "none") {
		ec = exchangeClientOf(c)
	}
	s.mu.Unlock()
	if ec == nil {
		oauthErr(w, 401, "access_denied", "Unauthorized")
		return
	}
	delete(fields, "client_secret")
	s.tokenExchange(w, r, ec, fields)
}

// exchangeClientOf reads what an exchange needs of a stored client; the
// ID token's lifetime and algorithm are its jwt_configuration's (36000
// seconds and RS256 when unset).
func exchangeClientOf(c *clientRec) *exchangeClient {
	ec := &exchangeClient{
		id: c.ID, name: c.str("name"), secret: c.Secret, metadata: map[string]string{},
		firstParty: c.flag("is_first_party"), oidcConformant: c.flag("oidc_conformant"),
		trustIPHeader: c.flag("is_token_endpoint_ip_header_trusted"), idTokenLifetime: 36000 * time.Second, idTokenAlg: "RS256",
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

// userGrantExists reports whether a client grant of subject type user
// gives the client the API (an API whose user policy is
// require_client_grant, management-api.md §4).
func (s *Server) userGrantExists(clientID, audience string) bool {
	for _, g := range s.st.Grants {
		if g.ClientID == clientID && g.Audience == audience && g.SubjectType == "user" {
			return true
		}
	}
	return false
}
