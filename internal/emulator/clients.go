package emulator

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Clients (applications), as reference/clients-and-grants.md gives them:
// the SDK's fields [S], the key sets and defaults of the recorded answers
// [O]. A client is kept as its wire fields, key by key, so that a field the
// emulator does not model in depth (addons, say) is kept as it was sent and
// shown again, as the API would.

// clientRec is a stored client: its wire fields but client_id and
// client_secret, and what only the emulator knows about it.
type clientRec struct {
	ID     string                     `json:"client_id"`
	Secret string                     `json:"client_secret"`
	Fields map[string]json.RawMessage `json:"fields"`
	// Global clients may create token exchange profiles; TokenLifetime
	// overrides the lifetime of the Management API's tokens.
	Global        bool          `json:"global,omitempty"`
	TokenLifetime time.Duration `json:"token_lifetime,omitempty"`
	Seq           int64         `json:"seq"`
}

func (c *clientRec) clone() *clientRec {
	x := *c
	x.Fields = make(map[string]json.RawMessage, len(c.Fields))
	for k, v := range c.Fields {
		x.Fields[k] = v // a stored value is replaced, never changed in place
	}
	return &x
}

// clientKeyOrder is the order of the keys in a client answer: as observed
// where the recordings show two keys together [O], else the SDK's order.
var clientKeyOrder = []string{
	"name", "description", "client_id", "client_secret", "app_type", "logo_uri", "is_first_party",
	"is_token_endpoint_ip_header_trusted", "oidc_conformant", "callbacks", "allowed_origins", "web_origins", "client_aliases",
	"allowed_clients", "allowed_logout_urls", "jwt_configuration", "signing_keys", "encryption_key", "sso", "sso_disabled",
	"cross_origin_authentication", "cross_origin_loc", "grant_types", "custom_login_page_on", "custom_login_page",
	"custom_login_page_preview", "form_template", "token_endpoint_auth_method", "client_metadata", "mobile", "initiate_login_uri",
	"native_social_login", "refresh_token", "oidc_backchannel_logout", "oidc_logout", "organization_usage", "default_organization",
	"organization_require_behavior", "organization_discovery_methods", "client_authentication_methods",
	"require_pushed_authorization_requests", "require_proof_of_possession", "signed_request_object", "compliance_level",
	"token_exchange", "token_quota", "session_transfer", "resource_server_identifier", "async_approval_notification_channels",
	"addons", "express_configuration", "my_organization_configuration", "third_party_security_mode", "redirection_policy",
	"fedcm_login", "identity_assertion_authorization_grant", "token_vault_privileged_access",
	"skip_non_verifiable_callback_uri_confirmation_prompt", "external_client_id", "external_metadata_type",
	"external_metadata_created_by", "jwks_uri",
}

// The enums of the SDK's doc comments [S] and of the recorded values [O].
var (
	appTypes = []string{"spa", "native", "non_interactive", "regular_web", "resource_server", "rms", "box", "cloudbees", "concur",
		"dropbox", "mscrm", "echosign", "egnyte", "newrelic", "office365", "salesforce", "sentry", "sharepoint", "slack", "springcm",
		"zendesk", "zoom", "sso_integration", "oag", "express_configuration"}
	tokenEndpointAuthMethods = []string{"none", "client_secret_post", "client_secret_basic"}
	jwtAlgs                  = []string{"HS256", "RS256", "PS256"}
	rotationTypes            = []string{"rotating", "non-rotating"}
	expirationTypes          = []string{"expiring", "non-expiring"}
	profileTypes             = []string{"custom_authentication", "on_behalf_of_token_exchange"}
	// Assumption (the client's SDK doc gives none): the grant's values
	// (deny, allow, require) and the recorded ones of the prompt.
	orgUsages               = []string{"deny", "allow", "require"}
	orgRequireBehaviors     = []string{"no_prompt", "pre_login_prompt", "post_login_prompt"}
	orgDiscoveryMethods     = []string{"email", "organization_name"}
	asyncChannels           = []string{"guardian-push", "email"}
	thirdPartySecurityModes = []string{"strict", "permissive"}
	redirectionPolicies     = []string{"allow_always", "open_redirect_protection"}
	// Session transfer: the recorded values [O] and the delegation's [S].
	sessionAuthMethods = []string{"cookie", "query"}
	deviceBindings     = []string{"ip", "asn", "none"}
)

// defaultGrantTypes are a new client's grant types [O].
var defaultGrantTypes = []string{"authorization_code", "implicit", "refresh_token", "client_credentials"}

// clientField is how the API takes one field of a client.
type clientField struct {
	// check validates the value at k and returns it as stored.
	check func(o obj, k string) (json.RawMessage, *apiErr)
	// nullable: an explicit null removes the field (on create, it is as if
	// it were not sent).
	nullable bool
	// nested: an object whose PATCH follows Assumptions.ClientPatch.
	nested bool
	// createOnly fields are refused by PATCH; patchOnly ones by POST.
	createOnly, patchOnly bool
}

