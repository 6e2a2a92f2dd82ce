package transitions_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	mrand "math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestTransitions_resourceServer(t *testing.T) {
	walk(t, func(t *testing.T, _ *acctest.Target) walker {
		keys := [2]string{publicKey(t), publicKey(t)}
		return &serverWalker{base: "https://api.example.com/" + acctest.RandomName(), keys: keys}
	})
}

func publicKey(t *testing.T) string {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

type scope struct{ value, description string }

type pop struct {
	mechanism   string
	required    bool
	requiredFor string
}

type encryption struct {
	alg, name, kid string
	key            int
}

// serverConfig is a tenant_resource_server configuration; nil is unset.
type serverConfig struct {
	keys                                      *[2]string
	ident                                     string
	name                                      *string
	scopes                                    []scope
	alg, secret, dialect, consent, policy     *string
	user, client                              *string
	offline, skip, enforce, online, ephemeral *bool
	lifetime, web                             *int64
	details                                   []string
	pop                                       *pop
	enc                                       *encryption
	subjectTypeSet                            bool
	// secretWO sends secret as signing_secret_wo, with woVersion.
	secretWO  bool
	woVersion int
	// held is what the tenant keeps from earlier steps of the same API.
	held held
}

// held are the values an API keeps when their arguments are removed from
// the configuration: name and token_dialect keep their last value (the
// provider never sends null for them), and so do
// proof_of_possession.required_for and the encryption key's name and kid
// while their object stays; enforce_policies keeps false, and a removed
// true becomes false (enforcement off, as never set). A replacement starts
// over.
type held struct {
	name, dialect           *string
	enforce                 *bool
	popFor, encName, encKid string
}

// holds is what the tenant keeps once c is applied.
func (c *serverConfig) holds() held {
	h := c.held
	if c.name != nil {
		h.name = c.name
	}
	if c.dialect != nil {
		h.dialect = c.dialect
	}
	switch {
	case c.enforce != nil:
		h.enforce = c.enforce
	case h.enforce != nil && *h.enforce:
		h.enforce = new(bool)
	}
	switch {
	case c.pop == nil:
		h.popFor = ""
	case c.pop.requiredFor != "":
		h.popFor = c.pop.requiredFor
	}
	if c.enc == nil {
		h.encName, h.encKid = "", ""
	} else {
		if c.enc.name != "" {
			h.encName = c.enc.name
		}
		if c.enc.kid != "" {
			h.encKid = c.enc.kid
		}
	}
	return h
}

type serverWalker struct {
	base string
	keys [2]string
}

func (w *serverWalker) First(r *mrand.Rand) config {
	c := &serverConfig{keys: &w.keys, ident: w.base}
	for range 1 + r.IntN(6) {
		c.mutate(r)
	}
	return c
}

func (w *serverWalker) Next(r *mrand.Rand, prev config) config {
	p := prev.(*serverConfig)
	c := *p
	c.held = p.holds()
	switch {
	case maybe(r, 12):
		// A replacement: another identifier (at the 600-character bound
		// now and then).
		c.ident = pick(r, w.base+"/v2", w.base+"/"+strings.Repeat("i", 600-len(w.base)-1), w.base)
		if c.ident != p.ident {
			c.held = held{}
		}
	case maybe(r, 10):
		// Back to a configuration with nothing but the identifier.
		c = serverConfig{keys: &w.keys, ident: c.ident, held: c.held}
	}
	for range 1 + r.IntN(3) {
		c.mutate(r)
	}
	return &c
}

// mutate sets, changes or removes one argument, keeping the configuration
// valid (web lifetime within the lifetime, a secret only with HS256).
func (c *serverConfig) mutate(r *mrand.Rand) {
	str := func(v string) *string { return &v }
	boolean := func() *bool { return pick(r, nil, ptr(true), ptr(false)) }
	switch r.IntN(17) {
	case 0:
		c.name = pick(r, nil, str("a"), str(strings.Repeat("é", 200)), str("Orders API"))
	case 1:
		if len(c.scopes) > 0 && maybe(r, 2) {
			// One scope edited, removed or added: the others stay.
			c.scopes = append([]scope(nil), c.scopes...)
			i := r.IntN(len(c.scopes))
			switch r.IntN(3) {
			case 0:
				c.scopes[i].description = pick(r, "", "Edited "+fmt.Sprint(i), strings.Repeat("e", 500))
			case 1:
				if len(c.scopes) > 1 {
					c.scopes = append(c.scopes[:i], c.scopes[i+1:]...)
				}
			case 2:
				c.scopes = append(c.scopes, scope{value: fmt.Sprintf("added:%d", r.IntN(1000))})
				c.scopes = uniqueScopes(c.scopes)
			}
			return
		}
		c.scopes = nil
		if !maybe(r, 3) {
			for i := range 1 + r.IntN(3) {
				s := scope{value: fmt.Sprintf("p:%d", i)}
				switch r.IntN(4) {
				case 0:
					s.value = strings.Repeat("v", 279) + fmt.Sprint(i)
				case 1:
					s.description = strings.Repeat("d", 500)
				case 2:
					s.description = "Scope " + fmt.Sprint(i)
				}
				c.scopes = append(c.scopes, s)
			}
		}
	case 2:
		c.alg = pick(r, nil, str("RS256"), str("RS512"), str("PS256"), str("HS256"))
		if c.alg == nil || *c.alg != "HS256" {
			c.secret, c.secretWO = nil, false
		}
	case 3:
		if c.alg != nil && *c.alg == "HS256" {
			c.secret = pick(r, nil, str("0123456789abcdef"), str(strings.Repeat("s", 40)), str(fmt.Sprintf("rotated-%d-0123456789", r.IntN(1000))))
			// Write-only now and then; a new write-only value comes with a
			// new version, as the documentation says.
			c.secretWO = c.secret != nil && maybe(r, 2)
			c.woVersion++
		}
	case 4:
		c.offline = boolean()
	case 5:
		c.lifetime = pick(r, nil, ptr[int64](0), ptr[int64](1), ptr[int64](3600), ptr[int64](2592000))
		if c.web != nil && *c.web > c.life() {
			c.web = ptr(c.life())
		}
	case 6:
		c.web = pick(r, nil, ptr[int64](0), ptr(min(c.life(), 600)), ptr(c.life()))
	case 7:
		c.skip = boolean()
	case 8:
		c.enforce = boolean()
	case 9:
		c.dialect = pick(r, nil, str("access_token"), str("access_token_authz"), str("rfc9068_profile"), str("rfc9068_profile_authz"))
	case 10:
		c.online, c.ephemeral = boolean(), boolean()
	case 11:
		c.subjectTypeSet = !maybe(r, 3)
		c.user = pick(r, nil, str("allow_all"), str("deny_all"), str("require_client_grant"))
		c.client = pick(r, nil, str("deny_all"), str("require_client_grant"))
	case 12:
		c.consent = pick(r, nil, str("transactional-authorization-with-mfa"))
	case 13:
		c.details = pick(r, nil, []string{"payment_initiation"}, []string{"a", strings.Repeat("t", 255)})
	case 14:
		c.pop = pick(r, nil, &pop{"mtls", true, ""}, &pop{"dpop", false, "public_clients"}, &pop{"dpop", true, "all_clients"})
	case 15:
		c.enc = pick(r, nil, &encryption{alg: "RSA-OAEP-256", key: 0}, &encryption{alg: "RSA-OAEP-512", name: "k", kid: "kid-1", key: 1},
			&encryption{alg: "RSA-OAEP-384", key: 1})
	case 16:
		c.policy = pick(r, nil, str("pol_1"), str(strings.Repeat("p", 255)))
	}
}

func ptr[T any](v T) *T { return &v }

// plainSecret is the secret written as signing_secret (nil when it is
// write-only or unset).
func (c *serverConfig) plainSecret() *string {
	if c.secretWO {
		return nil
	}
	return c.secret
}

// uniqueScopes keeps the last scope of each value, as a map would.
func uniqueScopes(scopes []scope) []scope {
	seen := map[string]int{}
	var out []scope
	for _, s := range scopes {
		if i, ok := seen[s.value]; ok {
			out[i] = s
			continue
		}
		seen[s.value] = len(out)
		out = append(out, s)
	}
	return out
}

func (c *serverConfig) life() int64 {
	if c.lifetime == nil {
		return 86400
	}
	return *c.lifetime
}

func (c *serverConfig) Address() string { return "tenant_resource_server.walk" }
func (c *serverConfig) ImportIgnore() []string {
	// An import reads no secret and knows no write-only version.
	return []string{"token_encryption.encryption_key.pem", "signing_secret", "signing_secret_wo_version"}
}

func (c *serverConfig) HCL() string {
	var b strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&b, "  %s = %v\n", k, v) }
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	b.WriteString("resource \"tenant_resource_server\" \"walk\" {\n")
	line("identifier", q(c.ident))
	if c.name != nil {
		line("name", q(*c.name))
	}
	if c.scopes != nil {
		var items []string
		for _, s := range c.scopes {
			items = append(items, fmt.Sprintf("%q = %q", s.value, s.description))
		}
		line("scopes", "{ "+strings.Join(items, ", ")+" }")
	}
	for _, kv := range []struct {
		k string
		v *string
	}{{"signing_alg", c.alg}, {"signing_secret", c.plainSecret()}, {"token_dialect", c.dialect}, {"consent_policy", c.consent}} {
		if kv.v != nil {
			line(kv.k, q(*kv.v))
		}
	}
	for _, kv := range []struct {
		k string
		v *bool
	}{{"allow_offline_access", c.offline}, {"skip_consent_for_verifiable_first_party_clients", c.skip}, {"enforce_policies", c.enforce},
		{"allow_online_access", c.online}, {"allow_online_access_with_ephemeral_sessions", c.ephemeral}} {
		if kv.v != nil {
			line(kv.k, *kv.v)
		}
	}
	if c.secretWO {
		line("signing_secret_wo", q(*c.secret))
		line("signing_secret_wo_version", c.woVersion)
	}
	if c.lifetime != nil {
		line("token_lifetime", *c.lifetime)
	}
	if c.web != nil {
		line("token_lifetime_for_web", *c.web)
	}
	if c.subjectTypeSet {
		var sides []string
		if c.user != nil {
			sides = append(sides, fmt.Sprintf("user = { policy = %q }", *c.user))
		}
		if c.client != nil {
			sides = append(sides, fmt.Sprintf("client = { policy = %q }", *c.client))
		}
		line("subject_type_authorization", "{ "+strings.Join(sides, ", ")+" }")
	}
	if c.details != nil {
		var items []string
		for _, d := range c.details {
			items = append(items, fmt.Sprintf("{ type = %q }", d))
		}
		line("authorization_details", "["+strings.Join(items, ", ")+"]")
	}
	if c.pop != nil {
		p := fmt.Sprintf("{ mechanism = %q, required = %t", c.pop.mechanism, c.pop.required)
		if c.pop.requiredFor != "" {
			p += fmt.Sprintf(", required_for = %q", c.pop.requiredFor)
		}
		line("proof_of_possession", p+" }")
	}
	if c.enc != nil {
		k := fmt.Sprintf("alg = %q, pem = %q", c.enc.alg, c.keys[c.enc.key])
		if c.enc.name != "" {
			k += fmt.Sprintf(", name = %q", c.enc.name)
		}
		if c.enc.kid != "" {
			k += fmt.Sprintf(", kid = %q", c.enc.kid)
		}
		line("token_encryption", fmt.Sprintf("{ format = \"compact-nested-jwe\", encryption_key = { %s } }", k))
	}
	if c.policy != nil {
		line("authorization_policy", fmt.Sprintf("{ policy_id = %q }", *c.policy))
	}
	b.WriteString("}\n")
	return b.String()
}

