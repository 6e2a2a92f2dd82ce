package oauth

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// Post-login actions after an exchange (token-exchange-flow.md §3 [R]:
// "Post-Login actions run after the exchange, with
// event.transaction.protocol = "oauth2-token-exchange""): once the
// custom-token-exchange action has set the user, each action bound to the
// post-login trigger runs, in the bindings' order, at its deployed version,
// in the workers the exchange's action runs in; then the tokens are issued.
//
// What is modelled of the post-login api object: access.deny(reason),
// accessToken.setCustomClaim and idToken.setCustomClaim (the claims in the
// issued tokens), user.setAppMetadata and setUserMetadata (stored with the
// user when the exchange succeeds), and cache (the post-login trigger's).
// The platform's documentation for these: a deny ends the flow once its
// action has returned, and no later action runs; metadata changes are
// gathered and stored once, at the end of the flow, so every action sees
// the user as the flow began.

// postLoginTrigger is the trigger of the actions run after an exchange.
const postLoginTrigger = "post-login"

// The answers where a post-login action fails after an exchange.
//
// Assumption (the reference gives no answer for a post-login deny after an
// exchange): 403 access_denied with the reason, the token endpoint's answer
// to a post-login deny for its other grants. An action that throws, crashes
// or times out is answered as the exchange's own action is: 500
// server_error, the detail in the emulator's log.
var (
	PostLoginFailed  = "A post-login action failed."
	PostLoginTimeout = "A post-login action did not complete in time."
)

// reservedClaims are the claims the tenant sets in the tokens it issues:
// a custom claim of one of these names is left out.
//
// Assumption (the reference does not list the platform's restricted
// claims): the registered JWT claims and those the emulator's tokens carry.
var reservedClaims = []string{
	"iss", "sub", "aud", "exp", "nbf", "iat", "jti", "azp", "client_id", "scope", "permissions", "gty",
	"nonce", "auth_time", "at_hash", "c_hash", "act", "org_id", "org_name",
}

// postLoginStep is one bound action to run: its deployed version and its
// event.
type postLoginStep struct {
	action  *tenant.Action
	version *tenant.ActionVersion
	event   map[string]any
}

// postLoginOutcome is what the post-login actions did.
type postLoginOutcome struct {
	accessClaims map[string]json.RawMessage
	idClaims     map[string]json.RawMessage
	appMeta      [][2]json.RawMessage
	userMeta     [][2]json.RawMessage
}

// postLoginSteps lists the post-login trigger's bound actions that can run,
// in execution order, with their events, for the user the exchange's
// action set. Under the lock.
//
// A binding names a deployed action (only those can be bound); one whose
// action no longer supports the trigger or has no deployed version is
// skipped.
//
// Assumptions (the reference lists no post-login event for an exchange):
// the event holds the exchange's client, request, resource_server and
// tenant; the action's own secrets; the user as the exchange leaves it
// (with its app_metadata and user_metadata); connection the user's,
// Username-Password-Authentication; stats.logins_count counting this login;
// and transaction.protocol and requested_scopes.
func (s *Server) postLoginSteps(req *exchangeRequest, out *outcome, now time.Time) []postLoginStep {
	var steps []postLoginStep
	for _, b := range s.St.Bindings[postLoginTrigger] {
		a, ok := s.St.Actions[b.ActionID]
		if !ok || !a.Supports(postLoginTrigger) {
			continue
		}
		a.Settle(now)
		v := a.Deployed()
		if v == nil {
			continue
		}
		steps = append(steps, postLoginStep{action: a, version: v})
	}
	if len(steps) == 0 {
		return nil
	}
	u := *out.user
	u.AppMetadata, _ = mergeMetadata(u.AppMetadata, out.appMeta)
	u.UserMetadata, _ = mergeMetadata(u.UserMetadata, out.userMeta)
	logins := u.LoginsCount
	if out.login {
		logins++
	}
	view := map[string]any{"app_metadata": json.RawMessage("{}"), "user_metadata": json.RawMessage("{}")}
	for _, kv := range u.View() {
		view[kv.K] = kv.V
	}
	if u.AppMetadata != nil {
		view["app_metadata"] = u.AppMetadata
	}
	if u.UserMetadata != nil {
		view["user_metadata"] = u.UserMetadata
	}
	for i := range steps {
		secrets := map[string]string{}
		maps.Copy(secrets, steps[i].version.SecretValues)
		steps[i].event = map[string]any{
			"client":          req.event["client"],
			"connection":      s.postLoginConnection(out.user), // exchange_org.go
			"request":         req.event["request"],
			"resource_server": req.event["resource_server"],
			"secrets":         secrets,
			"stats":           map[string]any{"logins_count": logins},
			"tenant":          req.event["tenant"],
			"transaction":     map[string]any{"protocol": "oauth2-token-exchange", "requested_scopes": nonNil(req.scopes)},
			"user":            view,
		}
		if out.organization != nil {
			steps[i].event["organization"] = organizationEvent(out.organization)
		}
	}
	return steps
}

// runPostLogin runs the steps in order, without the lock, and gathers what
// they did: the first deny ends the flow.
func (s *Server) runPostLogin(ctx context.Context, steps []postLoginStep, writes cacheWrites) (*postLoginOutcome, *exchangeFailure) {
	out := &postLoginOutcome{accessClaims: map[string]json.RawMessage{}, idClaims: map[string]json.RawMessage{}}
	for _, st := range steps {
		a := st.action
		x, f := s.runAction(ctx, actionRun{action: a, version: st.version, trigger: postLoginTrigger, event: st.event}, writes)
		if f != nil {
			return nil, f
		}
		denied := ""
		for _, c := range x.Calls {
			switch c.Call {
			case "access.deny":
				if denied == "" {
					denied = argString(c, 0)
				}
			case "accessToken.setCustomClaim", "idToken.setCustomClaim":
				name := argString(c, 0)
				if slices.Contains(reservedClaims, name) {
					s.Logf("post-login action %q (%s): the custom claim %q is one the tenant sets; left out", a.Name, a.ID, name)
					continue
				}
				if c.Call == "accessToken.setCustomClaim" {
					out.accessClaims[name] = arg(c, 1)
				} else {
					out.idClaims[name] = arg(c, 1)
				}
			case "user.setAppMetadata":
				out.appMeta = append(out.appMeta, [2]json.RawMessage{arg(c, 0), arg(c, 1)})
			case "user.setUserMetadata":
				out.userMeta = append(out.userMeta, [2]json.RawMessage{arg(c, 0), arg(c, 1)})
			}
		}
		if denied != "" {
			return nil, refuse(403, "access_denied", "%s", denied)
		}
	}
	return out, nil
}