// clientFields are the fields a client write may carry. Assumptions where
// the reference is silent: string fields without a documented bound take
// any length; the fields the SDK documents as unset by null are nullable,
// and so are the optional strings and lists; the objects that are not
// modelled in depth (addons, mobile, signed_request_object, ...) must be
// objects and are kept as sent.
var clientFields = map[string]clientField{
	"name":                                  {check: cString(1, 0)},
	"description":                           {check: cString(0, 140), nullable: true},
	"client_secret":                         {check: cString(1, 0), patchOnly: true},
	"app_type":                              {check: cEnum(appTypes...), nullable: true},
	"logo_uri":                              {check: cString(0, 0), nullable: true},
	"is_first_party":                        {check: cBool},
	"is_token_endpoint_ip_header_trusted":   {check: cBool},
	"oidc_conformant":                       {check: cBool},
	"callbacks":                             {check: cStrings(nil), nullable: true},
	"allowed_origins":                       {check: cStrings(nil), nullable: true},
	"web_origins":                           {check: cStrings(nil), nullable: true},
	"client_aliases":                        {check: cStrings(nil), nullable: true},
	"allowed_clients":                       {check: cStrings(nil), nullable: true},
	"allowed_logout_urls":                   {check: cStrings(nil), nullable: true},
	"jwt_configuration":                     {check: checkJWTConfiguration, nested: true},
	"encryption_key":                        {check: cObject, nullable: true},
	"sso":                                   {check: cBool, nullable: true},
	"sso_disabled":                          {check: cBool},
	"cross_origin_authentication":           {check: cBool},
	"cross_origin_loc":                      {check: cString(0, 0), nullable: true},
	"grant_types":                           {check: cStrings(nil)},
	"custom_login_page_on":                  {check: cBool},
	"custom_login_page":                     {check: cString(0, 0), nullable: true},
	"custom_login_page_preview":             {check: cString(0, 0), nullable: true},
	"form_template":                         {check: cString(0, 0), nullable: true},
	"addons":                                {check: cObject, nullable: true},
	"token_endpoint_auth_method":            {check: cEnum(tokenEndpointAuthMethods...), nullable: true},
	"client_metadata":                       {check: checkClientMetadata, nullable: true},
	"mobile":                                {check: cObject, nullable: true, nested: true},
	"initiate_login_uri":                    {check: cString(0, 0), nullable: true},
	"native_social_login":                   {check: checkNativeSocialLogin, nullable: true, nested: true},
	"refresh_token":                         {check: checkRefreshToken, nested: true},
	"organization_usage":                    {check: cEnum(orgUsages...), nullable: true},
	"organization_require_behavior":         {check: cEnum(orgRequireBehaviors...), nullable: true},
	"organization_discovery_methods":        {check: cStrings(orgDiscoveryMethods), nullable: true},
	"client_authentication_methods":         {check: checkAuthMethods, nullable: true},
	"require_pushed_authorization_requests": {check: cBool},
	"require_proof_of_possession":           {check: cBool},
	"oidc_logout":                           {check: checkOIDCLogout, nullable: true, nested: true},
	"oidc_backchannel_logout":               {check: checkBackchannelLogout, nullable: true},
	"signed_request_object":                 {check: cObject, nullable: true, nested: true},
	"compliance_level":                      {check: cString(1, 0), nullable: true},
	"default_organization":                  {check: checkDefaultOrganization, nullable: true, nested: true},
	"token_exchange":                        {check: checkTokenExchange, nullable: true, nested: true},
	"token_quota":                           {check: checkTokenQuota, nullable: true, nested: true},
	"session_transfer":                      {check: checkSessionTransfer, nullable: true, nested: true},
	"resource_server_identifier":            {check: cString(1, 600), createOnly: true},
	"skip_non_verifiable_callback_uri_confirmation_prompt": {check: cBool, nullable: true},
	"async_approval_notification_channels":                 {check: cStrings(asyncChannels), nullable: true},
	"express_configuration":                                {check: cObject, nullable: true, nested: true},
	"my_organization_configuration":                        {check: cObject, nullable: true, nested: true},
	"third_party_security_mode":                            {check: cEnum(thirdPartySecurityModes...), createOnly: true},
	"redirection_policy":                                   {check: cEnum(redirectionPolicies...), nullable: true},
	"fedcm_login":                                          {check: checkFedCM, nullable: true, nested: true},
	"identity_assertion_authorization_grant":               {check: checkIDJAG, nullable: true, nested: true},
	"token_vault_privileged_access":                        {check: cObject, nullable: true, nested: true},
}

func raw(v any) json.RawMessage { return mustJSON(v) }

func cString(minLen, maxLen int) func(o obj, k string) (json.RawMessage, *apiErr) {
	return func(o obj, k string) (json.RawMessage, *apiErr) {
		s, e := o.str(k, true, minLen, maxLen)
		return raw(s), e
	}
}

func cBool(o obj, k string) (json.RawMessage, *apiErr) {
	v, e := o.boolean(k)
	if e != nil {
		return nil, e
	}
	if v == nil {
		return nil, o.typeErr(k, "boolean")
	}
	return raw(*v), nil
}

func cEnum(values ...string) func(o obj, k string) (json.RawMessage, *apiErr) {
	return func(o obj, k string) (json.RawMessage, *apiErr) {
		v, e := o.enum(k, values...)
		if e != nil {
			return nil, e
		}
		if v == nil {
			return nil, o.typeErr(k, "string")
		}
		return raw(*v), nil
	}
}

// cStrings is an array of strings, each one of enum when enum is set,
// without repeats.
func cStrings(enum []string) func(o obj, k string) (json.RawMessage, *apiErr) {
	return func(o obj, k string) (json.RawMessage, *apiErr) {
		items, e := stringList(o, k, enum)
		return raw(items), e
	}
}

