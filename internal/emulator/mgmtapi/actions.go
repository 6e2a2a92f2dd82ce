package mgmtapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Actions (reference §2): a draft (name, triggers, code, runtime,
// dependencies, secrets) that builds asynchronously after every create and
// PATCH, and numbered versions that a deploy makes from the built draft.

// actionRuntimes are the runtimes an action may name: node22 (the default)
// and node18, and node18-actions, which a PATCH set, read back unchanged,
// built and deployed (reference §2).
//
// Assumption (reference §2 names no others): these three are the only ones
// accepted; any other is refused as an enum mismatch.
var actionRuntimes = []string{"node18", "node18-actions", "node22"}

// applyAction validates b and writes it into the draft a; deploy is the
// create body's deploy flag.
func applyAction(a *tenant.Action, b wire.Body, create bool, now time.Time) (deploy bool, _ *wire.Error) {
	allowed := []string{"name", "supported_triggers", "code", "runtime", "dependencies", "secrets"}
	if create {
		allowed = append(allowed, "deploy")
	}
	o := b.At("")
	if e := o.Only(allowed...); e != nil {
		return false, e
	}
	if create {
		if e := o.Require("name", "supported_triggers"); e != nil {
			return false, e
		}
	}
	var e *wire.Error
	if o.Has("name") {
		if a.Name, e = o.Str("name", true, 1, 255); e != nil {
			return false, e
		}
	}
	if o.Has("supported_triggers") {
		if a.Triggers, e = readTriggers(o); e != nil {
			return false, e
		}
	}
	if o.Has("code") {
		if a.Code, e = o.Str("code", false, 0, 0); e != nil {
			return false, e
		}
	}
	if o.Has("runtime") {
		if a.Runtime, e = o.EnumReq("runtime", actionRuntimes...); e != nil {
			return false, e
		}
	}
	if o.Has("dependencies") {
		if a.Dependencies, e = readDependencies(o); e != nil {
			return false, e
		}
	}
	if o.Has("secrets") {
		if a.Secrets, e = readSecrets(o, a.Secrets, create, now); e != nil {
			return false, e
		}
	}
	if create {
		d, e := o.Bool("deploy")
		if e != nil {
			return false, e
		}
		deploy = d != nil && *d
	}
	return deploy, nil
}

// readTriggers reads supported_triggers. An item takes the keys of a trigger
// as GET /actions/triggers shows it (the published specification's
// ActionTrigger, additionalProperties false): id and version are kept;
// status, runtimes, default_runtime, compatible_triggers and binding_policy
// are checked for their type and not kept. A compatible trigger needs id
// and version and may carry other keys (additionalProperties true).
//
// Assumption (the specification requires only id): version is required too,
// as every observed write sends it (reference §2).
func readTriggers(o wire.Obj) ([]tenant.Trigger, *wire.Error) {
	items, ok, e := o.Array("supported_triggers")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr("supported_triggers", "array")
	}
	if len(items) == 0 {
		return nil, wire.PayloadErr("Array is too short (0), minimum 1", "supported_triggers")
	}
	out := make([]tenant.Trigger, 0, len(items))
	for i, raw := range items {
		it, _, e := wire.AsObject(raw, "supported_triggers["+strconv.Itoa(i)+"]")
		if e != nil {
			return nil, e
		}
		if e := it.Only("id", "version", "status", "runtimes", "default_runtime", "compatible_triggers", "binding_policy"); e != nil {
			return nil, e
		}
		if e := it.Require("id", "version"); e != nil {
			return nil, e
		}
		if e := readTriggerExtras(it); e != nil {
			return nil, e
		}
		id, e := it.EnumReq("id", tenant.TriggerIDs...)
		if e != nil {
			return nil, e
		}
		version, e := it.Str("version", true, 1, 0)
		if e != nil {
			return nil, e
		}
		out = append(out, tenant.Trigger{ID: id, Version: version})
	}
	return out, nil
}