// want is the API object the configuration means: the tenant's defaults
// for what is unset (reference §4), what the provider sends for them, and
// what earlier steps left that a removal keeps (held).
func (c *serverConfig) want(got map[string]any) map[string]any {
	orDefault := func(v *bool) bool { return v != nil && *v }
	alg := "RS256"
	if c.alg != nil {
		alg = *c.alg
	}
	web := min(int64(7200), c.life())
	if c.web != nil {
		web = *c.web
	}
	user, client := "allow_all", "require_client_grant"
	if c.subjectTypeSet && c.user != nil {
		user = *c.user
	}
	if c.subjectTypeSet && c.client != nil {
		client = *c.client
	}
	w := map[string]any{
		"id":                   got["id"],
		"identifier":           c.ident,
		"allow_offline_access": orDefault(c.offline),
		"skip_consent_for_verifiable_first_party_clients": orDefault(c.skip),
		"allow_online_access":                             orDefault(c.online),
		"allow_online_access_with_ephemeral_sessions":     orDefault(c.ephemeral),
		"subject_type_authorization":                      map[string]any{"user": map[string]any{"policy": user}, "client": map[string]any{"policy": client}},
		"token_lifetime":                                  c.life(),
		"token_lifetime_for_web":                          web,
		"signing_alg":                                     alg,
	}
	h := c.holds()
	if h.name != nil {
		w["name"] = *h.name
	}
	if alg == "HS256" {
		w["signing_secret"] = got["signing_secret"] // generated when not set
		if c.secret != nil {
			w["signing_secret"] = *c.secret
		}
	}
	if c.scopes != nil {
		sorted := append([]scope(nil), c.scopes...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].value < sorted[j].value })
		var list []any
		for _, s := range sorted {
			// An empty description is not sent, and an absent one reads as "".
			item := map[string]any{"value": s.value}
			if s.description != "" {
				item["description"] = s.description
			}
			list = append(list, item)
		}
		w["scopes"] = list
	}
	if h.enforce != nil {
		w["enforce_policies"] = *h.enforce
	}
	if h.dialect != nil {
		w["token_dialect"] = *h.dialect
	}
	if c.consent != nil {
		w["consent_policy"] = *c.consent
	}
	if c.details != nil {
		var list []any
		for _, d := range c.details {
			list = append(list, map[string]any{"type": d})
		}
		w["authorization_details"] = list
	}
	if c.pop != nil {
		p := map[string]any{"mechanism": c.pop.mechanism, "required": c.pop.required}
		if h.popFor != "" {
			p["required_for"] = h.popFor
		}
		w["proof_of_possession"] = p
	}
	if c.enc != nil {
		k := map[string]any{"alg": c.enc.alg}
		if h.encName != "" {
			k["name"] = h.encName
		}
		if h.encKid != "" {
			k["kid"] = h.encKid
		}
		// The thumbprint is the tenant's; only its presence is checked.
		if e, ok := got["token_encryption"].(map[string]any); ok {
			if key, ok := e["encryption_key"].(map[string]any); ok && key["thumbprint_sha256"] != nil {
				k["thumbprint_sha256"] = key["thumbprint_sha256"]
			}
		}
		w["token_encryption"] = map[string]any{"format": "compact-nested-jwe", "encryption_key": k}
	}
	if c.policy != nil {
		w["authorization_policy"] = map[string]any{"policy_id": *c.policy}
	}
	return w
}

