package transitions_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func TestTransitions_client(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		return &clientWalker{name: acctest.RandomName(), defaultID: target.ClientID}
	})
}

type clientWalker struct {
	name, defaultID string
}

// clientConfig is a tenant_client configuration, and kept the values the
// tenant keeps for the arguments whose removal leaves them (app_type,
// grant_types, jwt_configuration.alg).
type clientConfig struct {
	name           string
	description    *string
	appType        *string
	firstParty     *bool
	oidc           *bool
	callbacks      []string
	grantTypes     []string
	metadata       map[string]string
	exchange       []string
	rotation       *string // refresh_token.rotation_type; "rotating" also makes it expiring
	alg            *string // jwt_configuration.alg
	compliance     *string
	quotaPerDay    *int
	kept           map[string]any
	defaultClient  string
	secretRotation *int
	// session transfer: nil unsets it; otherwise the one setting given,
	// the others left to the tenant.
	transferToken *bool
	// oidc_logout: the URL; the tenant keeps it once set (kept["logout"]).
	logoutURL *string
}

func (w *clientWalker) First(r *rand.Rand) config {
	c := &clientConfig{name: w.name, kept: map[string]any{}, defaultClient: w.defaultID}
	w.mutate(r, c)
	return c
}

func (w *clientWalker) Next(r *rand.Rand, prev config) config {
	p := prev.(*clientConfig)
	c := *p
	c.callbacks = slices.Clone(p.callbacks)
	c.grantTypes = slices.Clone(p.grantTypes)
	c.metadata = maps.Clone(p.metadata)
	c.exchange = slices.Clone(p.exchange)
	c.kept = maps.Clone(p.kept)
	w.mutate(r, &c)
	return &c
}

func (w *clientWalker) mutate(r *rand.Rand, c *clientConfig) {
	str := func(s string) *string { return &s }
	b := func(v bool) *bool { return &v }
	num := func(n int) *int { return &n }
	for range 1 + r.IntN(3) {
		switch r.IntN(13) {
		case 0:
			c.name = pick(r, w.name, w.name+"-2", "c", w.name+strings.Repeat("ß", 20))
		case 1:
			c.description = pick(r, nil, str(""), str("The web app"), str(strings.Repeat("ü", 140)))
		case 2:
			c.appType = pick(r, nil, str("regular_web"), str("spa"), str("non_interactive"))
		case 3:
			c.firstParty = pick(r, nil, b(true), b(false))
		case 4:
			c.oidc = pick(r, nil, b(true), b(false))
		case 5:
			c.callbacks = pick(r, nil, []string{"https://a.example.com/cb"}, []string{"https://b.example.com/cb", "https://a.example.com/cb"})
		case 6:
			c.grantTypes = pick(r, nil, []string{"client_credentials"}, []string{"authorization_code", "refresh_token"})
		case 7:
			c.metadata = pick(r, nil, map[string]string{"team": "web"}, map[string]string{"team": "api", "tier": "gold"})
		case 8:
			c.exchange = pick(r, nil, []string{"custom_authentication"}, []string{"custom_authentication", "on_behalf_of_token_exchange"})
		case 9:
			c.rotation = pick(r, nil, str("rotating"), str("non-rotating"))
			c.alg = pick(r, nil, str("RS256"), str("HS256"))
		case 10:
			c.compliance = pick(r, nil, str("fapi1_adv_pkj_par"))
			c.quotaPerDay = pick(r, nil, num(10), num(1000))
		case 11:
			c.secretRotation = pick(r, nil, num(1), num(2))
		case 12:
			// Partly filled objects, added to a client without them.
			c.transferToken = pick(r, nil, b(true), b(false))
			c.logoutURL = pick(r, nil, str("https://a.example.com/logout"), str("https://b.example.com/logout"))
		}
	}
	if c.appType != nil {
		c.kept["app_type"] = *c.appType
	}
	if c.grantTypes != nil {
		c.kept["grant_types"] = c.grantTypes
	}
	if c.alg != nil {
		c.kept["alg"] = *c.alg
	}
	if c.logoutURL != nil {
		c.kept["logout"] = *c.logoutURL
	}
}

func (c *clientConfig) Address() string        { return "tenant_client.walk" }
func (c *clientConfig) ImportIgnore() []string { return []string{"client_secret_rotation"} }