func stringList(o obj, k string, enum []string) ([]string, *apiErr) {
	items, ok, e := o.array(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.typeErr(k, "array")
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		var s string
		if jsonType(it) != "string" || json.Unmarshal(it, &s) != nil {
			return nil, payloadErr("Expected type string but found type "+jsonType(it), o.prop(k)+"["+strconv.Itoa(i)+"]")
		}
		if enum != nil && !contains(enum, s) {
			return nil, payloadErr("No enum match for: \""+s+"\"", o.prop(k)+"["+strconv.Itoa(i)+"]")
		}
		if contains(out, s) {
			return nil, payloadErr("Array items are not unique", o.prop(k))
		}
		out = append(out, s)
	}
	return out, nil
}

func cObject(o obj, k string) (json.RawMessage, *apiErr) {
	x, ok, e := o.object(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.typeErr(k, "object")
	}
	return raw(x.b), nil
}

// optBool copies the boolean k of in to out when it is there.
func optBool(in obj, k string, out *ordered) *apiErr {
	if !in.has(k) {
		return nil
	}
	v, e := in.boolean(k)
	if e != nil {
		return e
	}
	if v == nil {
		return in.typeErr(k, "boolean")
	}
	*out = append(*out, ordered{{k, *v}}...)
	return nil
}

func optInt(in obj, k string, lo, hi int64, out *ordered) *apiErr {
	if !in.has(k) {
		return nil
	}
	v, e := in.integer(k, lo, hi)
	if e != nil {
		return e
	}
	if v == nil {
		return in.typeErr(k, "integer")
	}
	*out = append(*out, ordered{{k, *v}}...)
	return nil
}

func optEnum(in obj, k string, values []string, out *ordered) *apiErr {
	if !in.has(k) {
		return nil
	}
	v, e := in.enum(k, values...)
	if e != nil {
		return e
	}
	if v == nil {
		return in.typeErr(k, "string")
	}
	*out = append(*out, ordered{{k, *v}}...)
	return nil
}

func nested(o obj, k string, keys ...string) (obj, *apiErr) {
	x, ok, e := o.object(k)
	if e != nil {
		return obj{}, e
	}
	if !ok {
		return obj{}, o.typeErr(k, "object")
	}
	return x, x.only(keys...)
}

// checkJWTConfiguration keeps lifetime_in_seconds, secret_encoded (false
// unless sent [O]), scopes and alg, in the observed order.
func checkJWTConfiguration(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "lifetime_in_seconds", "secret_encoded", "scopes", "alg")
	if e != nil {
		return nil, e
	}
	out := ordered{}
	if x.has("secret_encoded") {
		if e := optBool(x, "secret_encoded", &out); e != nil {
			return nil, e
		}
	} else {
		out = append(out, ordered{{"secret_encoded", false}}...)
	}
	if e := optEnum(x, "alg", jwtAlgs, &out); e != nil {
		return nil, e
	}
	if e := optInt(x, "lifetime_in_seconds", 0, 1<<31-1, &out); e != nil {
		return nil, e
	}
	if x.has("scopes") {
		sc, ok, e := x.object("scopes")
		if e != nil {
			return nil, e
		}
		if !ok {
			return nil, x.typeErr("scopes", "object")
		}
		m := map[string]string{}
		for name := range sc.b {
			v, e := sc.str(name, true, 0, 0)
			if e != nil {
				return nil, e
			}
			m[name] = v
		}
		// An empty map is the same as none (assumption).
		if len(m) > 0 {
			out = append(out, ordered{{"scopes", m}}...)
		}
	}
	return raw(out), nil
}

var metadataKey = regexp.MustCompile(`^[A-Za-z0-9:,\-+=_*?"/\\()<>@\t ]+$`)

// checkClientMetadata: string values of up to 255 characters, at most 10
// keys of up to 255 characters of the SDK's set [S]. A null value removes
// the key (the merge is done by the caller).
func checkClientMetadata(o obj, k string) (json.RawMessage, *apiErr) {
	x, ok, e := o.object(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.typeErr(k, "object")
	}
	m := map[string]any{}
	for name := range x.b {
		if len(name) > 255 || !metadataKey.MatchString(name) {
			return nil, payloadErr("Object didn't pass validation for format metadata-key: "+name, x.prop(name))
		}
		if x.isNull(name) {
			m[name] = nil
			continue
		}
		v, e := x.str(name, true, 0, 255)
		if e != nil {
			return nil, e
		}
		m[name] = v
	}
	return raw(m), nil
}

// checkNativeSocialLogin shows apple, facebook and google, each {enabled}
// [O]; a side not sent is not enabled (assumption).
func checkNativeSocialLogin(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "apple", "facebook", "google")
	if e != nil {
		return nil, e
	}
	out := ordered{}
	for _, side := range []string{"apple", "facebook", "google"} {
		enabled := false
		if x.has(side) {
			y, e := nested(x, side, "enabled")
			if e != nil {
				return nil, e
			}
			v, e := y.boolean("enabled")
			if e != nil {
				return nil, e
			}
			enabled = v != nil && *v
		}
		out = append(out, ordered{{side, map[string]bool{"enabled": enabled}}}...)
	}
	return raw(out), nil
}

// The tenant's refresh token settings for a new client [O].
const (
	defaultRefreshLifetime     = 2592000
	defaultRefreshIdleLifetime = 1296000
)