// customServers are the APIs of the tenant that are not system APIs.
func customServers(st emulator.State) []map[string]any {
	var out []map[string]any
	for _, raw := range st.ResourceServers {
		if m := decode(raw); m["is_system"] != true {
			out = append(out, m)
		}
	}
	return out
}

func (c *serverConfig) Check(st emulator.State) error {
	servers := customServers(st)
	if len(servers) != 1 {
		return fmt.Errorf("the tenant holds %d custom APIs, want exactly the configured one", len(servers))
	}
	got := servers[0]
	// Scopes are a set: compare them in one order.
	if s, ok := got["scopes"].([]any); ok {
		sort.Slice(s, func(i, j int) bool {
			return fmt.Sprint(s[i].(map[string]any)["value"]) < fmt.Sprint(s[j].(map[string]any)["value"])
		})
		if len(s) == 0 {
			delete(got, "scopes")
		}
	}
	// The online access flags are absent until they are first sent
	// (reference §4): absent is false. Whether a removal sends false or
	// leaves the key is the provider's choice; both mean the default.
	for _, k := range []string{"allow_online_access", "allow_online_access_with_ephemeral_sessions"} {
		if _, ok := got[k]; !ok {
			got[k] = false
		}
	}
	return diff("the API "+c.ident, got, c.want(got))
}

func (w *serverWalker) Gone(st emulator.State) error {
	if n := len(customServers(st)); n != 0 {
		return fmt.Errorf("%d APIs left after destroy", n)
	}
	return nil
}
