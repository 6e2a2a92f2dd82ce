package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
)

var (
	signingAlgs   = []string{"HS256", "RS256", "RS512", "PS256"}
	tokenDialects = []string{"access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"}
	// systemPatchable are the only fields PATCH accepts on a system API.
	systemPatchable = []string{"token_lifetime", "skip_consent_for_verifiable_first_party_clients", "subject_type_authorization"}
	rsWritable      = []string{"name", "scopes", "signing_alg", "signing_secret", "allow_offline_access", "token_lifetime", "token_lifetime_for_web",
		"skip_consent_for_verifiable_first_party_clients", "enforce_policies", "token_dialect", "allow_online_access",
		"allow_online_access_with_ephemeral_sessions", "subject_type_authorization", "consent_policy", "authorization_details",
		"token_encryption", "proof_of_possession", "authorization_policy"}
)

func (rs *resourceServer) hasScope(name string) bool {
	if rs.Scopes == nil {
		return false
	}
	for _, s := range *rs.Scopes {
		if s.Value == name {
			return true
		}
	}
	return false
}

// findResourceServer resolves an id or identifier.
func (s *Server) findResourceServer(key string) *resourceServer {
	if rs, ok := s.st.ResourceServers[key]; ok {
		return rs
	}
	for _, rs := range s.st.ResourceServers {
		if rs.Identifier == key {
			return rs
		}
	}
	return nil
}

// lookupResourceServer resolves the {id} path value: an id or an audience,
// escaped once or, as some clients send it, twice.
func (s *Server) lookupResourceServer(r *http.Request) (*resourceServer, *apiErr) {
	key := pathID(r)
	if rs := s.findResourceServer(key); rs != nil {
		return rs, nil
	}
	if once, ok := unescapeOnce(key); ok {
		if rs := s.findResourceServer(once); rs != nil {
			return rs, nil
		}
	}
	return nil, newErr(404, "The resource server does not exist", "inexistent_resource_server")
}

// applyResourceServer validates b and writes its fields into rs.
func applyResourceServer(rs *resourceServer, b body, create bool) *apiErr {
	if b.has("name") {
		if b.isNull("name") {
			rs.Name = nil
		} else {
			n, e := b.str("name", false, 0, 200)
			if e != nil {
				return e
			}
			if strings.ContainsAny(n, "<>") {
				return payloadErr("String does not match pattern ^[^<>]+$: "+n, "name")
			}
			rs.Name = &n
		}
	}
	if b.has("scopes") {
		var items []body
		if err := json.Unmarshal(b["scopes"], &items); err != nil {
			return payloadErr("Expected type array but found type "+jsonType(b["scopes"]), "scopes")
		}
		scopes := make([]rsScope, 0, len(items))
		seen := map[string]bool{}
		for _, it := range items {
			if e := it.only("value", "description"); e != nil {
				return e
			}
			v, e := it.str("value", true, 1, 280)
			if e != nil {
				return e
			}
			if seen[v] {
				return payloadErr("Array items are not unique", "scopes")
			}
			seen[v] = true
			sc := rsScope{Value: v}
			if it.has("description") {
				d, e := it.str("description", false, 0, 500)
				if e != nil {
					return e
				}
				sc.Description = &d
			}
			scopes = append(scopes, sc)
		}
		rs.Scopes = &scopes
	}
	if alg, e := b.enum("signing_alg", signingAlgs...); e != nil {
		return e
	} else if alg != nil {
		rs.SigningAlg = *alg
	}
	if b.has("signing_secret") {
		sec, e := b.str("signing_secret", false, 16, 0)
		if e != nil {
			return e
		}
		rs.SigningSecret = &sec
	}
	for k, dst := range map[string]*bool{"allow_offline_access": &rs.AllowOfflineAccess, "skip_consent_for_verifiable_first_party_clients": &rs.SkipConsent} {
		v, e := b.boolean(k)
		if e != nil {
			return e
		}
		if v != nil {
			*dst = *v
		}
	}
	if v, e := b.integer("token_lifetime", 0, 2592000); e != nil {
		return e
	} else if v != nil {
		rs.TokenLifetime = *v
	}
	if v, e := b.integer("token_lifetime_for_web", 0, 2592000); e != nil {
		return e
	} else if v != nil {
		rs.TokenLifetimeForWeb = *v
	}
	// A web lifetime the caller did not choose follows a shorter token_lifetime.
	if rs.TokenLifetimeForWeb > rs.TokenLifetime && create && !b.has("token_lifetime_for_web") {
		rs.TokenLifetimeForWeb = rs.TokenLifetime
	}
	if rs.TokenLifetimeForWeb > rs.TokenLifetime {
		return payloadErr("token_lifetime_for_web must be less than or equal to token_lifetime", "token_lifetime_for_web")
	}
	if b.has("enforce_policies") {
		v, e := b.boolean("enforce_policies")
		if e != nil {
			return e
		}
		rs.EnforcePolicies = v
	}
	if b.has("token_dialect") {
		v, e := b.enum("token_dialect", tokenDialects...)
		if e != nil {
			return e
		}
		rs.TokenDialect = v
	}
	if rs.SigningAlg == "HS256" && rs.SigningSecret == nil {
		sec := randomString(32)
		rs.SigningSecret = &sec
	}
	if rs.SigningAlg != "HS256" && b.has("signing_secret") && !b.isNull("signing_secret") {
		return payloadErr("signing_secret is only allowed with signing_alg HS256", "signing_secret")
	}
	if rs.SigningAlg != "HS256" {
		rs.SigningSecret = nil
	}
	return nil
}

