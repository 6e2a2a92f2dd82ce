package tenant

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Assumptions answer what the reference leaves open ([?], or absent), one
// setting each, so that the provider can be tested under every plausible
// answer of the real tenant. An empty setting is the emulator's default
// answer, the first of its values (Assumption.Values).
type Assumptions struct {
	// UndefinedScope is how an assignment of a permission whose scope the
	// API does not define answers (reference §3, §8): "refuse" (400,
	// nothing assigned) or "accept" (assigned, and the role holds it).
	UndefinedScope string
	// HeldPermission is how an assignment of a pair the role already holds
	// answers (reference §3, §8): "accept" (201, as if it were new) or
	// "conflict" (409, nothing of the request assigned).
	HeldPermission string
	// ActionDeploy is whether deploying is a step of its own (reference §2
	// says only that a deploy's answer shows deployed:false and the next
	// read shows the version deployed): "together" (a create with
	// deploy:true is deployed the moment its build ends, a deploy the moment
	// it is asked) or "separate" (deployed_version shows a deploy only a
	// while, half a build, after the build ended or the deploy was asked).
	ActionDeploy string
	// DeployUnbuilt is how a deploy of an action whose latest build has not
	// ended answers (reference §2 is silent): "refuse" (400) or "wait" (200
	// with the version the build will make, deployed when the build
	// succeeds, lost when it fails).
	DeployUnbuilt string
	// ActionInUse is how a delete (without force) of an action that a token
	// exchange profile names answers (reference §8): "refuse" (409) or
	// "allow" (deleted; the profile keeps naming it).
	ActionInUse string
	// UnsetFields is what a resource server created without
	// enforce_policies or token_dialect shows (reference §4 observed them
	// omitted; whether every tenant does is not known): "omit" or "fill"
	// (enforce_policies false, token_dialect access_token).
	UnsetFields string
	// RoleNameFilter is how GET /roles matches name_filter (reference §3:
	// case-insensitive, match semantics undocumented): "substring",
	// "prefix" or "exact".
	RoleNameFilter string
	// ClientPatch is how PATCH /clients/{id} takes a nested object
	// (jwt_configuration, refresh_token, ...; the documentation does not
	// settle it): "replace" (stored as sent, with the tenant's defaults for
	// what it leaves out, as PATCH of an API's objects does) or "merge"
	// (merged into the stored one, key by key).
	ClientPatch string
	// UnfitTokenExchange is how a client write answers token_exchange with
	// custom_authentication on a client that is not first-party and
	// OIDC-conformant (the reference gives the requirement [R], not when
	// the tenant enforces it): "accept" (stored; such a client's exchanges
	// fail) or "refuse" (400).
	UnfitTokenExchange string
	// RequestedTokenType is how a token exchange that sends
	// requested_token_type answers (token-exchange-flow.md §5: one tenant
	// was observed refusing it, a third party's report of medium
	// confidence): "refuse" (400 invalid_request, as observed) or "accept"
	// (the action sees it in event.transaction.requested_token_type).
	RequestedTokenType string
	// RefreshGrantType is whether a client whose grant_types does not list
	// refresh_token gets refresh tokens (the reference is silent [?]; the
	// client credentials grant checks its own grant type): "refuse" (no
	// refresh token is issued, and the refresh grant is 403
	// unauthorized_client) or "accept" (as if it were listed).
	RefreshGrantType string
	// GrantSubjectType is what a second grant of one client for one API
	// answers when its subject_type differs (the reference gives 409 for a
	// second grant of the pair [R], not whether a user grant and a client
	// grant of the pair may coexist): "shared" (409: one grant per pair) or
	// "separate" (created: one grant per pair and subject type).
	GrantSubjectType string
	// UngrantedScope is how the token endpoint answers a client
	// credentials request whose scope parameter names a scope the client's
	// grant does not give (the reference does not cover it): "narrow" (the
	// token carries the granted ones asked for) or "refuse" (403
	// access_denied).
	UngrantedScope string
	// BindMissingAction is how a PATCH of a trigger's bindings that names an
	// action that does not exist answers (trigger-bindings.md is silent):
	// "not_found" (404 "That action does not exist.", the action's own
	// answer) or "invalid" (400, as for the other items the tenant refuses).
	BindMissingAction string
}

