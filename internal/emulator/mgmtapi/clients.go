package mgmtapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Clients (applications), as reference/clients-and-grants.md gives them:
// the SDK's fields [S], the key sets and defaults of the recorded answers
// [O]. A client is kept as its wire fields, key by key, so that a field the
// emulator does not model in depth (addons, say) is kept as it was sent and
// shown again, as the API would.

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

// clientField is how the API takes one field of a client.
type clientField struct {
	// check validates the value at k and returns it as stored.
	check func(o wire.Obj, k string) (json.RawMessage, *wire.Error)
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

func cString(minLen, maxLen int) func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	return func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
		s, e := o.Str(k, true, minLen, maxLen)
		return wire.Raw(s), e
	}
}

func cBool(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	v, e := o.Bool(k)
	if e != nil {
		return nil, e
	}
	if v == nil {
		return nil, o.TypeErr(k, "boolean")
	}
	return wire.Raw(*v), nil
}

func cEnum(values ...string) func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	return func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
		v, e := o.Enum(k, values...)
		if e != nil {
			return nil, e
		}
		if v == nil {
			return nil, o.TypeErr(k, "string")
		}
		return wire.Raw(*v), nil
	}
}

// cStrings is an array of strings, each one of enum when enum is set,
// without repeats.
func cStrings(enum []string) func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	return func(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
		items, e := stringList(o, k, enum)
		return wire.Raw(items), e
	}
}

// stringList is the array of strings k, each one of enum when enum is set,
// without repeats.
func stringList(o wire.Obj, k string, enum []string) ([]string, *wire.Error) {
	return stringItems(o, k, enum, refuseRepeats)
}

// repeats says whether an array of strings may hold one twice.
type repeats bool

const (
	refuseRepeats repeats = false
	acceptRepeats repeats = true
)

// stringItems is the array of strings k, each one of enum when enum is set,
// a repeat refused unless r accepts it.
func stringItems(o wire.Obj, k string, enum []string, r repeats) ([]string, *wire.Error) {
	items, ok, e := o.Array(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr(k, "array")
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		var s string
		if wire.JSONType(it) != "string" || json.Unmarshal(it, &s) != nil {
			return nil, wire.PayloadErr("Expected type string but found type "+wire.JSONType(it), o.Prop(k)+"["+strconv.Itoa(i)+"]")
		}
		if enum != nil && !wire.Contains(enum, s) {
			return nil, wire.PayloadErr("No enum match for: \""+s+"\"", o.Prop(k)+"["+strconv.Itoa(i)+"]")
		}
		if r == refuseRepeats && wire.Contains(out, s) {
			return nil, wire.PayloadErr("Array items are not unique", o.Prop(k))
		}
		out = append(out, s)
	}
	return out, nil
}

// idList reads a body that is only {key: [ids]}: 1 or more ids, a repeat
// refused unless rep accepts it, each of something find finds; the first
// one find refuses answers the request (its 404), and nothing changes.
// Assumption: the whole body is checked before any id is looked up, so a
// payload error comes before a 404, as the API validates a body against
// its schema before acting on it.
func idList[T any](r *http.Request, key string, rep repeats, find func(id string) (T, *wire.Error)) ([]string, *wire.Error) {
	b, e := wire.ReadBody(r)
	if e != nil {
		return nil, e
	}
	o := b.At("")
	if e := o.Only(key); e != nil {
		return nil, e
	}
	if e := o.Require(key); e != nil {
		return nil, e
	}
	ids, e := stringItems(o, key, nil, rep)
	if e != nil {
		return nil, e
	}
	if len(ids) == 0 {
		return nil, wire.PayloadErr("Array is too short (0), minimum 1", key)
	}
	for _, id := range ids {
		if _, e := find(id); e != nil {
			return nil, e
		}
	}
	return ids, nil
}

func cObject(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, ok, e := o.Object(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr(k, "object")
	}
	return wire.Raw(x.Body), nil
}

