package mgmtapi

import (
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strconv"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

var (
	signingAlgs   = []string{"HS256", "RS256", "RS512", "PS256"}
	tokenDialects = []string{"access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"}
	// consentPolicies are the non-null consent_policy values (reference §4).
	consentPolicies = []string{"transactional-authorization-with-mfa"}
	rsWritable      = []string{"name", "scopes", "signing_alg", "signing_secret", "allow_offline_access", "token_lifetime", "token_lifetime_for_web",
		"skip_consent_for_verifiable_first_party_clients", "enforce_policies", "token_dialect", "allow_online_access",
		"allow_online_access_with_ephemeral_sessions", "subject_type_authorization", "consent_policy", "authorization_details",
		"token_encryption", "proof_of_possession", "authorization_policy"}
)

// lookupResourceServer resolves the {id} path value: an id or an audience,
// escaped once or, as some clients send it, twice.
func (s *Server) lookupResourceServer(r *http.Request) (*tenant.ResourceServer, *wire.Error) {
	key := wire.PathID(r)
	if rs := s.FindResourceServer(key); rs != nil {
		return rs, nil
	}
	if once, ok := wire.UnescapeOnce(key); ok {
		if rs := s.FindResourceServer(once); rs != nil {
			return rs, nil
		}
	}
	return nil, wire.NewErr(404, "The resource server does not exist", "inexistent_resource_server")
}

// applyResourceServer validates b and writes its fields into rs. Keys that
// are absent are left alone (PATCH is a partial merge, reference §4); an
// explicit null clears an optional field, so that its key disappears from
// later answers (reference §0.2, §4).
func applyResourceServer(rs *tenant.ResourceServer, b wire.Body, create bool) *wire.Error {
	if b.Has("name") {
		if b.IsNull("name") {
			rs.Name = nil
		} else {
			n, e := b.Str("name", false, 0, 200)
			if e != nil {
				return e
			}
			if strings.ContainsAny(n, "<>") {
				return wire.PayloadErr("String does not match pattern ^[^<>]+$: "+n, "name")
			}
			rs.Name = &n
		}
	}
	if e := applyScopes(rs, b); e != nil {
		return e
	}
	if alg, e := b.Enum("signing_alg", signingAlgs...); e != nil {
		return e
	} else if alg != nil {
		rs.SigningAlg = *alg
	}
	if b.Has("signing_secret") {
		sec, e := b.Str("signing_secret", false, 16, 0)
		if e != nil {
			return e
		}
		rs.SigningSecret = &sec
	}
	for k, dst := range map[string]*bool{"allow_offline_access": &rs.AllowOfflineAccess, "skip_consent_for_verifiable_first_party_clients": &rs.SkipConsent} {
		v, e := b.Bool(k)
		if e != nil {
			return e
		}
		if v != nil {
			*dst = *v
		}
	}
	// Omitted until set, then present even when false (reference §4).
	// Assumption (reference §4 is silent on null for these two): null is
	// accepted and clears the value, as for enforce_policies (reference §0.2).
	for k, dst := range map[string]**bool{"allow_online_access": &rs.AllowOnlineAccess, "allow_online_access_with_ephemeral_sessions": &rs.AllowOnlineAccessEphemeral} {
		if b.Has(k) {
			v, e := b.Bool(k)
			if e != nil {
				return e
			}
			*dst = v
		}
	}
	if v, e := b.Int("token_lifetime", 0, 2592000); e != nil {
		return e
	} else if v != nil {
		rs.TokenLifetime = *v
	}
	if v, e := b.Int("token_lifetime_for_web", 0, 2592000); e != nil {
		return e
	} else if v != nil {
		rs.TokenLifetimeForWeb = *v
	}
	// A web lifetime the caller did not choose follows a shorter token_lifetime.
	if rs.TokenLifetimeForWeb > rs.TokenLifetime && create && !b.Has("token_lifetime_for_web") {
		rs.TokenLifetimeForWeb = rs.TokenLifetime
	}
	if rs.TokenLifetimeForWeb > rs.TokenLifetime {
		return wire.PayloadErr("token_lifetime_for_web must be less than or equal to token_lifetime", "token_lifetime_for_web")
	}
	if b.Has("enforce_policies") {
		v, e := b.Bool("enforce_policies")
		if e != nil {
			return e
		}
		rs.EnforcePolicies = v
	}
	if b.Has("token_dialect") {
		v, e := b.Enum("token_dialect", tokenDialects...)
		if e != nil {
			return e
		}
		rs.TokenDialect = v
	}
	if e := applySubjectTypeAuthorization(rs, b.At("")); e != nil {
		return e
	}
	if b.Has("consent_policy") {
		v, e := b.Enum("consent_policy", consentPolicies...)
		if e != nil {
			return e
		}
		rs.ConsentPolicy = v
	}
	if e := applyAuthorizationDetails(rs, b.At("")); e != nil {
		return e
	}
	if e := applyTokenEncryption(rs, b.At("")); e != nil {
		return e
	}
	if e := applyProofOfPossession(rs, b.At("")); e != nil {
		return e
	}
	if e := applyAuthorizationPolicy(rs, b.At("")); e != nil {
		return e
	}
	if rs.SigningAlg == "HS256" && rs.SigningSecret == nil {
		sec := wire.RandomString(32)
		rs.SigningSecret = &sec
	}
	if rs.SigningAlg != "HS256" && b.Has("signing_secret") && !b.IsNull("signing_secret") {
		return wire.PayloadErr("signing_secret is only allowed with signing_alg HS256", "signing_secret")
	}
	if rs.SigningAlg != "HS256" {
		rs.SigningSecret = nil
	}
	return nil
}

// applyScopes replaces the whole scope list (reference §4); null removes
// the key, as for a resource server that never had scopes (reference §0.2).
func applyScopes(rs *tenant.ResourceServer, b wire.Body) *wire.Error {
	items, ok, e := b.At("").Array("scopes")
	if e != nil || !b.Has("scopes") {
		return e
	}
	if !ok {
		rs.Scopes = nil
		return nil
	}
	scopes := make([]tenant.Scope, 0, len(items))
	seen := map[string]bool{}
	for i, raw := range items {
		it, _, e := wire.AsObject(raw, "scopes["+strconv.Itoa(i)+"]")
		if e != nil {
			return e
		}
		if e := it.Only("value", "description"); e != nil {
			return e
		}
		v, e := it.Str("value", true, 1, 280)
		if e != nil {
			return e
		}
		if seen[v] {
			return wire.PayloadErr("Array items are not unique", "scopes")
		}
		seen[v] = true
		sc := tenant.Scope{Value: v}
		if it.Has("description") {
			d, e := it.Str("description", false, 0, 500)
			if e != nil {
				return e
			}
			sc.Description = &d
		}
		scopes = append(scopes, sc)
	}
	rs.Scopes = &scopes
	return nil
}

// applySubjectTypeAuthorization sets {"user":{"policy"},"client":{"policy"}}
// (reference §4).
//
// Assumption (reference §4 is silent on partial updates): a body that names
// only user or only client changes that one and keeps the other, merged
// over the API's default when the resource server had none. Both sides are
// optional; a side that is present needs its policy. A side may carry other
// keys, which are not kept: the published specification allows them
// (additionalProperties true on user and client, false on the object
// itself). Assumption (silent): a
// null subject_type_authorization returns it to the default
// {"client":{"policy":"require_client_grant"},"user":{"policy":"allow_all"}},
// and a null user or client is a type error (it is not nullable).
func applySubjectTypeAuthorization(rs *tenant.ResourceServer, b wire.Obj) *wire.Error {
	const k = "subject_type_authorization"
	if !b.Has(k) {
		return nil
	}
	if b.IsNull(k) {
		rs.SubjectTypeAuthorization = tenant.DefaultSubjectTypeAuthorization()
		return nil
	}
	sta, _, e := b.Object(k)
	if e != nil {
		return e
	}
	if e := sta.Only("user", "client"); e != nil {
		return e
	}
	next := tenant.DefaultSubjectTypeAuthorization()
	if cur := rs.SubjectTypeAuthorization; cur != nil {
		next = &tenant.SubjectTypeAuthorization{Client: cur.Client, User: cur.User}
	}
	for _, side := range []struct {
		key    string
		values []string
		dst    **tenant.Policy
	}{
		{"user", []string{"allow_all", "deny_all", "require_client_grant"}, &next.User},
		{"client", []string{"deny_all", "require_client_grant"}, &next.Client},
	} {
		if !sta.Has(side.key) {
			continue
		}
		if sta.IsNull(side.key) {
			return sta.TypeErr(side.key, "object")
		}
		p, _, e := sta.Object(side.key)
		if e != nil {
			return e
		}
		v, e := p.EnumReq("policy", side.values...)
		if e != nil {
			return e
		}
		*side.dst = &tenant.Policy{Policy: v}
	}
	rs.SubjectTypeAuthorization = next
	return nil
}

// applyAuthorizationDetails sets an array of {"type": ...}, or clears it
// with null (reference §4).
//
// The published specification leaves the items unconstrained ("items":
// {}); reference §4 shows {"type":…}. Assumptions: each item is an object
// with the key type, a string of 1–255 characters (RFC 9396 requires it);
// its other keys are kept as sent and shown in answers; the array may be
// empty (the answer then shows []).
func applyAuthorizationDetails(rs *tenant.ResourceServer, b wire.Obj) *wire.Error {
	const k = "authorization_details"
	items, ok, e := b.Array(k)
	if e != nil || !b.Has(k) {
		return e
	}
	if !ok {
		rs.AuthorizationDetails = nil
		return nil
	}
	out := make([]tenant.AuthorizationDetail, 0, len(items))
	for i, raw := range items {
		it, _, e := wire.AsObject(raw, k+"["+strconv.Itoa(i)+"]")
		if e != nil {
			return e
		}
		if _, e := it.Str("type", true, 1, 255); e != nil {
			return e
		}
		out = append(out, tenant.AuthorizationDetail(raw))
	}
	rs.AuthorizationDetails = &out
	return nil
}

// applyTokenEncryption sets {"format","encryption_key":{"name","alg","kid",
// "pem"}}, or clears it with null. The answer drops pem and adds
// thumbprint_sha256 (reference §4).
//
// Assumptions (reference §4 is silent): format and encryption_key are
// required, and so are alg and pem inside the key, while name and kid are
// optional (1–255 characters; absent from the answer when not sent). A
// PATCH replaces the whole object, pem included. The pem must be an X.509
// certificate or a public key (PEM types CERTIFICATE, PUBLIC KEY or
// RSA PUBLIC KEY) holding an RSA key, since every alg is RSA-OAEP.
func applyTokenEncryption(rs *tenant.ResourceServer, b wire.Obj) *wire.Error {
	const k = "token_encryption"
	te, ok, e := b.Object(k)
	if e != nil || !b.Has(k) {
		return e
	}
	if !ok {
		rs.TokenEncryption = nil
		return nil
	}
	if e := te.Only("format", "encryption_key"); e != nil {
		return e
	}
	if e := te.Require("format", "encryption_key"); e != nil {
		return e
	}
	format, e := te.EnumReq("format", "compact-nested-jwe")
	if e != nil {
		return e
	}
	if te.IsNull("encryption_key") {
		return te.TypeErr("encryption_key", "object")
	}
	key, _, e := te.Object("encryption_key")
	if e != nil {
		return e
	}
	if e := key.Only("name", "alg", "kid", "pem"); e != nil {
		return e
	}
	if e := key.Require("alg", "pem"); e != nil {
		return e
	}
	name, e := key.Str("name", false, 1, 255)
	if e != nil {
		return e
	}
	alg, e := key.EnumReq("alg", "RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512")
	if e != nil {
		return e
	}
	kid, e := key.Str("kid", false, 1, 255)
	if e != nil {
		return e
	}
	pemText, e := key.Str("pem", true, 1, 0)
	if e != nil {
		return e
	}
	thumb, reason := pemThumbprint(pemText)
	if reason != "" {
		return wire.PayloadErr(reason, key.Prop("pem"))
	}
	rs.TokenEncryption = &tenant.TokenEncryption{Format: format, EncryptionKey: tenant.EncryptionKey{Name: name, Alg: alg, Kid: kid, ThumbprintSHA256: thumb}}
	return nil
}

// pemThumbprint parses a PEM certificate or public key and returns its
// thumbprint, or the reason it is refused.
//
// Assumption (reference §4 names thumbprint_sha256 but not its definition):
// the thumbprint is the SHA-256 of the DER bytes of the PEM block, encoded
// base64url without padding. For a certificate this is the x5t#S256 value
// of RFC 7517 §4.9; for a public key it is the digest of its
// SubjectPublicKeyInfo (or PKCS #1) DER.
func pemThumbprint(text string) (thumb, reason string) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return "", "Invalid PEM: no PEM block found"
	}
	var pub any
	switch block.Type {
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return "", "Invalid PEM: the certificate does not parse"
		}
		pub = cert.PublicKey
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return "", "Invalid PEM: the public key does not parse"
		}
		pub = k
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return "", "Invalid PEM: the public key does not parse"
		}
		pub = k
	default:
		return "", "Invalid PEM: expected a CERTIFICATE or a PUBLIC KEY block, found " + block.Type
	}
	if _, ok := pub.(*rsa.PublicKey); !ok {
		return "", "Invalid PEM: the key is not an RSA key"
	}
	sum := sha256.Sum256(block.Bytes)
	return base64.RawURLEncoding.EncodeToString(sum[:]), ""
}