// checkRefreshToken fills what is not sent with the tenant's defaults [O]:
// an expiring rotation makes both infinite_* false (as recorded for a
// create that sent expiration_type "expiring" alone).
func checkRefreshToken(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "rotation_type", "expiration_type", "leeway", "token_lifetime", "infinite_token_lifetime",
		"infinite_idle_token_lifetime", "idle_token_lifetime", "policies")
	if e != nil {
		return nil, e
	}
	str := func(key string, values []string, def string) (string, *apiErr) {
		if !x.has(key) {
			return def, nil
		}
		v, e := x.enumReq(key, values...)
		return v, e
	}
	rotation, e := str("rotation_type", rotationTypes, "non-rotating")
	if e != nil {
		return nil, e
	}
	expiration, e := str("expiration_type", expirationTypes, "non-expiring")
	if e != nil {
		return nil, e
	}
	integer := func(key string, def int64) (int64, *apiErr) {
		if !x.has(key) {
			return def, nil
		}
		v, e := x.integer(key, 0, 1<<31-1)
		if e == nil && v == nil {
			e = x.typeErr(key, "integer")
		}
		if e != nil {
			return 0, e
		}
		return *v, nil
	}
	boolean := func(key string, def bool) (bool, *apiErr) {
		if !x.has(key) {
			return def, nil
		}
		return x.boolReq(key)
	}
	leeway, e := integer("leeway", 0)
	if e != nil {
		return nil, e
	}
	life, e := integer("token_lifetime", defaultRefreshLifetime)
	if e != nil {
		return nil, e
	}
	infinite, e := boolean("infinite_token_lifetime", expiration == "non-expiring")
	if e != nil {
		return nil, e
	}
	infiniteIdle, e := boolean("infinite_idle_token_lifetime", expiration == "non-expiring")
	if e != nil {
		return nil, e
	}
	idle, e := integer("idle_token_lifetime", defaultRefreshIdleLifetime)
	if e != nil {
		return nil, e
	}
	out := ordered{{"rotation_type", rotation}, {"expiration_type", expiration}, {"leeway", leeway}, {"token_lifetime", life},
		{"infinite_token_lifetime", infinite}, {"infinite_idle_token_lifetime", infiniteIdle}, {"idle_token_lifetime", idle}}
	if x.has("policies") && !x.isNull("policies") {
		items, _, e := x.array("policies")
		if e != nil {
			return nil, e
		}
		policies := []ordered{}
		for i, it := range items {
			p, _, e := asObject(it, x.prop("policies")+"["+strconv.Itoa(i)+"]")
			if e != nil {
				return nil, e
			}
			if e := p.only("audience", "scope"); e != nil {
				return nil, e
			}
			aud, e := p.str("audience", true, 1, 600)
			if e != nil {
				return nil, e
			}
			if e := p.require("scope"); e != nil {
				return nil, e
			}
			scope, e := stringList(p, "scope", nil)
			if e != nil {
				return nil, e
			}
			policies = append(policies, ordered{{"audience", aud}, {"scope", scope}})
		}
		// An empty list is the same as none (assumption).
		if len(policies) > 0 {
			out = append(out, ordered{{"policies", policies}}...)
		}
	}
	return raw(out), nil
}

// checkTokenExchange: {"allow_any_profile_of_type": [...]} [O shape, S values].
func checkTokenExchange(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "allow_any_profile_of_type")
	if e != nil {
		return nil, e
	}
	if e := x.require("allow_any_profile_of_type"); e != nil {
		return nil, e
	}
	types, e := stringList(x, "allow_any_profile_of_type", profileTypes)
	if e != nil {
		return nil, e
	}
	return raw(map[string][]string{"allow_any_profile_of_type": types}), nil
}

// checkBackchannelLogout takes the deprecated oidc_backchannel_logout, which
// the tenant keeps rather than refuses: clients-and-grants.md, "Client" [S]
// ("Deprecated: use OIDCLogout instead of OIDCBackchannelLogout"), and
// "PATCH /api/v2/clients/{id} → 200" [O], whose request keys include it
// and whose answers show it with backchannel_logout_urls.
func checkBackchannelLogout(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "backchannel_logout_urls")
	if e != nil || !x.has("backchannel_logout_urls") {
		return raw(ordered{}), e
	}
	urls, e := stringList(x, "backchannel_logout_urls", nil)
	return raw(ordered{{"backchannel_logout_urls", urls}}), e
}

// checkOIDCLogout: the URLs, the initiators and the session metadata, all
// three in the answer [O]. Assumption (not recorded): the tenant's
// defaults for the two objects not sent are {"mode":"custom",
// "selected_initiators":["rp-logout","idp-logout"]} and {"include":false}.
func checkOIDCLogout(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "backchannel_logout_urls", "backchannel_logout_initiators", "backchannel_logout_session_metadata")
	if e != nil {
		return nil, e
	}
	if e := x.require("backchannel_logout_urls"); e != nil {
		return nil, e
	}
	urls, e := stringList(x, "backchannel_logout_urls", nil)
	if e != nil {
		return nil, e
	}
	initiators := ordered{{"mode", "custom"}, {"selected_initiators", []string{"rp-logout", "idp-logout"}}}
	if x.has("backchannel_logout_initiators") {
		y, e := nested(x, "backchannel_logout_initiators", "mode", "selected_initiators")
		if e != nil {
			return nil, e
		}
		mode, e := y.enumReq("mode", "custom", "all")
		if e != nil {
			return nil, e
		}
		initiators = ordered{{"mode", mode}}
		if y.has("selected_initiators") {
			sel, e := stringList(y, "selected_initiators", nil)
			if e != nil {
				return nil, e
			}
			initiators = append(initiators, ordered{{"selected_initiators", sel}}...)
		}
	}
	include := false
	if x.has("backchannel_logout_session_metadata") {
		y, e := nested(x, "backchannel_logout_session_metadata", "include")
		if e != nil {
			return nil, e
		}
		if include, e = y.boolReq("include"); e != nil {
			return nil, e
		}
	}
	return raw(ordered{{"backchannel_logout_urls", urls}, {"backchannel_logout_initiators", initiators},
		{"backchannel_logout_session_metadata", map[string]bool{"include": include}}}), nil
}