func (s *Server) createResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.only(append([]string{"identifier"}, rsWritable...)...); e != nil {
		return e
	}
	ident, e := b.str("identifier", true, 1, 600)
	if e != nil {
		return e
	}
	if s.findResourceServer(ident) != nil {
		return newErr(409, "A resource server with the same identifier already exists.", "operation_not_supported")
	}
	custom := 0
	for _, rs := range s.st.ResourceServers {
		if !rs.IsSystem {
			custom++
		}
	}
	if e := s.capReached(custom); e != nil {
		return e
	}
	rs := &resourceServer{
		ID: randomHex(24), Identifier: ident, TokenLifetime: 86400, TokenLifetimeForWeb: 7200, SigningAlg: "RS256", Seq: s.st.next(),
		SubjectTypeAuthorization: &subjectTypeAuthorization{Client: &policy{"require_client_grant"}, User: &policy{"allow_all"}},
	}
	if e := applyResourceServer(rs, b, true); e != nil {
		return e
	}
	s.st.ResourceServers[rs.ID] = rs
	writeJSON(w, 201, rs)
	return nil
}

func (s *Server) listResourceServers(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	page, perPage, totals, e := offsetPage(r)
	if e != nil {
		return e
	}
	want := r.URL.Query()["identifiers"]
	var match []*resourceServer
	for _, rs := range sortedBySeq(s.st.ResourceServers, func(r *resourceServer) int64 { return r.Seq }) {
		if len(want) > 0 && !contains(want, rs.Identifier) {
			continue
		}
		match = append(match, rs)
	}
	start, end := window(len(match), page, perPage)
	items := append([]*resourceServer{}, match[start:end]...)
	if !totals {
		writeJSON(w, 200, items)
		return nil
	}
	writeJSON(w, 200, ordered{{"total", len(match)}, {"start", page * perPage}, {"limit", perPage}, {"resource_servers", items}})
	return nil
}

func (s *Server) getResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		return e
	}
	writeJSON(w, 200, rs)
	return nil
}

func (s *Server) updateResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		return e
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	allowed := rsWritable
	if rs.IsSystem {
		allowed = systemPatchable
	}
	if e := b.only(allowed...); e != nil {
		return e
	}
	// Validate on a copy so a refused PATCH changes nothing.
	raw, _ := json.Marshal(rs)
	next := &resourceServer{}
	_ = json.Unmarshal(raw, next)
	next.Seq = rs.Seq
	if e := applyResourceServer(next, b, false); e != nil {
		return e
	}
	*rs = *next
	writeJSON(w, 200, rs)
	return nil
}

func (s *Server) deleteResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		// Deleting an API that no longer exists succeeds.
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if rs.IsSystem {
		return newErr(400, "The system resource server "+rs.Identifier+" cannot be deleted.", "operation_not_supported")
	}
	delete(s.st.ResourceServers, rs.ID)
	// Permissions that named the API go with it.
	for _, perms := range s.st.RolePerms {
		delete(perms, rs.Identifier)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