// readTriggerExtras checks the keys of a trigger item that are not kept.
func readTriggerExtras(it wire.Obj) *wire.Error {
	for _, k := range []string{"status", "default_runtime"} {
		if _, e := it.Str(k, false, 0, 0); e != nil {
			return e
		}
	}
	if _, e := it.Enum("binding_policy", "trigger-bound", "entity-bound"); e != nil {
		return e
	}
	runtimes, _, e := it.Array("runtimes")
	if e != nil {
		return e
	}
	for i, raw := range runtimes {
		if wire.JSONType(raw) != "string" {
			return wire.PayloadErr("Expected type string but found type "+wire.JSONType(raw), it.Prop("runtimes")+"["+strconv.Itoa(i)+"]")
		}
	}
	compatible, _, e := it.Array("compatible_triggers")
	if e != nil {
		return e
	}
	for i, raw := range compatible {
		c, _, e := wire.AsObject(raw, it.Prop("compatible_triggers")+"["+strconv.Itoa(i)+"]")
		if e != nil {
			return e
		}
		if e := c.Require("id", "version"); e != nil {
			return e
		}
		if _, e := c.EnumReq("id", tenant.TriggerIDs...); e != nil {
			return e
		}
		if _, e := c.Str("version", true, 1, 0); e != nil {
			return e
		}
	}
	return nil
}

// readDependencies checks only the shape: whether a dependency can be
// installed is the build's business (reference §2). An item takes name,
// version and registry_url only (the published specification's
// ActionVersionDependency, additionalProperties false).
func readDependencies(o wire.Obj) ([]tenant.Dependency, *wire.Error) {
	items, ok, e := o.Array("dependencies")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr("dependencies", "array")
	}
	out := make([]tenant.Dependency, 0, len(items))
	for i, raw := range items {
		it, _, e := wire.AsObject(raw, "dependencies["+strconv.Itoa(i)+"]")
		if e != nil {
			return nil, e
		}
		if e := it.Only("name", "version", "registry_url"); e != nil {
			return nil, e
		}
		name, e := it.Str("name", true, 1, 0)
		if e != nil {
			return nil, e
		}
		version, e := it.Str("version", true, 1, 0)
		if e != nil {
			return nil, e
		}
		registry, e := it.Str("registry_url", false, 0, 0)
		if e != nil {
			return nil, e
		}
		out = append(out, tenant.Dependency{Name: name, Version: version, RegistryURL: registry})
	}
	return out, nil
}

// readSecrets reads the secrets list, which replaces the stored one.
//
// An item may carry other keys than name and value, which are ignored: the
// published specification's ActionSecretRequest allows them
// (additionalProperties true), and a real tenant answered 200 to a PATCH
// whose secrets carried updated_at as read back. That answer rests on one
// recording, of January 2023 (go-auth0 v1.47.0,
// TestActionManager_Update.yaml): {"name","value","updated_at"} items,
// updated_at then set to the time of the PATCH.
//
// Assumption (reference §2 says only that PATCH secrets are stored and read
// back): the list sent is the whole set, so a secret it does not name is
// removed. On create every item needs name and value. On PATCH an item with
// a name only keeps the stored value of the secret of that name (400
// "Missing required property: value" on property secrets[i] when there is
// none); updated_at changes only for the secrets whose value was sent.
// Names must be unique within the list.
func readSecrets(o wire.Obj, old []tenant.Secret, create bool, now time.Time) ([]tenant.Secret, *wire.Error) {
	items, ok, e := o.Array("secrets")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr("secrets", "array")
	}
	out := make([]tenant.Secret, 0, len(items))
	seen := map[string]bool{}
	for i, raw := range items {
		it, _, e := wire.AsObject(raw, "secrets["+strconv.Itoa(i)+"]")
		if e != nil {
			return nil, e
		}
		name, e := it.Str("name", true, 1, 0)
		if e != nil {
			return nil, e
		}
		if seen[name] {
			return nil, wire.PayloadErr("Duplicate secret name: "+name, it.Prop("name"))
		}
		seen[name] = true
		if it.Has("value") {
			value, e := it.Str("value", true, 0, 0)
			if e != nil {
				return nil, e
			}
			out = append(out, tenant.Secret{Name: name, Value: value, UpdatedAt: wire.Nanos(now)})
			continue
		}
		kept := false
		for _, s := range old {
			if s.Name == name && !create {
				out, kept = append(out, s), true
			}
		}
		if !kept {
			return nil, wire.PayloadErr("Missing required property: value", it.Path)
		}
	}
	return out, nil
}