// optBool copies the boolean k of in to out when it is there.
func optBool(in wire.Obj, k string, out *wire.Ordered) *wire.Error {
	if !in.Has(k) {
		return nil
	}
	v, e := in.Bool(k)
	if e != nil {
		return e
	}
	if v == nil {
		return in.TypeErr(k, "boolean")
	}
	*out = append(*out, wire.Ordered{{k, *v}}...)
	return nil
}

func optInt(in wire.Obj, k string, lo, hi int64, out *wire.Ordered) *wire.Error {
	if !in.Has(k) {
		return nil
	}
	v, e := in.Int(k, lo, hi)
	if e != nil {
		return e
	}
	if v == nil {
		return in.TypeErr(k, "integer")
	}
	*out = append(*out, wire.Ordered{{k, *v}}...)
	return nil
}

func optEnum(in wire.Obj, k string, values []string, out *wire.Ordered) *wire.Error {
	if !in.Has(k) {
		return nil
	}
	v, e := in.Enum(k, values...)
	if e != nil {
		return e
	}
	if v == nil {
		return in.TypeErr(k, "string")
	}
	*out = append(*out, wire.Ordered{{k, *v}}...)
	return nil
}

func nested(o wire.Obj, k string, keys ...string) (wire.Obj, *wire.Error) {
	x, ok, e := o.Object(k)
	if e != nil {
		return wire.Obj{}, e
	}
	if !ok {
		return wire.Obj{}, o.TypeErr(k, "object")
	}
	return x, x.Only(keys...)
}

// checkJWTConfiguration keeps lifetime_in_seconds, secret_encoded (false
// unless sent [O]), scopes and alg, in the observed order.
func checkJWTConfiguration(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "lifetime_in_seconds", "secret_encoded", "scopes", "alg")
	if e != nil {
		return nil, e
	}
	out := wire.Ordered{}
	if x.Has("secret_encoded") {
		if e := optBool(x, "secret_encoded", &out); e != nil {
			return nil, e
		}
	} else {
		out = append(out, wire.Ordered{{"secret_encoded", false}}...)
	}
	if e := optEnum(x, "alg", jwtAlgs, &out); e != nil {
		return nil, e
	}
	if e := optInt(x, "lifetime_in_seconds", 0, 1<<31-1, &out); e != nil {
		return nil, e
	}
	if x.Has("scopes") {
		sc, ok, e := x.Object("scopes")
		if e != nil {
			return nil, e
		}
		if !ok {
			return nil, x.TypeErr("scopes", "object")
		}
		m := map[string]string{}
		for name := range sc.Body {
			v, e := sc.Str(name, true, 0, 0)
			if e != nil {
				return nil, e
			}
			m[name] = v
		}
		// An empty map is the same as none (assumption).
		if len(m) > 0 {
			out = append(out, wire.Ordered{{"scopes", m}}...)
		}
	}
	return wire.Raw(out), nil
}

var metadataKey = regexp.MustCompile(`^[A-Za-z0-9:,\-+=_*?"/\\()<>@\t ]+$`)

// checkClientMetadata: string values of up to 255 characters, at most 10
// keys of up to 255 characters of the SDK's set [S]. A null value removes
// the key (the merge is done by the caller).
func checkClientMetadata(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, ok, e := o.Object(k)
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr(k, "object")
	}
	m := map[string]any{}
	for name := range x.Body {
		if len(name) > 255 || !metadataKey.MatchString(name) {
			return nil, wire.PayloadErr("Object didn't pass validation for format metadata-key: "+name, x.Prop(name))
		}
		if x.IsNull(name) {
			m[name] = nil
			continue
		}
		v, e := x.Str(name, true, 0, 255)
		if e != nil {
			return nil, e
		}
		m[name] = v
	}
	return wire.Raw(m), nil
}

// checkNativeSocialLogin shows apple, facebook and google, each {enabled}
// [O]; a side not sent is not enabled (assumption).
func checkNativeSocialLogin(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "apple", "facebook", "google")
	if e != nil {
		return nil, e
	}
	out := wire.Ordered{}
	for _, side := range []string{"apple", "facebook", "google"} {
		enabled := false
		if x.Has(side) {
			y, e := nested(x, side, "enabled")
			if e != nil {
				return nil, e
			}
			v, e := y.Bool("enabled")
			if e != nil {
				return nil, e
			}
			enabled = v != nil && *v
		}
		out = append(out, wire.Ordered{{side, map[string]bool{"enabled": enabled}}}...)
	}
	return wire.Raw(out), nil
}

