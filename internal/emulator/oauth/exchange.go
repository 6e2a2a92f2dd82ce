package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The custom token exchange at POST /oauth/token
// (reference/token-exchange-flow.md): the client asks with a subject
// token and its type; the profile of that type runs its action's deployed
// version, for real, in Node.js (exchange_run.go); the action rejects the token,
// denies the exchange, or sets the user, for whom the tenant then issues
// an access token (and an ID token when openid is asked for).

// TokenExchangeGrant is the grant type of a token exchange (§2).
const TokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"

// customTokenExchangeTrigger is the trigger a profile's action supports (§1).
const customTokenExchangeTrigger = "custom-token-exchange"

// oidcScopes are granted when asked for, whatever the API (§2: openid asks
// for an ID token); offline_access is granted as refresh.go says.
var oidcScopes = []string{"openid", "profile", "email"}

// exchangeFailure is an OAuth error answer of the exchange (or of a
// refresh), and the detail its log line adds (stored data the answer
// leaves out): why a request, a user the action set (exchange_users.go)
// or an actor (delegation.go) was refused.
type exchangeFailure struct {
	status      int
	code        string
	description string
	detail      string
}

func refuse(status int, code, format string, args ...any) *exchangeFailure {
	return &exchangeFailure{status: status, code: code, description: fmt.Sprintf(format, args...)}
}

// logged is the failure as the log says it: the description, and the
// detail when there is one.
func (f *exchangeFailure) logged() string {
	if f.detail == "" {
		return f.description
	}
	return f.description + " (" + f.detail + ")"
}

// The answers the tenant gives where the action fails to run (§4: [?]).
//
// Assumption: 500 server_error, the answer a thrown error gets (the api
// object's documentation answers an unexpected error by rethrowing it,
// "throw a server error"). The description names what happened but not the
// action's own message, which goes to the emulator's log (the platform's
// token endpoint errors "reveal less details").
var (
	ActionFailed  = "The custom token exchange action failed."
	ActionTimeout = "The custom token exchange action did not complete in time."
)

// exchangeRequest is what one exchange works with, read under the lock so
// that the action can run without it.
type exchangeRequest struct {
	client  *exchangeClient
	rs      *tenant.ResourceServer
	profile *tenant.Profile
	action  *tenant.Action
	version *tenant.ActionVersion
	ip      string
	scopes  []string
	event   map[string]any
	org     *tenant.Organization // the organization parameter's
	// refreshing is the refresh token a refresh grant uses (refresh.go).
	refreshing *refreshRecord
}

// tokenExchange answers the token-exchange grant for an authenticated
// client. fields are the request's parameters (client_secret left out).
func (s *Server) tokenExchange(w http.ResponseWriter, r *http.Request, c *exchangeClient, fields map[string]string) {
	start := time.Now()
	req, f := s.prepareExchange(r, c, fields)
	if f == nil {
		f = s.runExchange(r.Context(), start, w, req)
	}
	switch {
	case f == errCallerGone || (f != nil && r.Context().Err() != nil):
		s.Logf("fecte: client %s, subject_token_type %q: the caller went away; nothing of the exchange is kept (%v)", c.id, fields["subject_token_type"], time.Since(start).Round(time.Millisecond))
	case f != nil:
		// Tenant logs: fecte for a failed exchange (§4).
		s.Logf("fecte: client %s, subject_token_type %q: %d %s: %s (%v)", c.id, fields["subject_token_type"], f.status, f.code, f.logged(), time.Since(start).Round(time.Millisecond))
		oauthErr(w, f.status, f.code, f.description)
	}
}