func hclList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (c *clientConfig) HCL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"tenant_client\" \"walk\" {\n  name = %q\n", c.name)
	if c.description != nil {
		fmt.Fprintf(&b, "  description = %q\n", *c.description)
	}
	if c.appType != nil {
		fmt.Fprintf(&b, "  app_type = %q\n", *c.appType)
	}
	if c.firstParty != nil {
		fmt.Fprintf(&b, "  is_first_party = %t\n", *c.firstParty)
	}
	if c.oidc != nil {
		fmt.Fprintf(&b, "  oidc_conformant = %t\n", *c.oidc)
	}
	if c.callbacks != nil {
		fmt.Fprintf(&b, "  callbacks = %s\n", hclList(c.callbacks))
	}
	if c.grantTypes != nil {
		fmt.Fprintf(&b, "  grant_types = %s\n", hclList(c.grantTypes))
	}
	if c.metadata != nil {
		b.WriteString("  client_metadata = {\n")
		for _, k := range slices.Sorted(maps.Keys(c.metadata)) {
			fmt.Fprintf(&b, "    %s = %q\n", k, c.metadata[k])
		}
		b.WriteString("  }\n")
	}
	if c.exchange != nil {
		fmt.Fprintf(&b, "  token_exchange = { allow_any_profile_of_type = %s }\n", hclList(c.exchange))
	}
	if c.rotation != nil {
		expiration := "non-expiring"
		if *c.rotation == "rotating" {
			expiration = "expiring"
		}
		fmt.Fprintf(&b, "  refresh_token = { rotation_type = %q, expiration_type = %q }\n", *c.rotation, expiration)
	}
	if c.alg != nil {
		fmt.Fprintf(&b, "  jwt_configuration = { alg = %q }\n", *c.alg)
	}
	if c.compliance != nil {
		fmt.Fprintf(&b, "  compliance_level = %q\n", *c.compliance)
	}
	if c.quotaPerDay != nil {
		fmt.Fprintf(&b, "  token_quota = { client_credentials = { enforce = true, per_day = %d, per_hour = 5 } }\n", *c.quotaPerDay)
	}
	if c.secretRotation != nil {
		fmt.Fprintf(&b, "  client_secret_rotation = %d\n", *c.secretRotation)
	}
	if c.transferToken != nil {
		fmt.Fprintf(&b, "  session_transfer = { can_create_session_transfer_token = %t }\n", *c.transferToken)
	}
	if c.logoutURL != nil {
		fmt.Fprintf(&b, "  oidc_logout = { backchannel_logout_urls = [%q] }\n", *c.logoutURL)
	}
	b.WriteString("}\n")
	return b.String()
}

// walked returns the walk's client of the state (every client but the
// emulator's default one).
func walked(st emulator.State, defaultID string) ([]map[string]any, error) {
	var out []map[string]any
	for _, raw := range st.Clients {
		c := decode(raw)
		if c["client_id"] != defaultID {
			out = append(out, c)
		}
	}
	return out, nil
}

// effective is a field of the tenant's object as it acts: absent, null, an
// empty list and an empty object (client_metadata once its keys are
// removed) are all the value given.
func effective(obj map[string]any, key string, absent any) any {
	v, ok := obj[key]
	if !ok || v == nil {
		return absent
	}
	if l, isList := v.([]any); isList && len(l) == 0 {
		return absent
	}
	if m, isMap := v.(map[string]any); isMap && len(m) == 0 {
		return absent
	}
	return v
}