// checkRefreshToken fills what is not sent with the tenant's defaults [O]:
// an expiring rotation makes both infinite_* false (as recorded for a
// create that sent expiration_type "expiring" alone).
func checkRefreshToken(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "rotation_type", "expiration_type", "leeway", "token_lifetime", "infinite_token_lifetime",
		"infinite_idle_token_lifetime", "idle_token_lifetime", "policies")
	if e != nil {
		return nil, e
	}
	str := func(key string, values []string, def string) (string, *wire.Error) {
		if !x.Has(key) {
			return def, nil
		}
		v, e := x.EnumReq(key, values...)
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
	integer := func(key string, def int64) (int64, *wire.Error) {
		if !x.Has(key) {
			return def, nil
		}
		v, e := x.Int(key, 0, 1<<31-1)
		if e == nil && v == nil {
			e = x.TypeErr(key, "integer")
		}
		if e != nil {
			return 0, e
		}
		return *v, nil
	}
	boolean := func(key string, def bool) (bool, *wire.Error) {
		if !x.Has(key) {
			return def, nil
		}
		return x.BoolReq(key)
	}
	leeway, e := integer("leeway", 0)
	if e != nil {
		return nil, e
	}
	life, e := integer("token_lifetime", tenant.DefaultRefreshLifetime)
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
	idle, e := integer("idle_token_lifetime", tenant.DefaultRefreshIdleLifetime)
	if e != nil {
		return nil, e
	}
	out := wire.Ordered{{"rotation_type", rotation}, {"expiration_type", expiration}, {"leeway", leeway}, {"token_lifetime", life},
		{"infinite_token_lifetime", infinite}, {"infinite_idle_token_lifetime", infiniteIdle}, {"idle_token_lifetime", idle}}
	if x.Has("policies") && !x.IsNull("policies") {
		items, _, e := x.Array("policies")
		if e != nil {
			return nil, e
		}
		policies := []wire.Ordered{}
		for i, it := range items {
			p, _, e := wire.AsObject(it, x.Prop("policies")+"["+strconv.Itoa(i)+"]")
			if e != nil {
				return nil, e
			}
			if e := p.Only("audience", "scope"); e != nil {
				return nil, e
			}
			aud, e := p.Str("audience", true, 1, 600)
			if e != nil {
				return nil, e
			}
			if e := p.Require("scope"); e != nil {
				return nil, e
			}
			scope, e := stringList(p, "scope", nil)
			if e != nil {
				return nil, e
			}
			policies = append(policies, wire.Ordered{{"audience", aud}, {"scope", scope}})
		}
		// An empty list is the same as none (assumption).
		if len(policies) > 0 {
			out = append(out, wire.Ordered{{"policies", policies}}...)
		}
	}
	return wire.Raw(out), nil
}

// checkTokenExchange: {"allow_any_profile_of_type": [...]} [O shape, S values].
func checkTokenExchange(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "allow_any_profile_of_type")
	if e != nil {
		return nil, e
	}
	if e := x.Require("allow_any_profile_of_type"); e != nil {
		return nil, e
	}
	types, e := stringList(x, "allow_any_profile_of_type", profileTypes)
	if e != nil {
		return nil, e
	}
	return wire.Raw(map[string][]string{"allow_any_profile_of_type": types}), nil
}

// checkBackchannelLogout takes the deprecated oidc_backchannel_logout, which
// the tenant keeps rather than refuses: clients-and-grants.md, "Client" [S]
// ("Deprecated: use OIDCLogout instead of OIDCBackchannelLogout"), and
// "PATCH /api/v2/clients/{id} → 200" [O], whose request keys include it
// and whose answers show it with backchannel_logout_urls.
func checkBackchannelLogout(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "backchannel_logout_urls")
	if e != nil || !x.Has("backchannel_logout_urls") {
		return wire.Raw(wire.Ordered{}), e
	}
	urls, e := stringList(x, "backchannel_logout_urls", nil)
	return wire.Raw(wire.Ordered{{"backchannel_logout_urls", urls}}), e
}