// checkDefaultOrganization: {"flows": ["client_credentials"], "organization_id"} [O].
func checkDefaultOrganization(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "flows", "organization_id")
	if e != nil {
		return nil, e
	}
	if e := x.require("flows", "organization_id"); e != nil {
		return nil, e
	}
	flows, e := stringList(x, "flows", []string{"client_credentials"})
	if e != nil {
		return nil, e
	}
	org, e := x.str("organization_id", true, 1, 50)
	if e != nil {
		return nil, e
	}
	return raw(ordered{{"flows", flows}, {"organization_id", org}}), nil
}

// checkTokenQuota: {"client_credentials": {"enforce", "per_day", "per_hour"}} [O].
func checkTokenQuota(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "client_credentials")
	if e != nil {
		return nil, e
	}
	if e := x.require("client_credentials"); e != nil {
		return nil, e
	}
	y, e := nested(x, "client_credentials", "enforce", "per_day", "per_hour")
	if e != nil {
		return nil, e
	}
	cc := ordered{}
	if e := optBool(y, "enforce", &cc); e != nil {
		return nil, e
	}
	if e := optInt(y, "per_day", 1, 1<<31-1, &cc); e != nil {
		return nil, e
	}
	if e := optInt(y, "per_hour", 1, 1<<31-1, &cc); e != nil {
		return nil, e
	}
	return raw(ordered{{"client_credentials", cc}}), nil
}

// checkSessionTransfer keeps the six settings, every one in the answer [O],
// and the delegation when sent. Assumption (not recorded): the tenant's
// defaults for settings not sent are false, ["cookie"] and "ip".
func checkSessionTransfer(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "can_create_session_transfer_token", "allowed_authentication_methods", "enforce_device_binding",
		"allow_refresh_token", "enforce_online_refresh_tokens", "enforce_cascade_revocation", "delegation")
	if e != nil {
		return nil, e
	}
	flag := func(key string) (bool, *apiErr) {
		if !x.has(key) {
			return false, nil
		}
		return x.boolReq(key)
	}
	canCreate, e := flag("can_create_session_transfer_token")
	if e != nil {
		return nil, e
	}
	methods := []string{"cookie"}
	if x.has("allowed_authentication_methods") {
		if methods, e = stringList(x, "allowed_authentication_methods", sessionAuthMethods); e != nil {
			return nil, e
		}
	}
	binding := "ip"
	if x.has("enforce_device_binding") {
		if binding, e = x.enumReq("enforce_device_binding", deviceBindings...); e != nil {
			return nil, e
		}
	}
	refresh, e := flag("allow_refresh_token")
	if e != nil {
		return nil, e
	}
	online, e := flag("enforce_online_refresh_tokens")
	if e != nil {
		return nil, e
	}
	cascade, e := flag("enforce_cascade_revocation")
	if e != nil {
		return nil, e
	}
	out := ordered{{"can_create_session_transfer_token", canCreate}, {"allowed_authentication_methods", methods},
		{"enforce_device_binding", binding}, {"allow_refresh_token", refresh}, {"enforce_online_refresh_tokens", online},
		{"enforce_cascade_revocation", cascade}}
	if x.has("delegation") && !x.isNull("delegation") {
		y, e := nested(x, "delegation", "allow_delegated_access", "enforce_device_binding")
		if e != nil {
			return nil, e
		}
		d := ordered{}
		if e := optBool(y, "allow_delegated_access", &d); e != nil {
			return nil, e
		}
		if e := optEnum(y, "enforce_device_binding", []string{"ip", "asn"}, &d); e != nil {
			return nil, e
		}
		out = append(out, ordered{{"delegation", d}}...)
	}
	return raw(out), nil
}

// checkFedCM: {"google": {"is_enabled"}} [O].
func checkFedCM(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "google")
	if e != nil {
		return nil, e
	}
	if e := x.require("google"); e != nil {
		return nil, e
	}
	y, e := nested(x, "google", "is_enabled")
	if e != nil {
		return nil, e
	}
	on, e := y.boolReq("is_enabled")
	if e != nil {
		return nil, e
	}
	return raw(map[string]any{"google": map[string]bool{"is_enabled": on}}), nil
}

// checkIDJAG: {"active"} [O].
func checkIDJAG(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "active")
	if e != nil {
		return nil, e
	}
	on, e := x.boolReq("active")
	if e != nil {
		return nil, e
	}
	return raw(map[string]bool{"active": on}), nil
}