// findAction returns the action with its finished build applied.
func (s *Server) findAction(id string, now time.Time) (*tenant.Action, *wire.Error) {
	a, ok := s.St.Actions[id]
	if !ok {
		return nil, wire.NewErr(404, "That action does not exist.", "")
	}
	a.Settle(now)
	return a, nil
}

func (s *Server) createAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	now := time.Now()
	a := &tenant.Action{Triggers: []tenant.Trigger{}, Dependencies: []tenant.Dependency{}, Runtime: "node22", Secrets: []tenant.Secret{}, Versions: []*tenant.ActionVersion{}}
	deploy, e := applyAction(a, b, true, now)
	if e != nil {
		return e
	}
	if e := s.capReached(len(s.St.Actions)); e != nil {
		return e
	}
	s.AddAction(a, now, deploy)
	wire.WriteJSON(w, 201, a.View(now))
	return nil
}

func (s *Server) getAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(a.View(now)))
	return nil
}

// listActions filters by triggerId, actionName (exact) and deployed, and
// pages with page and per_page (default 20); the envelope is
// {"actions","total","per_page"} (reference §0.6, §2).
func (s *Server) listActions(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	q := r.URL.Query()
	page, perPage, _, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	if q.Get("per_page") == "" {
		perPage = 20
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	deployed := q.Get("deployed")
	if deployed != "" && deployed != "true" && deployed != "false" {
		return wire.NewErr(400, "Query validation error: 'Expected type boolean but found type string' on property deployed.", "invalid_query_string")
	}
	match := []wire.Ordered{}
	now := time.Now()
	for _, a := range tenant.SortedBySeq(s.St.Actions, func(a *tenant.Action) int64 { return a.Seq }) {
		a.Settle(now)
		if t := q.Get("triggerId"); t != "" && !a.Supports(t) {
			continue
		}
		if n := q.Get("actionName"); n != "" && a.Name != n {
			continue
		}
		if deployed != "" && (deployed == "true") != (a.Deployed() != nil) {
			continue
		}
		match = append(match, a.View(now))
	}
	start, end := wire.Window(len(match), page, perPage)
	wire.WriteJSON(w, 200, wire.Ordered{{"actions", wire.Each(sel, match[start:end])}, {"total", len(match)}, {"per_page", perPage}})
	return nil
}

// updateAction stores the fields sent and starts a new build; the action
// then has changes that are not deployed (reference §2).
//
// Assumption (reference §2 is silent): a PATCH made while a create's
// deploy:true is still waiting for its build cancels that deploy, since the
// draft it was for has changed.
func (s *Server) updateAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	next := a.Clone()
	if _, e := applyAction(next, b, false, now); e != nil {
		return e
	}
	next.UpdatedAt, next.AllChangesDeployed, next.Deploying.Stale = wire.Nanos(now), false, true
	s.StartBuild(next, now, false)
	*a = *next
	wire.WriteJSON(w, 200, a.View(now))
	return nil
}