// checkOIDCLogout: the URLs, the initiators and the session metadata, all
// three in the answer [O]. Assumption (not recorded): the tenant's
// defaults for the two objects not sent are {"mode":"custom",
// "selected_initiators":["rp-logout","idp-logout"]} and {"include":false}.
func checkOIDCLogout(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "backchannel_logout_urls", "backchannel_logout_initiators", "backchannel_logout_session_metadata")
	if e != nil {
		return nil, e
	}
	if e := x.Require("backchannel_logout_urls"); e != nil {
		return nil, e
	}
	urls, e := stringList(x, "backchannel_logout_urls", nil)
	if e != nil {
		return nil, e
	}
	initiators := wire.Ordered{{"mode", "custom"}, {"selected_initiators", []string{"rp-logout", "idp-logout"}}}
	if x.Has("backchannel_logout_initiators") {
		y, e := nested(x, "backchannel_logout_initiators", "mode", "selected_initiators")
		if e != nil {
			return nil, e
		}
		mode, e := y.EnumReq("mode", "custom", "all")
		if e != nil {
			return nil, e
		}
		initiators = wire.Ordered{{"mode", mode}}
		if y.Has("selected_initiators") {
			sel, e := stringList(y, "selected_initiators", nil)
			if e != nil {
				return nil, e
			}
			initiators = append(initiators, wire.Ordered{{"selected_initiators", sel}}...)
		}
	}
	include := false
	if x.Has("backchannel_logout_session_metadata") {
		y, e := nested(x, "backchannel_logout_session_metadata", "include")
		if e != nil {
			return nil, e
		}
		if include, e = y.BoolReq("include"); e != nil {
			return nil, e
		}
	}
	return wire.Raw(wire.Ordered{{"backchannel_logout_urls", urls}, {"backchannel_logout_initiators", initiators},
		{"backchannel_logout_session_metadata", map[string]bool{"include": include}}}), nil
}

// checkDefaultOrganization: {"flows": ["client_credentials"], "organization_id"} [O].
func checkDefaultOrganization(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "flows", "organization_id")
	if e != nil {
		return nil, e
	}
	if e := x.Require("flows", "organization_id"); e != nil {
		return nil, e
	}
	flows, e := stringList(x, "flows", []string{"client_credentials"})
	if e != nil {
		return nil, e
	}
	org, e := x.Str("organization_id", true, 1, 50)
	if e != nil {
		return nil, e
	}
	return wire.Raw(wire.Ordered{{"flows", flows}, {"organization_id", org}}), nil
}

// checkTokenQuota: {"client_credentials": {"enforce", "per_day", "per_hour"}} [O].
func checkTokenQuota(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "client_credentials")
	if e != nil {
		return nil, e
	}
	if e := x.Require("client_credentials"); e != nil {
		return nil, e
	}
	y, e := nested(x, "client_credentials", "enforce", "per_day", "per_hour")
	if e != nil {
		return nil, e
	}
	cc := wire.Ordered{}
	if e := optBool(y, "enforce", &cc); e != nil {
		return nil, e
	}
	if e := optInt(y, "per_day", 1, 1<<31-1, &cc); e != nil {
		return nil, e
	}
	if e := optInt(y, "per_hour", 1, 1<<31-1, &cc); e != nil {
		return nil, e
	}
	return wire.Raw(wire.Ordered{{"client_credentials", cc}}), nil
}