// prepareExchange checks the request, the client, the throttle, the profile,
// the API and the action, in that order, and builds the action's event.
func (s *Server) prepareExchange(r *http.Request, c *exchangeClient, fields map[string]string) (*exchangeRequest, *exchangeFailure) {
	for _, k := range []string{"subject_token", "subject_token_type"} {
		if fields[k] == "" {
			return nil, refuse(400, "invalid_request", "Missing required parameter: %s", k)
		}
	}
	if f := actorParameters(fields); f != nil {
		return nil, f
	}
	if f := s.requestedTokenType(fields); f != nil {
		return nil, f
	}
	// §1: only a client whose token_exchange allows custom_authentication,
	// first-party and OIDC-conformant, may exchange.
	//
	// Assumption (§4: [?]): 403 unauthorized_client, the token endpoint's
	// answer to a grant the client may not use.
	switch {
	case !slices.Contains(c.profileTypes, "custom_authentication"):
		return nil, refuse(403, "unauthorized_client", "The client is not allowed to use custom token exchange profiles: its token_exchange.allow_any_profile_of_type does not list custom_authentication.")
	case !c.firstParty:
		return nil, refuse(403, "unauthorized_client", "Custom token exchange is only for first-party clients.")
	case !c.oidcConformant:
		return nil, refuse(403, "unauthorized_client", "Custom token exchange is only for OIDC-conformant clients.")
	}
	ip := clientIP(r, c.trustIPHeader)

	s.Lock()
	defer s.Unlock()
	if s.throttled(ip, time.Now()) {
		return nil, refuse(429, "too_many_attempts", ThrottledDescription)
	}
	org, f := s.namedOrganization(fields["organization"]) // exchange_org.go
	if f != nil {
		return nil, f
	}
	// Assumption (§4: [?]): a subject_token_type no profile has is 400
	// invalid_request, RFC 8693's error for a subject token the server
	// cannot take.
	var p *tenant.Profile
	for _, x := range s.St.Profiles {
		if x.SubjectTokenType == fields["subject_token_type"] {
			p = x
		}
	}
	if p == nil {
		return nil, refuse(400, "invalid_request", "There is no token exchange profile for the subject_token_type %q.", fields["subject_token_type"])
	}
	// The audience: an API of the tenant (management-api.md §6: "Service
	// not found" for another); without one, the tenant's default audience
	// (§5); without that, the client credentials grant's answer, assumed
	// the same here.
	aud := fields["audience"]
	if aud == "" {
		aud = s.DefaultAudience()
	}
	if aud == "" {
		return nil, refuse(403, "access_denied", "No audience parameter was provided, and no default audience has been configured")
	}
	rs := s.FindResourceServer(aud)
	if rs == nil || rs.Identifier != aud {
		return nil, refuse(403, "access_denied", "Service not found: %s", aud)
	}
	if f := s.userAccessAllowed(c, rs); f != nil {
		return nil, f
	}
	if f := consentRequired(rs); f != nil {
		return nil, f
	}
	// Assumption (§4: [?]): a profile whose action is gone, does not run
	// the trigger, or has no deployed version is 500 server_error.
	a, ok := s.St.Actions[p.ActionID]
	if ok {
		a.Settle(time.Now())
	}
	switch {
	case !ok:
		return nil, refuse(500, "server_error", "The action %s of the token exchange profile %s does not exist.", p.ActionID, p.ID)
	case !a.Supports(customTokenExchangeTrigger):
		return nil, refuse(500, "server_error", "The action %s of the token exchange profile %s does not support the %s trigger.", a.ID, p.ID, customTokenExchangeTrigger)
	case a.Deployed() == nil:
		return nil, refuse(500, "server_error", "The action %s of the token exchange profile %s is not deployed.", a.ID, p.ID)
	}
	req := &exchangeRequest{client: c, rs: rs, profile: p, action: a, version: a.Deployed(), ip: ip, scopes: strings.Fields(fields["scope"])}
	req.event = s.exchangeEvent(r, req, fields)
	if req.org = org; org != nil {
		req.event["organization"] = organizationEvent(org)
	}
	return req, nil
}

// userAccessAllowed applies the API's subject_type_authorization to a
// user's token (management-api.md §4: allow_all, deny_all or
// require_client_grant; allow_all when unset).
//
// Assumption (the reference gives no answer for these refusals): 403
// access_denied, with the text of a missing client grant.
func (s *Server) userAccessAllowed(c *exchangeClient, rs *tenant.ResourceServer) *exchangeFailure {
	policy := "allow_all"
	if sta := rs.SubjectTypeAuthorization; sta != nil && sta.User != nil {
		policy = sta.User.Policy
	}
	denied := refuse(403, "access_denied", "Client is not authorized to access %q. You need to create a \"client-grant\" associated to this API. See: https://auth0.com/docs/api/v2#!/Client_Grants/post_client_grants", rs.Identifier)
	switch policy {
	case "deny_all":
		return refuse(403, "access_denied", "The API %q does not allow user access.", rs.Identifier)
	case "require_client_grant":
		if !s.UserGrantExists(c.id, rs.Identifier) {
			return denied
		}
	}
	return nil
}