// applyProofOfPossession sets {"mechanism","required","required_for"}, or
// clears it with null (reference §4).
//
// Assumption (reference §4 is silent): mechanism and required are
// required, required_for is optional (absent from the answer when not
// sent); a PATCH replaces the whole object.
func applyProofOfPossession(rs *tenant.ResourceServer, b wire.Obj) *wire.Error {
	const k = "proof_of_possession"
	pop, ok, e := b.Object(k)
	if e != nil || !b.Has(k) {
		return e
	}
	if !ok {
		rs.ProofOfPossession = nil
		return nil
	}
	if e := pop.Only("mechanism", "required", "required_for"); e != nil {
		return e
	}
	if e := pop.Require("mechanism", "required"); e != nil {
		return e
	}
	mech, e := pop.EnumReq("mechanism", "mtls", "dpop")
	if e != nil {
		return e
	}
	req, e := pop.BoolReq("required")
	if e != nil {
		return e
	}
	var forWhom string
	if pop.Has("required_for") {
		if forWhom, e = pop.EnumReq("required_for", "public_clients", "all_clients"); e != nil {
			return e
		}
	}
	rs.ProofOfPossession = &tenant.ProofOfPossession{Mechanism: mech, Required: req, RequiredFor: forWhom}
	return nil
}