func (c *clientConfig) Check(st emulator.State) error {
	clients, _ := walked(st, c.defaultClient)
	if len(clients) != 1 {
		return fmt.Errorf("the tenant holds %d clients besides the default one, want 1", len(clients))
	}
	got := clients[0]
	orDefault := func(v *bool, def bool) bool {
		if v == nil {
			return def
		}
		return *v
	}
	rotation, expiration, infinite := "non-rotating", "non-expiring", true
	if c.rotation != nil && *c.rotation == "rotating" {
		rotation, expiration, infinite = "rotating", "expiring", false
	}
	want := map[string]any{
		"name":                 c.name,
		"description":          "",
		"app_type":             c.kept["app_type"],
		"is_first_party":       orDefault(c.firstParty, true),
		"oidc_conformant":      orDefault(c.oidc, false),
		"sso_disabled":         false,
		"custom_login_page_on": true,
		"callbacks":            nil,
		"client_metadata":      nil,
		"token_exchange":       nil,
		"compliance_level":     nil,
		"token_quota":          nil,
		"session_transfer":     nil,
		"refresh_token": map[string]any{"rotation_type": rotation, "expiration_type": expiration, "leeway": 0, "token_lifetime": 2592000,
			"infinite_token_lifetime": infinite, "infinite_idle_token_lifetime": infinite, "idle_token_lifetime": 1296000},
	}
	if c.description != nil {
		want["description"] = *c.description
	}
	if c.callbacks != nil {
		want["callbacks"] = c.callbacks
	}
	if c.metadata != nil {
		want["client_metadata"] = c.metadata
	}
	if c.exchange != nil {
		want["token_exchange"] = map[string]any{"allow_any_profile_of_type": c.exchange}
	}
	if c.compliance != nil {
		want["compliance_level"] = *c.compliance
	}
	if c.quotaPerDay != nil {
		want["token_quota"] = map[string]any{"client_credentials": map[string]any{"enforce": true, "per_day": *c.quotaPerDay, "per_hour": 5}}
	}
	if c.transferToken != nil {
		// The tenant's values for the settings left out [O: all six in the answer].
		want["session_transfer"] = map[string]any{"can_create_session_transfer_token": *c.transferToken,
			"allowed_authentication_methods": []string{"cookie"}, "enforce_device_binding": "ip", "allow_refresh_token": false,
			"enforce_online_refresh_tokens": false, "enforce_cascade_revocation": false}
	}
	cmp := map[string]any{}
	for k := range want {
		var absent any
		if k == "description" {
			absent = ""
		}
		cmp[k] = effective(got, k, absent)
	}
	if err := diff("the client", cmp, want); err != nil {
		return err
	}
	// The values the tenant keeps once set.
	if alg, ok := c.kept["alg"]; ok {
		jwt, _ := got["jwt_configuration"].(map[string]any)
		if jwt["alg"] != alg {
			return fmt.Errorf("the client's jwt_configuration.alg is %v, want %v", jwt["alg"], alg)
		}
	}
	if url, ok := c.kept["logout"]; ok {
		logout, _ := got["oidc_logout"].(map[string]any)
		if urls, _ := logout["backchannel_logout_urls"].([]any); len(urls) != 1 || urls[0] != url {
			return fmt.Errorf("the client's oidc_logout is %v, want the URL %v", logout, url)
		}
	}
	if types, ok := c.kept["grant_types"]; ok {
		g, _ := json.Marshal(got["grant_types"])
		w, _ := json.Marshal(types)
		if string(g) != string(w) {
			return fmt.Errorf("the client's grant_types are %s, want %s", g, w)
		}
	}
	return nil
}

func (w *clientWalker) Gone(st emulator.State) error {
	if clients, _ := walked(st, w.defaultID); len(clients) != 0 {
		return fmt.Errorf("%d clients left after destroy", len(clients))
	}
	return nil
}

func TestTransitions_clientGrant(t *testing.T) {
	walk(t, func(t *testing.T, target *acctest.Target) walker {
		return &grantWalker{name: acctest.RandomName(), defaultID: target.ClientID}
	})
}

type grantWalker struct{ name, defaultID string }

// grantConfig is a tenant_client_grant configuration, with the client and
// the API it names.
type grantConfig struct {
	name, defaultClient string
	subjectType         *string
	scopes              []string
	allowAll            *bool
	orgUsage            *string
	anyOrg              *bool
	details             []string
}

func (w *grantWalker) First(r *rand.Rand) config {
	c := &grantConfig{name: w.name, defaultClient: w.defaultID}
	w.mutate(r, c)
	return c
}

func (w *grantWalker) Next(r *rand.Rand, prev config) config {
	p := prev.(*grantConfig)
	c := *p
	c.scopes, c.details = slices.Clone(p.scopes), slices.Clone(p.details)
	w.mutate(r, &c)
	return &c
}