// checkSessionTransfer keeps the six settings, every one in the answer [O],
// and the delegation when sent. Assumption (not recorded): the tenant's
// defaults for settings not sent are false, ["cookie"] and "ip".
func checkSessionTransfer(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "can_create_session_transfer_token", "allowed_authentication_methods", "enforce_device_binding",
		"allow_refresh_token", "enforce_online_refresh_tokens", "enforce_cascade_revocation", "delegation")
	if e != nil {
		return nil, e
	}
	flag := func(key string) (bool, *wire.Error) {
		if !x.Has(key) {
			return false, nil
		}
		return x.BoolReq(key)
	}
	canCreate, e := flag("can_create_session_transfer_token")
	if e != nil {
		return nil, e
	}
	methods := []string{"cookie"}
	if x.Has("allowed_authentication_methods") {
		if methods, e = stringList(x, "allowed_authentication_methods", sessionAuthMethods); e != nil {
			return nil, e
		}
	}
	binding := "ip"
	if x.Has("enforce_device_binding") {
		if binding, e = x.EnumReq("enforce_device_binding", deviceBindings...); e != nil {
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
	out := wire.Ordered{{"can_create_session_transfer_token", canCreate}, {"allowed_authentication_methods", methods},
		{"enforce_device_binding", binding}, {"allow_refresh_token", refresh}, {"enforce_online_refresh_tokens", online},
		{"enforce_cascade_revocation", cascade}}
	if x.Has("delegation") && !x.IsNull("delegation") {
		y, e := nested(x, "delegation", "allow_delegated_access", "enforce_device_binding")
		if e != nil {
			return nil, e
		}
		d := wire.Ordered{}
		if e := optBool(y, "allow_delegated_access", &d); e != nil {
			return nil, e
		}
		if e := optEnum(y, "enforce_device_binding", []string{"ip", "asn"}, &d); e != nil {
			return nil, e
		}
		out = append(out, wire.Ordered{{"delegation", d}}...)
	}
	return wire.Raw(out), nil
}

// checkFedCM: {"google": {"is_enabled"}} [O].
func checkFedCM(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "google")
	if e != nil {
		return nil, e
	}
	if e := x.Require("google"); e != nil {
		return nil, e
	}
	y, e := nested(x, "google", "is_enabled")
	if e != nil {
		return nil, e
	}
	on, e := y.BoolReq("is_enabled")
	if e != nil {
		return nil, e
	}
	return wire.Raw(map[string]any{"google": map[string]bool{"is_enabled": on}}), nil
}

// checkIDJAG: {"active"} [O].
func checkIDJAG(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "active")
	if e != nil {
		return nil, e
	}
	on, e := x.BoolReq("active")
	if e != nil {
		return nil, e
	}
	return wire.Raw(map[string]bool{"active": on}), nil
}

// checkAuthMethods keeps client_authentication_methods. The API takes
// credentials inline on create and by id on PATCH, and shows only their ids
// on a read [O, S]; the emulator keeps the ids (a credential given inline
// gets one) and does not model the credentials themselves.
func checkAuthMethods(o wire.Obj, k string) (json.RawMessage, *wire.Error) {
	x, e := nested(o, k, "private_key_jwt", "tls_client_auth", "self_signed_tls_client_auth")
	if e != nil {
		return nil, e
	}
	out := wire.Ordered{}
	for _, method := range []string{"private_key_jwt", "tls_client_auth", "self_signed_tls_client_auth"} {
		if !x.Has(method) {
			continue
		}
		y, e := nested(x, method, "credentials")
		if e != nil {
			return nil, e
		}
		items, ok, e := y.Array("credentials")
		if e != nil {
			return nil, e
		}
		if !ok {
			return nil, y.TypeErr("credentials", "array")
		}
		creds := []map[string]string{}
		for i, it := range items {
			c, _, e := wire.AsObject(it, y.Prop("credentials")+"["+strconv.Itoa(i)+"]")
			if e != nil {
				return nil, e
			}
			id, e := c.Str("id", false, 1, 50)
			if e != nil {
				return nil, e
			}
			if id == "" {
				if e := c.Require("credential_type", "pem"); e != nil {
					return nil, e
				}
				id = "cred_" + wire.RandomString(22)
			}
			creds = append(creds, map[string]string{"id": id})
		}
		out = append(out, wire.Ordered{{method, map[string]any{"credentials": creds}}}...)
	}
	return wire.Raw(out), nil
}