// applyAuthorizationPolicy sets {"policy_id": ...}, or clears it with null
// (reference §4).
//
// Assumption (reference §4 is silent): policy_id is required, a string of
// 1–255 characters; no other key is allowed.
func applyAuthorizationPolicy(rs *tenant.ResourceServer, b wire.Obj) *wire.Error {
	const k = "authorization_policy"
	ap, ok, e := b.Object(k)
	if e != nil || !b.Has(k) {
		return e
	}
	if !ok {
		rs.AuthorizationPolicy = nil
		return nil
	}
	if e := ap.Only("policy_id"); e != nil {
		return e
	}
	id, e := ap.Str("policy_id", true, 1, 255)
	if e != nil {
		return e
	}
	rs.AuthorizationPolicy = &tenant.AuthorizationPolicy{PolicyID: id}
	return nil
}

func (s *Server) createResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only(append([]string{"identifier"}, rsWritable...)...); e != nil {
		return e
	}
	ident, e := b.Str("identifier", true, 1, 600)
	if e != nil {
		return e
	}
	if s.FindResourceServer(ident) != nil {
		return wire.NewErr(409, "A resource server with the same identifier already exists.", "operation_not_supported")
	}
	rs := &tenant.ResourceServer{
		Identifier: ident, TokenLifetime: 86400, TokenLifetimeForWeb: 7200, SigningAlg: "RS256",
		SubjectTypeAuthorization: tenant.DefaultSubjectTypeAuthorization(),
	}
	if e := applyResourceServer(rs, b, true); e != nil {
		return e
	}
	// A system API's identifier makes it from its template; system APIs
	// are not counted against the entity cap.
	if sys := s.SystemTemplate(ident); sys != nil {
		rs = sys
	} else {
		custom := 0
		for _, other := range s.St.ResourceServers {
			if !other.IsSystem {
				custom++
			}
		}
		if e := s.capReached(custom); e != nil {
			return e
		}
	}
	rs.ID, rs.Seq = wire.RandomHex(24), s.St.Next()
	// Omitted until set (reference §4), or filled in (Assume.UnsetFields).
	if s.Assume.UnsetFields == "fill" && !rs.IsSystem {
		if rs.EnforcePolicies == nil {
			rs.EnforcePolicies = new(bool)
		}
		if rs.TokenDialect == nil {
			dialect := "access_token"
			rs.TokenDialect = &dialect
		}
	}
	s.St.ResourceServers[rs.ID] = rs
	wire.WriteJSON(w, 201, rs)
	return nil
}