func (w *grantWalker) mutate(r *rand.Rand, c *grantConfig) {
	str := func(s string) *string { return &s }
	b := func(v bool) *bool { return &v }
	for range 1 + r.IntN(2) {
		switch r.IntN(5) {
		case 0:
			// Replaces the grant.
			c.subjectType = pick(r, nil, str("client"), str("user"))
		case 1:
			c.scopes = pick(r, nil, []string{}, []string{"read:x"}, []string{"read:x", "write:x"})
			c.allowAll = nil
		case 2:
			c.allowAll = pick(r, nil, b(false), b(true))
			if c.allowAll != nil && *c.allowAll {
				c.scopes = nil
			}
		case 3:
			c.orgUsage = pick(r, nil, str("deny"), str("allow"), str("require"))
			c.anyOrg = pick(r, nil, b(true), b(false))
		case 4:
			c.details = pick(r, nil, []string{"payment"}, []string{"payment", "shipping"})
		}
	}
}

func (c *grantConfig) Address() string        { return "tenant_client_grant.walk" }
func (c *grantConfig) ImportIgnore() []string { return nil }

func (c *grantConfig) HCL() string {
	var b strings.Builder
	fmt.Fprintf(&b, `resource "tenant_resource_server" "walk" {
  identifier = "https://api.example.com/%[1]s"
  scopes     = { "read:x" = "", "write:x" = "" }
}

resource "tenant_client" "walk" {
  name = %[1]q
}

resource "tenant_client_grant" "walk" {
  client_id = tenant_client.walk.client_id
  audience  = tenant_resource_server.walk.identifier
`, c.name)
	if c.subjectType != nil {
		fmt.Fprintf(&b, "  subject_type = %q\n", *c.subjectType)
	}
	if c.scopes != nil {
		fmt.Fprintf(&b, "  scopes = %s\n", hclList(c.scopes))
	}
	if c.allowAll != nil {
		fmt.Fprintf(&b, "  allow_all_scopes = %t\n", *c.allowAll)
	}
	if c.orgUsage != nil {
		fmt.Fprintf(&b, "  organization_usage = %q\n", *c.orgUsage)
	}
	if c.anyOrg != nil {
		fmt.Fprintf(&b, "  allow_any_organization = %t\n", *c.anyOrg)
	}
	if c.details != nil {
		fmt.Fprintf(&b, "  authorization_details_types = %s\n", hclList(c.details))
	}
	b.WriteString("}\n")
	return b.String()
}

// grantsOf returns the grants of the state other than the default client's.
func grantsOf(st emulator.State, defaultID string) []map[string]any {
	var out []map[string]any
	for _, raw := range st.ClientGrants {
		g := decode(raw)
		if g["client_id"] != defaultID {
			out = append(out, g)
		}
	}
	return out
}

func (c *grantConfig) Check(st emulator.State) error {
	grants := grantsOf(st, c.defaultClient)
	if len(grants) != 1 {
		return fmt.Errorf("the tenant holds %d grants besides the default client's, want 1", len(grants))
	}
	got := grants[0]
	want := map[string]any{
		"audience":                    "https://api.example.com/" + c.name,
		"subject_type":                "client",
		"allow_all_scopes":            false,
		"scope":                       nil,
		"organization_usage":          "deny",
		"allow_any_organization":      false,
		"authorization_details_types": nil,
	}
	if c.subjectType != nil {
		want["subject_type"] = *c.subjectType
	}
	if c.allowAll != nil && *c.allowAll {
		want["allow_all_scopes"] = true
	} else if len(c.scopes) > 0 {
		scopes := slices.Clone(c.scopes)
		slices.Sort(scopes)
		want["scope"] = scopes
	}
	if c.orgUsage != nil {
		want["organization_usage"] = *c.orgUsage
	}
	if c.anyOrg != nil {
		want["allow_any_organization"] = *c.anyOrg
	}
	if c.details != nil {
		want["authorization_details_types"] = c.details
	}
	cmp := map[string]any{}
	for k := range want {
		// What the tenant leaves out is its documented default.
		absent := map[string]any{"organization_usage": "deny", "allow_all_scopes": false, "allow_any_organization": false}[k]
		cmp[k] = effective(got, k, absent)
	}
	if sc, ok := cmp["scope"].([]any); ok {
		sorted := make([]string, len(sc))
		for i, v := range sc {
			sorted[i], _ = v.(string)
		}
		slices.Sort(sorted)
		cmp["scope"] = sorted
	}
	return diff("the grant", cmp, want)
}

func (w *grantWalker) Gone(st emulator.State) error {
	if n := len(grantsOf(st, w.defaultID)); n != 0 {
		return fmt.Errorf("%d grants left after destroy", n)
	}
	return nil
}