// checkAuthMethods keeps client_authentication_methods. The API takes
// credentials inline on create and by id on PATCH, and shows only their ids
// on a read [O, S]; the emulator keeps the ids (a credential given inline
// gets one) and does not model the credentials themselves.
func checkAuthMethods(o obj, k string) (json.RawMessage, *apiErr) {
	x, e := nested(o, k, "private_key_jwt", "tls_client_auth", "self_signed_tls_client_auth")
	if e != nil {
		return nil, e
	}
	out := ordered{}
	for _, method := range []string{"private_key_jwt", "tls_client_auth", "self_signed_tls_client_auth"} {
		if !x.has(method) {
			continue
		}
		y, e := nested(x, method, "credentials")
		if e != nil {
			return nil, e
		}
		items, ok, e := y.array("credentials")
		if e != nil {
			return nil, e
		}
		if !ok {
			return nil, y.typeErr("credentials", "array")
		}
		creds := []map[string]string{}
		for i, it := range items {
			c, _, e := asObject(it, y.prop("credentials")+"["+strconv.Itoa(i)+"]")
			if e != nil {
				return nil, e
			}
			id, e := c.str("id", false, 1, 50)
			if e != nil {
				return nil, e
			}
			if id == "" {
				if e := c.require("credential_type", "pem"); e != nil {
					return nil, e
				}
				id = "cred_" + randomString(22)
			}
			creds = append(creds, map[string]string{"id": id})
		}
		out = append(out, ordered{{method, map[string]any{"credentials": creds}}}...)
	}
	return raw(out), nil
}

// newClient is a client with the tenant's defaults for a create that sends
// none of them [O]; appType changes a few, as recorded for
// resource_server and express_configuration clients.
func (s *Server) newClient(appType string) *clientRec {
	c := &clientRec{ID: randomString(32), Secret: randomSecret(), Fields: map[string]json.RawMessage{}, Seq: s.st.next()}
	f := c.Fields
	f["is_first_party"] = raw(true)
	f["is_token_endpoint_ip_header_trusted"] = raw(false)
	f["oidc_conformant"] = raw(false)
	f["jwt_configuration"] = raw(ordered{{"secret_encoded", false}, {"lifetime_in_seconds", 36000}})
	f["signing_keys"] = raw([]map[string]string{{"cert": s.signingCert()}})
	f["sso_disabled"] = raw(false)
	f["cross_origin_authentication"] = raw(false)
	f["grant_types"] = raw(defaultGrantTypes)
	f["custom_login_page_on"] = raw(true)
	f["refresh_token"] = raw(ordered{{"rotation_type", "non-rotating"}, {"expiration_type", "non-expiring"}, {"leeway", 0},
		{"token_lifetime", defaultRefreshLifetime}, {"infinite_token_lifetime", true}, {"infinite_idle_token_lifetime", true},
		{"idle_token_lifetime", defaultRefreshIdleLifetime}})
	switch appType {
	case "resource_server":
		f["oidc_conformant"] = raw(true)
		f["jwt_configuration"] = raw(ordered{{"secret_encoded", false}, {"alg", "RS256"}})
		f["grant_types"] = raw([]string{})
	case "express_configuration":
		f["oidc_conformant"] = raw(true)
		f["jwt_configuration"] = raw(ordered{{"secret_encoded", false}, {"alg", "RS256"}})
		f["grant_types"] = raw([]string{"authorization_code", "client_credentials"})
		f["callbacks"] = raw([]string{"https://system-admin.okta.com/admin/app/generic/oauth20redirect"})
		f["organization_usage"] = raw("require")
		f["organization_require_behavior"] = raw("pre_login_prompt")
		f["client_authentication_methods"] = raw(map[string]any{"private_key_jwt": map[string]any{"credentials": []any{}}})
		f["async_approval_notification_channels"] = raw([]string{"guardian-push"})
	}
	return c
}

// randomSecret is a client secret: 64 characters of the URL-safe alphabet [O].
func randomSecret() string {
	const alphabet = alnum + "-_"
	b := make([]byte, 64)
	for i := range b {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		b[i] = alphabet[n.Int64()]
	}
	return string(b)
}

// signingCert is the tenant's signing certificate, which every client shows
// in signing_keys [O]: a self-signed certificate of the key that signs the
// emulator's tokens.
func (s *Server) signingCert() string {
	s.certOnce.Do(func() {
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: s.host},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour)}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &s.key.PublicKey, s.key)
		if err != nil {
			panic(err)
		}
		s.cert = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	})
	return s.cert
}