func (s *Server) listResourceServers(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	want := r.URL.Query()["identifiers"]
	var match []*tenant.ResourceServer
	for _, rs := range tenant.SortedBySeq(s.St.ResourceServers, func(r *tenant.ResourceServer) int64 { return r.Seq }) {
		if len(want) > 0 && !wire.Contains(want, rs.Identifier) {
			continue
		}
		match = append(match, rs)
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	start, end := wire.Window(len(match), page, perPage)
	items := wire.Each(sel, match[start:end])
	if !totals {
		wire.WriteJSON(w, 200, items)
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"total", len(match)}, {"start", page * perPage}, {"limit", perPage}, {"resource_servers", items}})
	return nil
}

func (s *Server) getResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(rs))
	return nil
}

func (s *Server) updateResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if kind := s.SystemKindOf(rs); kind != tenant.NotSystem {
		if e := tenant.SystemPatch(kind, rs, b); e != nil {
			return e
		}
	} else if e := b.Only(rsWritable...); e != nil {
		return e
	}
	// Validate on a copy so a refused PATCH changes nothing.
	next := rs.Clone()
	if e := applyResourceServer(next, b, false); e != nil {
		return e
	}
	*rs = *next
	wire.WriteJSON(w, 200, rs)
	return nil
}

func (s *Server) deleteResourceServer(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	rs, e := s.lookupResourceServer(r)
	if e != nil {
		// Deleting an API that no longer exists succeeds.
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if e := tenant.SystemDelete(s.SystemKindOf(rs), rs); e != nil {
		return e
	}
	delete(s.St.ResourceServers, rs.ID)
	// Permissions that named the API go with it.
	for _, perms := range s.St.RolePerms {
		delete(perms, rs.Identifier)
	}
	// And so do the client grants for it (assumption: not recorded).
	for id, g := range s.St.Grants {
		if g.Audience == rs.Identifier {
			delete(s.St.Grants, id)
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNoContent)
	return nil
}