// clientIP is the end user's address: the connection's, or the
// auth0-forwarded-for header's when the client is trusted to send it (the
// client's is_token_endpoint_ip_header_trusted, clients-and-grants.md).
func clientIP(r *http.Request, trustHeader bool) string {
	if h := strings.TrimSpace(r.Header.Get("auth0-forwarded-for")); trustHeader && h != "" {
		first, _, _ := strings.Cut(h, ",")
		return strings.TrimSpace(first)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// exchangeEvent is the action's event (§3). Secrets are the deployed
// version's. The request's body is its parameters but the client's
// credentials.
//
// Assumptions (§3 lists the keys only): geoip is empty (loopback clients
// have no location); tenant.id is the tenant's name; language is the first
// tag of Accept-Language; requested_token_type defaults to RFC 8693's
// access token type; organization is set by prepareExchange when the
// request names one (exchange_org.go).
func (s *Server) exchangeEvent(r *http.Request, req *exchangeRequest, fields map[string]string) map[string]any {
	body := map[string]any{}
	for k, v := range fields {
		if k != "client_secret" && k != "client_assertion" && k != "client_assertion_type" {
			body[k] = v
		}
	}
	requested := fields["requested_token_type"]
	if requested == "" {
		requested = "urn:ietf:params:oauth:token-type:access_token"
	}
	secrets := map[string]string{}
	for k, v := range req.version.SecretValues {
		secrets[k] = v
	}
	request := map[string]any{
		"body": body, "geoip": map[string]any{}, "hostname": s.Host, "ip": req.ip, "method": r.Method,
	}
	if ua := r.UserAgent(); ua != "" {
		request["user_agent"] = ua
	}
	if lang := r.Header.Get("Accept-Language"); lang != "" {
		tag, _, _ := strings.Cut(lang, ",")
		tag, _, _ = strings.Cut(tag, ";")
		request["language"] = strings.TrimSpace(tag)
	}
	tx := map[string]any{
		"subject_token": fields["subject_token"], "subject_token_type": fields["subject_token_type"],
		"requested_scopes": nonNil(req.scopes), "requested_token_type": requested,
	}
	actorTransaction(tx, fields)
	return map[string]any{
		"client":          map[string]any{"client_id": req.client.id, "name": req.client.name, "metadata": req.client.metadata},
		"request":         request,
		"resource_server": map[string]any{"identifier": req.rs.Identifier},
		"secrets":         secrets,
		"tenant":          map[string]any{"id": s.Name},
		"transaction":     tx,
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// runExchange runs the action, and then the post-login actions, without
// the lock, then applies what they did and answers. ctx is the request's:
// once its caller has gone, the exchange stops and keeps nothing.
func (s *Server) runExchange(ctx context.Context, start time.Time, w http.ResponseWriter, req *exchangeRequest) (f *exchangeFailure) {
	writes := cacheWrites{}
	defer func() {
		// The cache writes stand whatever the outcome (the actions made
		// them), unless the caller has gone.
		if f != nil && ctx.Err() == nil {
			s.Lock()
			writes.store(s, time.Now())
			s.Unlock()
		}
	}()
	// The action's time limit counts from the request's start, waiting for
	// a worker (or for its packages) included (§5: each execution ends
	// within 20 s).
	actx, cancel := context.WithDeadline(ctx, start.Add(s.runtime.Timeout()))
	x, f := s.runAction(actx, actionRun{action: req.action, version: req.version, trigger: customTokenExchangeTrigger, event: req.event}, writes)
	cancel()
	if f != nil {
		return f
	}
	s.Lock()
	now := time.Now()
	out, f := s.decide(req, x.Calls, now)
	var steps []postLoginStep
	if f == nil {
		steps = s.postLoginSteps(req, out, now)
	}
	s.Unlock()
	if f != nil {
		return f
	}
	post := &postLoginOutcome{}
	if len(steps) > 0 {
		if post, f = s.runPostLogin(ctx, steps, writes); f != nil {
			return f
		}
	}

	s.Lock()
	defer s.Unlock()
	if ctx.Err() != nil {
		return errCallerGone
	}
	now = time.Now()
	writes.store(s, now)
	if len(steps) > 0 {
		// The tenant may have changed while the post-login actions ran
		// (the user made by another exchange, or blocked): the action's
		// calls are applied to it as it is now.
		if out, f = s.decide(req, x.Calls, now); f != nil {
			return f
		}
		out.appMeta = append(out.appMeta, post.appMeta...)
		out.userMeta = append(out.userMeta, post.userMeta...)
	}
	tokens, f := s.issueUserTokens(req, out, post, now)
	if f != nil {
		return f
	}
	out.commit(s, now)
	s.Logf("secte: client %s, subject_token_type %q: tokens for %s (%s)", req.client.id, req.profile.SubjectTokenType, out.user.UserID, req.rs.Identifier)
	// The token endpoint's Content-Type (management-api.md §0.2); tokens
	// are not to be cached (RFC 6749 §5.1).
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(200)
	_ = json.NewEncoder(w).Encode(tokens)
	return nil
}

// versionPackages is the folder of a version's installed dependencies:
// installed when the version was built, or now when the emulator has
// forgotten it (a state file from another machine), or never when npm or
// the registry cannot be reached here.
func (s *Server) versionPackages(ctx context.Context, v *tenant.ActionVersion) (string, *exchangeFailure) {
	deps := tenant.RuntimeDeps(v.Dependencies)
	i := s.Installer.Install(deps, s.Logf)
	outcome, detail, err := i.Wait(ctx)
	switch {
	case errors.Is(err, context.Canceled):
		return "", errCallerGone
	case err != nil:
		return "", refuse(500, "server_error", "The action's dependencies are still being installed.")
	case outcome == actionruntime.Installed:
		return i.Dir, nil
	case outcome == actionruntime.Missing:
		return "", refuse(500, "server_error", "The emulator cannot run the action: its dependencies (%s) cannot be installed: %s.", actionruntime.DescribeDeps(deps), detail)
	default:
		return "", refuse(500, "server_error", "The emulator cannot run the action: its dependencies (%s) are not installed, because npm or the npm registry is not available: %s.", actionruntime.DescribeDeps(deps), detail)
	}
}

// outcome is what the action decided, to be applied once the tokens are
// made.
type outcome struct {
	user     *tenant.User
	change   *userChange
	appMeta  [][2]json.RawMessage
	userMeta [][2]json.RawMessage
	login    bool            // setUserByConnection logs the user in (logins_count)
	actor    json.RawMessage // the act claim setActor gave (delegation.go)
	// organization is the exchange's (exchange_org.go), which the user
	// joins with joinOrganization.
	organization     *tenant.Organization
	joinOrganization bool
}

// decide reads the action's api calls (§3): a deny or a rejected subject
// token ends the exchange (the first one made); otherwise exactly one
// setUser call names the user, whose metadata the action may set.
//
// Assumptions (§4: [?]): neither setUser call, or more than one, is 500
// server_error, an error of the action. setOrganization is settled once
// the user is known (exchange_org.go).
func (s *Server) decide(req *exchangeRequest, calls []actionruntime.Call, now time.Time) (*outcome, *exchangeFailure) {
	var sets []actionruntime.Call
	out := &outcome{}
	var organization string
	for _, c := range calls {
		switch c.Call {
		case "access.rejectInvalidSubjectToken":
			// §4: 400 invalid_request with the reason; counts toward
			// Suspicious IP Throttling.
			s.countInvalidSubjectToken(req.ip, now)
			return nil, refuse(400, "invalid_request", "%s", argString(c, 0))
		case "access.deny":
			// §4: the code given; server_error is 500, any other 400.
			code, reason := argString(c, 0), argString(c, 1)
			status := 400
			if code == "server_error" {
				status = 500
			}
			return nil, refuse(status, code, "%s", reason)
		case "authentication.setUserById", "authentication.setUserByConnection":
			sets = append(sets, c)
		case "authentication.setActor":
			actor, f := readActor(arg(c, 0))
			if f != nil {
				return nil, f
			}
			out.actor = actor
		case "authentication.setOrganization":
			organization = argString(c, 0)
		case "user.setAppMetadata":
			out.appMeta = append(out.appMeta, [2]json.RawMessage{arg(c, 0), arg(c, 1)})
		case "user.setUserMetadata":
			out.userMeta = append(out.userMeta, [2]json.RawMessage{arg(c, 0), arg(c, 1)})
		}
	}
	switch len(sets) {
	case 0:
		return nil, refuse(500, "server_error", "The custom token exchange action did not set a user: it must call api.authentication.setUserById or setUserByConnection.")
	case 1:
	default:
		return nil, refuse(500, "server_error", "The custom token exchange action set the user %d times: it must call exactly one of api.authentication.setUserById and setUserByConnection, once.", len(sets))
	}
	var f *exchangeFailure
	if c := sets[0]; c.Call == "authentication.setUserById" {
		out.user, f = s.userByID(argString(c, 0))
	} else {
		var attrs, options map[string]json.RawMessage
		_ = json.Unmarshal(arg(c, 1), &attrs)
		_ = json.Unmarshal(arg(c, 2), &options)
		out.change, f = s.userByConnection(req.client.id, argString(c, 0), attrs, options, now)
		if f == nil {
			out.user, out.login = out.change.user, true
		}
	}
	if f != nil {
		return nil, f
	}
	if f := s.setOrganization(req, out, organization); f != nil {
		return nil, f
	}
	return out, nil
}

// commit applies the outcome to the store: the user created or replaced,
// its metadata, its login.
func (o *outcome) commit(s *Server, now time.Time) {
	u := o.user
	if o.change != nil && o.change.create {
		u.Seq = s.St.Next()
	}
	if meta, err := mergeMetadata(u.AppMetadata, o.appMeta); err == nil {
		u.AppMetadata = meta
	}
	if meta, err := mergeMetadata(u.UserMetadata, o.userMeta); err == nil {
		u.UserMetadata = meta
	}
	if o.login {
		u.LoginsCount++
		u.LastLogin = wire.Millis(now)
	}
	if len(o.appMeta) > 0 || len(o.userMeta) > 0 {
		u.UpdatedAt = wire.Millis(now)
	}
	s.St.Users[u.UserID] = u
	if o.joinOrganization {
		o.organization.Members[u.UserID] = s.St.Next()
	}
}

func arg(c actionruntime.Call, i int) json.RawMessage {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return json.RawMessage("null")
}

func argString(c actionruntime.Call, i int) string {
	var v string
	_ = json.Unmarshal(arg(c, i), &v)
	return v
}

// issueUserTokens makes the answer of a successful exchange (§4): an access
// token for the API, with sub the user, azp the client, the granted scopes
// (and permissions under an RBAC dialect), living the API's token_lifetime;
// an ID token when openid was asked for; a refresh token with offline_access
// (refresh.go).
//
// Assumptions (§4: [?] or silent): the answer carries no issued_token_type
// and the access token no gty; the access token's aud adds the tenant's
// userinfo endpoint when openid was asked for (for an API whose tokens the
// tenant's key signs), as the tenant's other user tokens do; without enforce_policies the granted scopes are the requested
// ones the API defines, with it those the user's roles give (and no user is
// in a role: the emulator cannot put one there); the ID token lives the
// client's jwt_configuration.lifetime_in_seconds (36000 by default) and is
// signed as the client's jwt_configuration.alg says (RS256 with the
// tenant's key, HS256 with the client secret).
//
// The post-login actions' custom claims are added to the tokens, and the
// act claim of a delegation (delegation.go) and the organization's org_id
// (exchange_org.go).
func (s *Server) issueUserTokens(req *exchangeRequest, out *outcome, post *postLoginOutcome, now time.Time) (wire.Ordered, *exchangeFailure) {
	rs, c, u, org := req.rs, req.client, out.user, out.organization
	rbac := rs.EnforcePolicies != nil && *rs.EnforcePolicies
	allowed := map[string]bool{}
	if rbac {
		for _, p := range s.UserPermissions(u.UserID, rs.Identifier) {
			allowed[p] = true
		}
	} else if rs.Scopes != nil {
		for _, sc := range *rs.Scopes {
			allowed[sc.Value] = true
		}
	}
	var granted []string
	openid := false
	for _, sc := range req.scopes {
		if slices.Contains(granted, sc) {
			continue
		}
		if slices.Contains(oidcScopes, sc) || allowed[sc] || s.offlineGranted(sc, req, out) {
			granted = append(granted, sc)
			openid = openid || sc == "openid"
		}
	}
	iss := s.issuer()
	life := time.Duration(rs.TokenLifetime) * time.Second
	var aud any = rs.Identifier
	if openid && rs.SigningAlg != "HS256" {
		aud = []string{rs.Identifier, iss + "userinfo"}
	}
	claims := jwt.MapClaims{"iss": iss, "sub": u.UserID, "aud": aud, "iat": now.Unix(), "exp": now.Add(life).Unix()}
	if len(granted) > 0 {
		claims["scope"] = strings.Join(granted, " ")
	}
	dialect := wire.Deref(rs.TokenDialect)
	if strings.HasPrefix(dialect, "rfc9068_profile") {
		claims["client_id"] = c.id
		claims["jti"] = wire.RandomString(24)
	} else {
		claims["azp"] = c.id
	}
	if strings.HasSuffix(dialect, "_authz") {
		claims["permissions"] = nonNil(s.UserPermissions(u.UserID, rs.Identifier))
	}
	for k, v := range withClaim(withClaim(post.accessClaims, "act", out.actor), "org_id", orgIDClaim(org)) {
		claims[k] = v
	}
	access, err := s.signAccessToken(rs, claims, strings.HasPrefix(dialect, "rfc9068_profile"))
	if err != nil {
		return nil, refuse(500, "server_error", "The access token could not be signed: %v", err)
	}
	answer := wire.Ordered{{"access_token", access}}
	if openid {
		id, err := s.idToken(c, u, granted, iss, withClaim(withClaim(post.idClaims, "act", out.actor), "org_id", orgIDClaim(org)), now)
		if err != nil {
			return nil, refuse(500, "server_error", "The ID token could not be signed: %v", err)
		}
		answer = append(answer, wire.Ordered{{"id_token", id}}...)
	}
	if len(granted) > 0 {
		answer = append(answer, wire.Ordered{{"scope", strings.Join(granted, " ")}}...)
	}
	if slices.Contains(granted, "offline_access") {
		answer = withRefreshToken(answer, s.refreshTokenFor(req, out, post, granted, now))
	}
	return append(answer, wire.Ordered{{"expires_in", int64(life.Seconds())}, {"token_type", "Bearer"}}...), nil
}

// withClaim is a copy of claims with k set to v, or claims itself when v
// is nil (no actor, no organization).
func withClaim(claims map[string]json.RawMessage, k string, v json.RawMessage) map[string]json.RawMessage {
	if v == nil {
		return claims
	}
	out := maps.Clone(claims)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	out[k] = v
	return out
}

// signAccessToken signs with the API's algorithm: HS256 with its signing
// secret, the others with the tenant's key, which the JWKS publishes.
func (s *Server) signAccessToken(rs *tenant.ResourceServer, claims jwt.MapClaims, rfc9068 bool) (string, error) {
	if rs.SigningAlg == "HS256" && rs.SigningSecret != nil {
		t := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
		if rfc9068 {
			t.Header["typ"] = "at+jwt"
		}
		return t.SignedString([]byte(*rs.SigningSecret))
	}
	method := map[string]jwt.SigningMethod{"RS512": jwt.SigningMethodRS512, "PS256": jwt.SigningMethodPS256}[rs.SigningAlg]
	if method == nil {
		method = jwt.SigningMethodRS256
	}
	t := jwt.NewWithClaims(method, claims)
	t.Header["kid"] = s.kid
	if rfc9068 {
		t.Header["typ"] = "at+jwt"
	}
	return t.SignedString(s.key)
}

// idToken is the user's ID token for the client: its profile claims with
// the profile scope, its email with the email scope, and the custom claims
// given.
func (s *Server) idToken(c *exchangeClient, u *tenant.User, granted []string, iss string, custom map[string]json.RawMessage, now time.Time) (string, error) {
	claims := jwt.MapClaims{"iss": iss, "sub": u.UserID, "aud": c.id, "iat": now.Unix(), "exp": now.Add(c.idTokenLifetime).Unix()}
	if slices.Contains(granted, "profile") {
		for k, v := range map[string]string{"name": u.Name, "nickname": u.Nickname, "picture": u.Picture, "given_name": u.GivenName, "family_name": u.FamilyName} {
			if v != "" {
				claims[k] = v
			}
		}
		claims["updated_at"] = u.UpdatedAt
	}
	if slices.Contains(granted, "email") && u.Email != "" {
		claims["email"], claims["email_verified"] = u.Email, u.EmailVerified
	}
	for k, v := range custom {
		claims[k] = v
	}
	if c.idTokenAlg == "HS256" {
		return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(c.secret))
	}
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	t.Header["kid"] = s.kid
	return t.SignedString(s.key)
}

// cacheRecords are a trigger's live cache records.
func (s *Server) cacheRecords(trigger string, now time.Time) map[string]actionruntime.CacheRecord {
	out := map[string]actionruntime.CacheRecord{}
	for k, rec := range s.actionCache[trigger] {
		if rec.ExpiresAt > now.UnixMilli() {
			out[k] = rec
		}
	}
	return out
}

// applyCacheWrites stores an execution's cache writes.
func (s *Server) applyCacheWrites(trigger string, writes []actionruntime.CacheWrite, now time.Time) {
	if len(writes) == 0 {
		return
	}
	if s.actionCache == nil {
		s.actionCache = map[string]map[string]actionruntime.CacheRecord{}
	}
	m := s.actionCache[trigger]
	if m == nil {
		m = map[string]actionruntime.CacheRecord{}
		s.actionCache[trigger] = m
	}
	for k, rec := range m {
		if rec.ExpiresAt <= now.UnixMilli() {
			delete(m, k)
		}
	}
	for _, w := range writes {
		switch w.Op {
		case "set":
			m[w.Key] = actionruntime.CacheRecord{Value: w.Value, ExpiresAt: w.ExpiresAt}
		case "delete":
			delete(m, w.Key)
		}
	}
}

// The Suspicious IP Throttling of custom token exchange (§4, §5, and the
// platform's attack protection documentation [R]): each rejected subject
// token takes one attempt of the address's bucket (max_attempts, 10 by
// default), one attempt comes back every rate (10 minutes by default), and
// an address whose bucket is empty is answered 429 too_many_attempts before
// any action runs. The tenant's setting
// (/attack-protection/suspicious-ip-throttling, stage
// pre-custom-token-exchange; tenant/attack_protection.go) drives it: off
// when it is disabled, without the block shield, or for an allowlisted
// address.
const ThrottledDescription = "We have detected suspicious login behavior and further attempts will be blocked. Please contact the administrator."

type attemptBucket struct {
	left float64
	at   time.Time
}

// bucket is the address's bucket, refilled until now, or nil when the
// throttle does not apply to it.
func (s *Server) bucket(ip string, now time.Time) *attemptBucket {
	blocks, size, rate := s.ExchangeThrottle(ip)
	if !blocks || size <= 0 || rate <= 0 {
		return nil
	}
	if s.attempts == nil {
		s.attempts = map[string]*attemptBucket{}
	}
	b := s.attempts[ip]
	if b == nil {
		b = &attemptBucket{left: float64(size), at: now}
		s.attempts[ip] = b
	}
	b.left = min(float64(size), b.left+float64(now.Sub(b.at))/float64(rate))
	b.at = now
	return b
}

func (s *Server) throttled(ip string, now time.Time) bool {
	b := s.bucket(ip, now)
	return b != nil && b.left < 1
}

func (s *Server) countInvalidSubjectToken(ip string, now time.Time) {
	if b := s.bucket(ip, now); b != nil {
		b.left = max(0, b.left-1)
	}
}