// deployAction makes a version from the built draft. The answer is that
// version with deployed:false and an action summary; the action itself
// shows the version deployed at once (reference §2).
//
// Assumption (reference §2 is silent): deploying a failed action is
// refused with 400 "The action cannot be deployed: its status is <status>,
// and only a built action can be deployed." (no errorCode); so is one whose
// build has not ended (pending, building, retrying), or it is deployed when
// the build succeeds (Assume.DeployUnbuilt). How long the deploy takes to
// show is Assume.ActionDeploy (see deploy.go).
func (s *Server) deployAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	var v *tenant.ActionVersion
	switch st := a.Build.Status(now); {
	case st == "built":
		v = a.Deploy(now, s.DeployStep(), "")
	case st == "failed" || s.Assume.DeployUnbuilt == "refuse":
		return wire.NewErr(400, "The action cannot be deployed: its status is "+st+", and only a built action can be deployed.", "")
	default:
		v = a.DeployWhenBuilt(now)
	}
	wire.WriteJSON(w, 200, a.DeployAnswer(v))
	return nil
}

// rollBackAction makes a new version identical to the one named and
// deploys it: "a roll-back of an action to an earlier, specified version"
// (published specification). The answer is the deploy answer of that new
// version, status 200 as recorded (TestActionManager_DeployVersion.yaml;
// the specification says 202). The body is empty or {"update_draft": bool}
// (additionalProperties false).
//
// Assumptions (the recording shows only the answer): without update_draft
// the draft stays as it was, so all_changes_deployed is true only when the
// draft equals the version; with update_draft:true the draft takes the
// version's code, runtime, dependencies and triggers, and is built (its
// secrets stay: a version holds no secret values); an unknown version id is
// 404 "That action version does not exist.", as GET is.
func (s *Server) rollBackAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only("update_draft"); e != nil {
		return e
	}
	update, e := b.Bool("update_draft")
	if e != nil {
		return e
	}
	i := slices.IndexFunc(a.Versions, func(v *tenant.ActionVersion) bool { return v.ID == r.PathValue("versionId") })
	if i < 0 {
		return wire.NewErr(404, "That action version does not exist.", "")
	}
	old := a.Versions[i]
	if update != nil && *update {
		a.Code, a.Runtime = old.Code, old.Runtime
		a.Dependencies = append([]tenant.Dependency{}, old.Dependencies...)
		a.Triggers = append([]tenant.Trigger{}, old.Triggers...)
		a.UpdatedAt = wire.Nanos(now)
		a.Build = tenant.Build{Start: now, Step: max(s.BuildDelay/4, time.Nanosecond), Done: true, BuiltAt: now}
	}
	a.Deploying = tenant.PendingDeploy{}
	for _, v := range a.Versions {
		v.Deployed = false
	}
	v := &tenant.ActionVersion{
		ID: wire.UUID4(), Number: len(a.Versions) + 1, Code: old.Code, Dependencies: append([]tenant.Dependency{}, old.Dependencies...),
		Secrets: append([]tenant.ActionSecret{}, old.Secrets...), Runtime: old.Runtime, Triggers: append([]tenant.Trigger{}, old.Triggers...),
		BuiltAt: wire.Nanos(now), CreatedAt: wire.Nanos(now), UpdatedAt: wire.Nanos(now), Deployed: true,
	}
	a.Versions = append(a.Versions, v)
	a.AllChangesDeployed = a.DraftIs(v)
	wire.WriteJSON(w, 200, a.DeployAnswer(v))
	return nil
}

// testAction takes {"payload": {...}} (the published specification:
// payload required, any object; additionalProperties false) and answers
// 200 with a result payload in the recorded shape (TestActionManager_Test.yaml:
// {"payload":{"error":{message,name,stack},"stats":{...}}}, the answer of a
// real tenant to code that threw).
//
// The emulator does not run an action's code here: every test answers
// that error payload, its message saying so, with zero durations, and the
// emulator's log says so too.
func (s *Server) testAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	a, e := s.findAction(wire.PathID(r), time.Now())
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	o := b.At("")
	if e := o.Only("payload"); e != nil {
		return e
	}
	if e := o.Require("payload"); e != nil {
		return e
	}
	if _, ok, e := o.Object("payload"); e != nil {
		return e
	} else if !ok {
		return o.TypeErr("payload", "object")
	}
	s.logf(r, "the emulator does not run action code; answered with an error payload")
	msg := "The emulator does not run an action's code: action " + a.ID + " was not executed. Test it against a tenant."
	wire.WriteJSON(w, 200, wire.Ordered{{"payload", wire.Ordered{
		{"error", wire.Ordered{{"message", msg}, {"name", "EmulatorError"}, {"stack", "EmulatorError: " + msg}}},
		{"stats", wire.Ordered{
			{"total_request_duration_ms", 0}, {"total_runtime_execution_duration_ms", 0}, {"runtime_processing_duration_ms", 0},
			{"action_duration_ms", 0}, {"runtime_external_call_duration_ms", 0}, {"boot_duration_ms", 0}, {"network_duration_ms", 0},
		}},
	}}})
	return nil
}