// applyClient validates the fields of b and writes them into c. On create
// (create true) every field sent is taken as it is; on PATCH a null removes
// a nullable field, client_metadata is merged key by key (a null value
// removes its key [S]), and the other objects follow s.opts.Assume.ClientPatch.
func (s *Server) applyClient(c *clientRec, b body, create bool) *apiErr {
	var unknown []string
	for k := range b {
		f, ok := clientFields[k]
		if !ok || create && f.patchOnly || !create && f.createOnly {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return payloadErr("Additional properties not allowed: "+strings.Join(unknown, ","), "")
	}
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	top := b.at("")
	for _, k := range keys {
		f := clientFields[k]
		if b.isNull(k) {
			if !f.nullable {
				return top.typeErr(k, clientFieldType(k))
			}
			delete(c.Fields, k)
			continue
		}
		src := top
		if !create && f.nested && s.opts.Assume.ClientPatch == "merge" && c.Fields[k] != nil {
			src = body{k: mergeJSON(c.Fields[k], b[k])}.at("")
		}
		if k == "client_metadata" && !create && c.Fields[k] != nil {
			src = body{k: mergeJSON(c.Fields[k], b[k])}.at("")
		}
		v, e := f.check(src, k)
		if e != nil {
			return e
		}
		if k == "client_metadata" {
			v = dropNulls(v)
		}
		if k == "client_secret" {
			var secret string
			_ = json.Unmarshal(v, &secret)
			c.Secret = secret
			continue
		}
		c.Fields[k] = v
	}
	// oidc_backchannel_logout mirrors the URLs of oidc_logout [O] when a
	// write sends oidc_logout; sent alone, it is kept as sent (assumption).
	if b.has("oidc_logout") {
		delete(c.Fields, "oidc_backchannel_logout")
	}
	if l := c.Fields["oidc_logout"]; l != nil && b.has("oidc_logout") {
		var ol struct {
			URLs []string `json:"backchannel_logout_urls"`
		}
		_ = json.Unmarshal(l, &ol)
		c.Fields["oidc_backchannel_logout"] = raw(map[string][]string{"backchannel_logout_urls": ol.URLs})
	}
	// Setting organization_discovery_methods requires
	// organization_require_behavior pre_login_prompt [S].
	if c.Fields["organization_discovery_methods"] != nil && c.str("organization_require_behavior") != "pre_login_prompt" {
		return payloadErr("organization_discovery_methods requires organization_require_behavior pre_login_prompt", "organization_discovery_methods")
	}
	if s.opts.Assume.UnfitTokenExchange == "refuse" && c.allowsProfileType("custom_authentication") && (!c.flag("is_first_party") || !c.flag("oidc_conformant")) {
		return payloadErr("token_exchange with custom_authentication requires a first-party, OIDC-conformant client", "token_exchange")
	}
	return nil
}

func clientFieldType(k string) string {
	switch k {
	case "is_first_party", "is_token_endpoint_ip_header_trusted", "oidc_conformant", "sso_disabled", "cross_origin_authentication",
		"custom_login_page_on", "require_pushed_authorization_requests", "require_proof_of_possession":
		return "boolean"
	case "grant_types":
		return "array"
	case "jwt_configuration", "refresh_token":
		return "object"
	}
	return "string"
}

// mergeJSON merges the object patch into base, key by key and at every
// level; a value that is not an object on either side replaces the other.
func mergeJSON(base, patch json.RawMessage) json.RawMessage {
	var b, p map[string]json.RawMessage
	if json.Unmarshal(base, &b) != nil || json.Unmarshal(patch, &p) != nil || b == nil || p == nil {
		return patch
	}
	for k, v := range p {
		if old, ok := b[k]; ok && jsonType(old) == "object" && jsonType(v) == "object" {
			b[k] = mergeJSON(old, v)
			continue
		}
		b[k] = v
	}
	return raw(b)
}

// dropNulls removes the keys whose value is null from a JSON object.
func dropNulls(v json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return v
	}
	for k, x := range m {
		if string(x) == "null" {
			delete(m, k)
		}
	}
	return raw(m)
}

func (c *clientRec) flag(k string) bool {
	var v bool
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *clientRec) str(k string) string {
	var v string
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *clientRec) strings(k string) []string {
	var v []string
	_ = json.Unmarshal(c.Fields[k], &v)
	return v
}

func (c *clientRec) allowsProfileType(t string) bool {
	var te struct {
		Types []string `json:"allow_any_profile_of_type"`
	}
	_ = json.Unmarshal(c.Fields["token_exchange"], &te)
	return slices.Contains(te.Types, t)
}

// view is the client as the API shows it; the secret only to a caller
// that may read it (see clientSecretVisible).
func (c *clientRec) view(secret bool) ordered {
	out := ordered{}
	seen := map[string]bool{}
	for _, k := range clientKeyOrder {
		seen[k] = true
		switch k {
		case "client_id":
			out = append(out, ordered{{k, c.ID}}...)
		case "client_secret":
			if secret {
				out = append(out, ordered{{k, c.Secret}}...)
			}
		default:
			if v, ok := c.Fields[k]; ok {
				out = append(out, ordered{{k, v}}...)
			}
		}
	}
	var rest []string
	for k := range c.Fields {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, ordered{{k, c.Fields[k]}}...)
	}
	return out
}

// clientSecretVisible says whether a read shows client_secret: only to a
// caller with read:client_keys. Assumption (reference: "reading
// client_secret needs read:client_keys" [R]): without the scope the key is
// left out of the answer, as the API leaves out any field it does not
// show, and the read itself succeeds with read:clients. The answers of a
// create and of a rotation carry the secret they made whatever the
// caller's scopes (they are the moments the tenant generates it [O]).
func clientSecretVisible(c *caller) bool { return c != nil && c.scopes["read:client_keys"] }

// fields applies the fields/include_fields query to an answer: only the
// listed keys, or every key but them.
func fieldsOf(r *http.Request, v ordered) ordered {
	q := r.URL.Query()
	list := q.Get("fields")
	if list == "" {
		return v
	}
	want := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		want[strings.TrimSpace(f)] = true
	}
	include := q.Get("include_fields") != "false"
	out := ordered{}
	for _, kv := range v {
		if want[kv.k] == include {
			out = append(out, kv)
		}
	}
	return out
}