// Assumption describes one setting of Assumptions.
type Assumption struct {
	// Name is the setting's name for --assume name=value.
	Name string
	// Values are its answers, the default first.
	Values []string
	field  func(*Assumptions) *string
}

// AllAssumptions lists every setting, in the order of Assumptions.
var AllAssumptions = []Assumption{
	{"undefined_scope", []string{"refuse", "accept"}, func(a *Assumptions) *string { return &a.UndefinedScope }},
	{"held_permission", []string{"accept", "conflict"}, func(a *Assumptions) *string { return &a.HeldPermission }},
	{"action_deploy", []string{"together", "separate"}, func(a *Assumptions) *string { return &a.ActionDeploy }},
	{"deploy_unbuilt", []string{"refuse", "wait"}, func(a *Assumptions) *string { return &a.DeployUnbuilt }},
	{"action_in_use", []string{"refuse", "allow"}, func(a *Assumptions) *string { return &a.ActionInUse }},
	{"unset_fields", []string{"omit", "fill"}, func(a *Assumptions) *string { return &a.UnsetFields }},
	{"role_name_filter", []string{"substring", "prefix", "exact"}, func(a *Assumptions) *string { return &a.RoleNameFilter }},
	{"client_patch", []string{"replace", "merge"}, func(a *Assumptions) *string { return &a.ClientPatch }},
	{"unfit_token_exchange", []string{"accept", "refuse"}, func(a *Assumptions) *string { return &a.UnfitTokenExchange }},
	{"requested_token_type", []string{"refuse", "accept"}, func(a *Assumptions) *string { return &a.RequestedTokenType }},
	{"refresh_grant_type", []string{"refuse", "accept"}, func(a *Assumptions) *string { return &a.RefreshGrantType }},
	{"grant_subject_type", []string{"shared", "separate"}, func(a *Assumptions) *string { return &a.GrantSubjectType }},
	{"ungranted_scope", []string{"narrow", "refuse"}, func(a *Assumptions) *string { return &a.UngrantedScope }},
	{"bind_missing_action", []string{"not_found", "invalid"}, func(a *Assumptions) *string { return &a.BindMissingAction }},
}

// Set sets the assumption name to value ("name=value" of --assume).
func (a *Assumptions) Set(name, value string) error {
	for _, s := range AllAssumptions {
		if s.Name != name {
			continue
		}
		if !slices.Contains(s.Values, value) {
			return fmt.Errorf("assumption %s: %q is not one of %s", name, value, strings.Join(s.Values, ", "))
		}
		*s.field(a) = value
		return nil
	}
	names := make([]string, 0, len(AllAssumptions))
	for _, s := range AllAssumptions {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return fmt.Errorf("no assumption is named %q; the assumptions are %s", name, strings.Join(names, ", "))
}

// Normalize fills every empty setting with its default and refuses a value
// a setting does not have.
func (a *Assumptions) Normalize() error {
	for _, s := range AllAssumptions {
		v := s.field(a)
		if *v == "" {
			*v = s.Values[0]
			continue
		}
		if !slices.Contains(s.Values, *v) {
			return fmt.Errorf("assumption %s: %q is not one of %s", s.Name, *v, strings.Join(s.Values, ", "))
		}
	}
	return nil
}

// Map is every setting by name, defaults filled in.
func (a Assumptions) Map() map[string]string {
	_ = a.Normalize()
	out := make(map[string]string, len(AllAssumptions))
	for _, s := range AllAssumptions {
		out[s.Name] = *s.field(&a)
	}
	return out
}