// listActionVersions pages the versions, newest first, in the recorded
// envelope {"versions","total","per_page"}, each version as
// deployed_version is, followed by the action summary of the deploy answer
// (TestActionManager_Versions.yaml).
//
// Assumption (reference §0.6 does not list this endpoint): offset paging
// with page and per_page (default 20, 1–100).
func (s *Server) listActionVersions(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	page, perPage, _, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	if r.URL.Query().Get("per_page") == "" {
		perPage = 20
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	all := []wire.Ordered{}
	for i := len(a.Versions) - 1; i >= 0; i-- {
		all = append(all, a.VersionView(a.Versions[i]))
	}
	start, end := wire.Window(len(all), page, perPage)
	wire.WriteJSON(w, 200, wire.Ordered{{"versions", wire.Each(sel, all[start:end])}, {"total", len(all)}, {"per_page", perPage}})
	return nil
}

// getActionVersion shows one version.
//
// Assumption (reference §2 is silent): an unknown version id answers 404
// "That action version does not exist." (no errorCode).
func (s *Server) getActionVersion(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	for _, v := range a.Versions {
		if v.ID == r.PathValue("versionId") {
			wire.WriteJSON(w, 200, sel.One(a.VersionView(v)))
			return nil
		}
	}
	return wire.NewErr(404, "That action version does not exist.", "")
}

// deleteAction deletes an action: 204, or 404 when it is gone (reference §0.5).
// An action bound to a trigger is not deleted without force=true: 409
// "Unable to delete an action bound to a trigger." (the reported text, no
// errorCode; trigger-bindings.md); with force=true it is unbound from every
// trigger and deleted (the specification's "Force action deletion detaching
// bindings").
//
// Assumption (reference §8 leaves this open): an action that a token
// exchange profile names is not deleted without force=true: 409 "The action
// is used by token exchange profile <id> (<name>); delete the profile first,
// or delete the action with force=true." (no errorCode), or it is
// (Assume.ActionInUse). Deleted, with force=true or not, the profile is left
// as it is, still naming the deleted action id.
func (s *Server) deleteAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	id := wire.PathID(r)
	if _, ok := s.St.Actions[id]; !ok {
		return wire.NewErr(404, "That action does not exist.", "")
	}
	if r.URL.Query().Get("force") != "true" && len(s.BoundTo(id)) > 0 {
		return wire.NewErr(409, "Unable to delete an action bound to a trigger.", "")
	}
	if r.URL.Query().Get("force") != "true" && s.Assume.ActionInUse == "refuse" {
		var users []string
		for _, p := range tenant.SortedBySeq(s.St.Profiles, func(p *tenant.Profile) int64 { return p.Seq }) {
			if p.ActionID == id {
				users = append(users, p.ID+" ("+p.Name+")")
			}
		}
		if len(users) > 0 {
			noun := "token exchange profile "
			if len(users) > 1 {
				noun = "token exchange profiles "
			}
			return wire.NewErr(409, "The action is used by "+noun+strings.Join(users, ", ")+"; delete the profile first, or delete the action with force=true.", "")
		}
	}
	s.Unbind(id)
	delete(s.St.Actions, id)
	wire.NoContent(w)
	return nil
}
