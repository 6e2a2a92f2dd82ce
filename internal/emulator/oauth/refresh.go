package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Refresh tokens (token-exchange-flow.md §5 [R]): an exchange that asks
// for offline_access, for an API that allows offline access
// (allow_offline_access), gets a refresh token, unless an actor is set;
// the client then uses it with grant_type=refresh_token as any refresh
// token of the client, rotated and expiring as the client's refresh_token
// settings say.
//
// What the emulator keeps of a refresh token is the SHA-256 of it, in
// memory: never the token, and nothing across a restart (a refresh token
// of an emulator that was stopped is unknown to the next one).
//
// Bounds and assumptions [?] (the documentation read gives the settings'
// meaning, not these answers):
//   - an unknown, expired or revoked refresh token, or one of another
//     client, is 403 invalid_grant "Unknown or invalid refresh token.";
//   - the refresh grant's scope and audience parameters are ignored: the
//     tokens carry the exchange's scopes for the exchange's API;
//   - no action runs on a refresh; the tokens carry the custom claims the
//     exchange's post-login actions set;
//   - the user deleted or blocked since is invalid_grant, and so is the
//     exchange's organization deleted since; the tokens of a refresh carry
//     the exchange's org_id;
//   - a client whose grant_types does not list refresh_token gets no
//     refresh token, and its refresh grant is 403 unauthorized_client
//     (--assume refresh_grant_type=accept: both as if it did);
//   - a retired refresh token is remembered (by its hash) until its family
//     is revoked, so that its reuse is detected: an emulator that runs
//     for long with rotating clients grows with each refresh.
//   - rotating: each use gives a new refresh token and retires the one
//     used; the retired one still works within the client's leeway
//     (seconds), and after that its use revokes the whole family (the
//     platform's reuse detection);
//   - expiring: the absolute lifetime (token_lifetime) counts from the
//     family's first token, the idle one (idle_token_lifetime) from the
//     last issue or use; infinite_token_lifetime and
//     infinite_idle_token_lifetime turn either off; non-expiring never
//     expires.

// refreshSettings are a client's refresh_token settings.
type refreshSettings struct {
	Rotation         string `json:"rotation_type"`
	Expiration       string `json:"expiration_type"`
	Leeway           int64  `json:"leeway"`
	Lifetime         int64  `json:"token_lifetime"`
	InfiniteLifetime bool   `json:"infinite_token_lifetime"`
	Idle             int64  `json:"idle_token_lifetime"`
	InfiniteIdle     bool   `json:"infinite_idle_token_lifetime"`
}

func refreshSettingsOf(c *tenant.ClientRecord) refreshSettings {
	var rs refreshSettings
	_ = json.Unmarshal(c.Fields["refresh_token"], &rs)
	return rs
}

// refreshRecord is one refresh token the emulator issued, by its hash.
type refreshRecord struct {
	family      string
	clientID    string
	userID      string
	orgID       string // the exchange's organization, "" for none
	audience    string
	scopes      []string // the exchange's, offline_access among them
	access, id  map[string]json.RawMessage
	familyStart time.Time
	lastUsed    time.Time
	rotatedAt   time.Time // zero: not retired
}

func refreshKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// offlineGranted reports whether offline_access is granted: the API
// allows offline access, the client may use refresh tokens, and no actor
// is set.
func (s *Server) offlineGranted(sc string, req *exchangeRequest, out *outcome) bool {
	return sc == "offline_access" && req.rs.AllowOfflineAccess && s.mayRefresh(req.client) && out.actor == nil
}

// mayRefresh reports whether the client may use refresh tokens: its
// grant_types lists refresh_token (the emulator's assumption, [?]; the
// default grant types list it).
func (s *Server) mayRefresh(c *exchangeClient) bool {
	return c.refreshGrant || s.Assume.RefreshGrantType == "accept"
}

// refreshTokenFor issues the refresh token of an answer that granted
// offline_access, or none where the refresh token in use stays (a
// non-rotating client's refresh). Under the lock.
func (s *Server) refreshTokenFor(req *exchangeRequest, out *outcome, post *postLoginOutcome, granted []string, now time.Time) string {
	old := req.refreshing
	if old != nil && req.client.refresh.Rotation != "rotating" {
		return ""
	}
	token := wire.RandomString(48)
	rec := &refreshRecord{family: wire.RandomHex(12), clientID: req.client.id, userID: out.user.UserID, audience: req.rs.Identifier,
		scopes: granted, access: post.accessClaims, id: post.idClaims, familyStart: now, lastUsed: now}
	if out.organization != nil {
		rec.orgID = out.organization.ID
	}
	if old != nil {
		rec.family, rec.familyStart, rec.scopes, rec.orgID = old.family, old.familyStart, old.scopes, old.orgID
		if old.rotatedAt.IsZero() {
			old.rotatedAt = now
		}
	}
	if s.refreshTokens == nil {
		s.refreshTokens = map[string]*refreshRecord{}
	}
	s.refreshTokens[refreshKey(token)] = rec
	return token
}