// applyClient validates the fields of b and writes them into c. On create
// (create true) every field sent is taken as it is; on PATCH a null removes
// a nullable field, client_metadata is merged key by key (a null value
// removes its key [S]), and the other objects follow s.Assume.ClientPatch.
func (s *Server) applyClient(c *tenant.ClientRecord, b wire.Body, create bool) *wire.Error {
	var unknown []string
	for k := range b {
		f, ok := clientFields[k]
		if !ok || create && f.patchOnly || !create && f.createOnly {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return wire.PayloadErr("Additional properties not allowed: "+strings.Join(unknown, ","), "")
	}
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	top := b.At("")
	for _, k := range keys {
		f := clientFields[k]
		if b.IsNull(k) {
			if !f.nullable {
				return top.TypeErr(k, clientFieldType(k))
			}
			delete(c.Fields, k)
			continue
		}
		src := top
		if !create && f.nested && s.Assume.ClientPatch == "merge" && c.Fields[k] != nil {
			src = wire.Body{k: mergeJSON(c.Fields[k], b[k])}.At("")
		}
		if k == "client_metadata" && !create && c.Fields[k] != nil {
			src = wire.Body{k: mergeJSON(c.Fields[k], b[k])}.At("")
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
	if b.Has("oidc_logout") {
		delete(c.Fields, "oidc_backchannel_logout")
	}
	if l := c.Fields["oidc_logout"]; l != nil && b.Has("oidc_logout") {
		var ol struct {
			URLs []string `json:"backchannel_logout_urls"`
		}
		_ = json.Unmarshal(l, &ol)
		c.Fields["oidc_backchannel_logout"] = wire.Raw(map[string][]string{"backchannel_logout_urls": ol.URLs})
	}
	// Setting organization_discovery_methods requires
	// organization_require_behavior pre_login_prompt [S].
	if c.Fields["organization_discovery_methods"] != nil && c.Str("organization_require_behavior") != "pre_login_prompt" {
		return wire.PayloadErr("organization_discovery_methods requires organization_require_behavior pre_login_prompt", "organization_discovery_methods")
	}
	if s.Assume.UnfitTokenExchange == "refuse" && c.AllowsProfileType("custom_authentication") && (!c.Flag("is_first_party") || !c.Flag("oidc_conformant")) {
		return wire.PayloadErr("token_exchange with custom_authentication requires a first-party, OIDC-conformant client", "token_exchange")
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
		if old, ok := b[k]; ok && wire.JSONType(old) == "object" && wire.JSONType(v) == "object" {
			b[k] = mergeJSON(old, v)
			continue
		}
		b[k] = v
	}
	return wire.Raw(b)
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
	return wire.Raw(m)
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
func fieldsOf(r *http.Request, v wire.Ordered) wire.Ordered {
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
	out := wire.Ordered{}
	for _, kv := range v {
		if want[kv.K] == include {
			out = append(out, kv)
		}
	}
	return out
}

func (s *Server) lookupClient(r *http.Request) (*tenant.ClientRecord, *wire.Error) {
	c, ok := s.St.Clients[wire.PathID(r)]
	if !ok {
		// Assumption (not recorded: the SDK's recorder drops 404 bodies of
		// /clients): the wording of the resource server's and the grant's
		// 404s [O].
		return nil, wire.NewErr(404, "The client does not exist", "inexistent_client")
	}
	return c, nil
}

func (s *Server) createClient(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.At("").Require("name"); e != nil {
		return e
	}
	if e := s.capReached(len(s.St.Clients)); e != nil {
		return e
	}
	appType := ""
	if b.Has("app_type") && !b.IsNull("app_type") {
		v, e := b.Enum("app_type", appTypes...)
		if e != nil {
			return e
		}
		appType = *v
	}
	c := s.NewClient(appType)
	if e := s.applyClient(c, b, true); e != nil {
		return e
	}
	var linked *tenant.ResourceServer
	if ident := c.Str("resource_server_identifier"); ident != "" {
		if linked = s.FindResourceServer(ident); linked == nil || linked.IsSystem {
			return wire.NewErr(404, "The resource server does not exist", "inexistent_resource_server")
		}
	}
	if linked != nil {
		linked.ClientID = c.ID
	}
	s.St.Clients[c.ID] = c
	s.EnableConnectionsFor(c.ID)
	wire.WriteJSON(w, 201, c.View(true))
	return nil
}

func (s *Server) listClients(w http.ResponseWriter, r *http.Request, ca *caller) *wire.Error {
	if e := ca.mayAny("read:clients", "read:client_keys"); e != nil {
		return e
	}
	q := r.URL.Query()
	var match []*tenant.ClientRecord
	appTypes := q.Get("app_type")
	ofOrganization := s.clientsOfOrganization(q.Get("q")) // organization_grants.go
	for _, c := range tenant.SortedBySeq(s.St.Clients, func(c *tenant.ClientRecord) int64 { return c.Seq }) {
		if ofOrganization != nil && !ofOrganization[c.ID] {
			continue
		}
		if v := q.Get("is_global"); v != "" && strconv.FormatBool(c.Global) != v {
			continue
		}
		if v := q.Get("is_first_party"); v != "" && strconv.FormatBool(c.Flag("is_first_party")) != v {
			continue
		}
		if appTypes != "" && !wire.Contains(strings.Split(appTypes, ","), c.Str("app_type")) {
			continue
		}
		match = append(match, c)
	}
	items := func(cs []*tenant.ClientRecord) []wire.Ordered {
		out := make([]wire.Ordered, 0, len(cs))
		for _, c := range cs {
			out = append(out, fieldsOf(r, c.View(clientSecretVisible(ca))))
		}
		return out
	}
	if q.Has("take") || q.Has("from") {
		take, offset, e := wire.Checkpoint(r)
		if e != nil {
			return e
		}
		start, end := min(offset, len(match)), min(offset+take, len(match))
		reply := wire.Ordered{{"clients", items(match[start:end])}}
		if end < len(match) {
			reply = append(reply, wire.Ordered{{"next", wire.Cursor(end)}}...)
		}
		wire.WriteJSON(w, 200, reply)
		return nil
	}
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	start, end := wire.Window(len(match), page, perPage)
	if !totals {
		wire.WriteJSON(w, 200, items(match[start:end]))
		return nil
	}
	wire.WriteJSON(w, 200, wire.Ordered{{"total", len(match)}, {"start", page * perPage}, {"limit", perPage}, {"clients", items(match[start:end])}})
	return nil
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request, ca *caller) *wire.Error {
	if e := ca.mayAny("read:clients", "read:client_keys"); e != nil {
		return e
	}
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, fieldsOf(r, c.View(clientSecretVisible(ca))))
	return nil
}

// updateClient merges the body into the client: absent keys are kept
// (PATCH is a partial update [O]). A refused PATCH changes nothing.
func (s *Server) updateClient(w http.ResponseWriter, r *http.Request, ca *caller) *wire.Error {
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	next := c.Clone()
	if e := s.applyClient(next, b, false); e != nil {
		return e
	}
	s.St.Clients[c.ID] = next
	wire.WriteJSON(w, 200, next.View(clientSecretVisible(ca)))
	return nil
}

// deleteClient answers 204, also for a client already gone [O]. Its grants
// go with it (assumption: the reference does not record it).
func (s *Server) deleteClient(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	id := wire.PathID(r)
	if _, ok := s.St.Clients[id]; ok {
		delete(s.St.Clients, id)
		for gid, g := range s.St.Grants {
			if g.ClientID == id {
				delete(s.St.Grants, gid)
			}
		}
		for _, rs := range s.St.ResourceServers {
			if rs.ClientID == id {
				rs.ClientID = ""
			}
		}
		s.DisableConnectionsFor(id)
	}
	wire.NoContent(w)
	return nil
}

// rotateSecret gives the client a new secret and answers 200 with the
// client and the secret [O]. Assumption: it needs update:client_keys.
func (s *Server) rotateSecret(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	next := c.Clone()
	next.Secret = wire.RandomSecret()
	s.St.Clients[c.ID] = next
	wire.WriteJSON(w, 200, next.View(true))
	return nil
}