func (s *Server) lookupClient(r *http.Request) (*clientRec, *apiErr) {
	c, ok := s.st.Clients[pathID(r)]
	if !ok {
		// Assumption (not recorded: the SDK's recorder drops 404 bodies of
		// /clients): the wording of the resource server's and the grant's
		// 404s [O].
		return nil, newErr(404, "The client does not exist", "inexistent_client")
	}
	return c, nil
}

func (s *Server) createClient(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	b, e := readBody(r)
	if e != nil {
		return e
	}
	if e := b.at("").require("name"); e != nil {
		return e
	}
	if e := s.capReached(len(s.st.Clients)); e != nil {
		return e
	}
	appType := ""
	if b.has("app_type") && !b.isNull("app_type") {
		v, e := b.enum("app_type", appTypes...)
		if e != nil {
			return e
		}
		appType = *v
	}
	c := s.newClient(appType)
	if e := s.applyClient(c, b, true); e != nil {
		return e
	}
	var linked *resourceServer
	if ident := c.str("resource_server_identifier"); ident != "" {
		if linked = s.findResourceServer(ident); linked == nil || linked.IsSystem {
			return newErr(404, "The resource server does not exist", "inexistent_resource_server")
		}
	}
	if linked != nil {
		linked.ClientID = c.ID
	}
	s.st.Clients[c.ID] = c
	writeJSON(w, 201, c.view(true))
	return nil
}

func (s *Server) listClients(w http.ResponseWriter, r *http.Request, ca *caller) *apiErr {
	if e := ca.mayAny("read:clients", "read:client_keys"); e != nil {
		return e
	}
	q := r.URL.Query()
	var match []*clientRec
	appTypes := q.Get("app_type")
	for _, c := range sortedBySeq(s.st.Clients, func(c *clientRec) int64 { return c.Seq }) {
		if v := q.Get("is_global"); v != "" && strconv.FormatBool(c.Global) != v {
			continue
		}
		if v := q.Get("is_first_party"); v != "" && strconv.FormatBool(c.flag("is_first_party")) != v {
			continue
		}
		if appTypes != "" && !contains(strings.Split(appTypes, ","), c.str("app_type")) {
			continue
		}
		match = append(match, c)
	}
	items := func(cs []*clientRec) []ordered {
		out := make([]ordered, 0, len(cs))
		for _, c := range cs {
			out = append(out, fieldsOf(r, c.view(clientSecretVisible(ca))))
		}
		return out
	}
	if q.Has("take") || q.Has("from") {
		take, offset, e := checkpoint(r)
		if e != nil {
			return e
		}
		start, end := min(offset, len(match)), min(offset+take, len(match))
		reply := ordered{{"clients", items(match[start:end])}}
		if end < len(match) {
			reply = append(reply, ordered{{"next", cursor(end)}}...)
		}
		writeJSON(w, 200, reply)
		return nil
	}
	page, perPage, totals, e := offsetPage(r)
	if e != nil {
		return e
	}
	start, end := window(len(match), page, perPage)
	if !totals {
		writeJSON(w, 200, items(match[start:end]))
		return nil
	}
	writeJSON(w, 200, ordered{{"total", len(match)}, {"start", page * perPage}, {"limit", perPage}, {"clients", items(match[start:end])}})
	return nil
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request, ca *caller) *apiErr {
	if e := ca.mayAny("read:clients", "read:client_keys"); e != nil {
		return e
	}
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	writeJSON(w, 200, fieldsOf(r, c.view(clientSecretVisible(ca))))
	return nil
}

// updateClient merges the body into the client: absent keys are kept
// (PATCH is a partial update [O]). A refused PATCH changes nothing.
func (s *Server) updateClient(w http.ResponseWriter, r *http.Request, ca *caller) *apiErr {
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	b, e := readBody(r)
	if e != nil {
		return e
	}
	next := c.clone()
	if e := s.applyClient(next, b, false); e != nil {
		return e
	}
	s.st.Clients[c.ID] = next
	writeJSON(w, 200, next.view(clientSecretVisible(ca)))
	return nil
}

// deleteClient answers 204, also for a client already gone [O]. Its grants
// go with it (assumption: the reference does not record it).
func (s *Server) deleteClient(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	id := pathID(r)
	if _, ok := s.st.Clients[id]; ok {
		delete(s.st.Clients, id)
		for gid, g := range s.st.Grants {
			if g.ClientID == id {
				delete(s.st.Grants, gid)
			}
		}
		for _, rs := range s.st.ResourceServers {
			if rs.ClientID == id {
				rs.ClientID = ""
			}
		}
	}
	noContent(w)
	return nil
}

// rotateSecret gives the client a new secret and answers 200 with the
// client and the secret [O]. Assumption: it needs update:client_keys.
func (s *Server) rotateSecret(w http.ResponseWriter, r *http.Request, _ *caller) *apiErr {
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	next := c.clone()
	next.Secret = randomSecret()
	s.st.Clients[c.ID] = next
	writeJSON(w, 200, next.view(true))
	return nil
}

// mayAny refuses a caller with none of scopes.
func (c *caller) mayAny(scopes ...string) *apiErr {
	if c == nil {
		return newErr(401, "Missing authentication", "")
	}
	for _, sc := range scopes {
		if c.scopes[sc] {
			return nil
		}
	}
	return newErr(403, "Insufficient scope, expected any of: "+strings.Join(scopes, ","), "insufficient_scope")
}