// useRefreshToken finds the client's refresh token, or says why not.
// Under the lock.
func (s *Server) useRefreshToken(c *exchangeClient, token string, now time.Time) (*refreshRecord, *exchangeFailure, string) {
	invalid := refuse(403, "invalid_grant", "Unknown or invalid refresh token.")
	key := refreshKey(token)
	rec := s.refreshTokens[key]
	if token == "" || rec == nil || rec.clientID != c.id {
		return nil, invalid, "unknown refresh token"
	}
	set := c.refresh
	if !rec.rotatedAt.IsZero() && !now.Before(rec.rotatedAt.Add(time.Duration(set.Leeway)*time.Second)) {
		for k, r := range s.refreshTokens {
			if r.family == rec.family {
				delete(s.refreshTokens, k)
			}
		}
		return nil, invalid, "a rotated refresh token used again after its leeway: its family is revoked"
	}
	if set.Expiration == "expiring" {
		past := func(from time.Time, seconds int64) bool {
			return now.After(from.Add(time.Duration(seconds) * time.Second))
		}
		if (!set.InfiniteLifetime && past(rec.familyStart, set.Lifetime)) || (!set.InfiniteIdle && past(rec.lastUsed, set.Idle)) {
			delete(s.refreshTokens, key)
			return nil, invalid, "expired refresh token"
		}
	}
	rec.lastUsed = now
	return rec, nil, ""
}

// refreshGrant answers POST /oauth/token with grant_type=refresh_token:
// the client authenticates as for an exchange, and gets tokens for the
// refresh token's user, API and scopes.
func (s *Server) refreshGrant(w http.ResponseWriter, fields map[string]string) {
	s.Lock()
	defer s.Unlock()
	ec := s.authenticatedClient(fields)
	if ec == nil {
		oauthErr(w, 401, "access_denied", "Unauthorized")
		return
	}
	if !s.mayRefresh(ec) {
		s.Logf("refresh token grant: client %s: its grant_types does not list refresh_token", ec.id)
		oauthErr(w, 403, "unauthorized_client", "Grant type 'refresh_token' not allowed for the client.")
		return
	}
	now := time.Now()
	rec, f, why := s.useRefreshToken(ec, fields["refresh_token"], now)
	var u *tenant.User
	var rs *tenant.ResourceServer
	var org *tenant.Organization
	if f == nil {
		u, rs = s.St.Users[rec.userID], s.FindResourceServer(rec.audience)
		if rec.orgID != "" {
			org = s.St.Organizations[rec.orgID]
		}
		switch {
		case u == nil || u.IsBlocked():
			f, why = refuse(403, "invalid_grant", "Unknown or invalid refresh token."), "the user is gone or blocked"
		case rs == nil || rs.Identifier != rec.audience:
			f, why = refuse(403, "invalid_grant", "Unknown or invalid refresh token."), "the API is gone"
		case rec.orgID != "" && org == nil:
			f, why = refuse(403, "invalid_grant", "Unknown or invalid refresh token."), "the organization is gone"
		}
	}
	var tokens wire.Ordered
	if f == nil {
		req := &exchangeRequest{client: ec, rs: rs, scopes: rec.scopes, refreshing: rec}
		tokens, f = s.issueUserTokens(req, &outcome{user: u, organization: org}, &postLoginOutcome{accessClaims: rec.access, idClaims: rec.id}, now)
	}
	if f != nil {
		s.Logf("refresh token grant: client %s: %d %s: %s", ec.id, f.status, f.code, why)
		oauthErr(w, f.status, f.code, f.description)
		return
	}
	s.Logf("refresh token grant: client %s: tokens for %s (%s)", ec.id, u.UserID, rs.Identifier)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(200)
	_ = json.NewEncoder(w).Encode(tokens)
}

// withRefreshToken puts the refresh token after the access token.
func withRefreshToken(answer wire.Ordered, token string) wire.Ordered {
	if token == "" {
		return answer
	}
	return slices.Insert(answer, 1, wire.Ordered{{"refresh_token", token}}...)
}
