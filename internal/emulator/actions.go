package emulator

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
)

// Actions (reference §2): a draft (name, triggers, code, runtime,
// dependencies, secrets) that builds asynchronously after every create and
// PATCH, and numbered versions that a deploy makes from the built draft.

// triggerIDs are the trigger ids an action may support.
//
// Assumption (reference §2 names only custom-token-exchange): the platform's
// documented triggers post-login, credentials-exchange,
// pre-user-registration, post-user-registration, post-change-password,
// send-phone-message and password-reset-post-challenge are accepted too; any
// other id is refused as an enum mismatch. A trigger's version is any
// non-empty string.
var triggerIDs = []string{
	"post-login", "credentials-exchange", "pre-user-registration", "post-user-registration",
	"post-change-password", "send-phone-message", "password-reset-post-challenge", "custom-token-exchange",
}

// actionRuntimes are the runtimes an action may name: node22 (the default)
// and node18, and node18-actions, which a PATCH set, read back unchanged,
// built and deployed (reference §2).
//
// Assumption (reference §2 names no others): these three are the only ones
// accepted; any other is refused as an enum mismatch.
var actionRuntimes = []string{"node18", "node18-actions", "node22"}

// unpublished are the dependencies known not to install: crypto 17.7.1,
// never published, failed the build (reference §2).
var unpublished = []dependency{{Name: "crypto", Version: "17.7.1"}}

// maxDependencies is how many npm modules an action may have.
//
// Assumption (the reference is silent; the platform's Actions limitations
// page [R] says "Each Action may have a maximum of 10 npm modules"): a
// build with more fails, as a build fails whose dependency cannot be
// installed (reference §2), at once and without running npm. Whether the
// tenant refuses the create or PATCH instead is not known.
const maxDependencies = 10

// A dependency installs unless the emulator can know it would not: it is
// the observed unpublished one, its name or its version is one npm refuses
// to parse, or the FailingPackages fault names it. The emulator does not
// stand in for the npm registry: real published packages such as auth0
// 2.42.0 and moment 2.29.4 build (reference §2), and so does any other
// package at a well-formed version.
//
// Assumption (reference §2 shows only one failing dependency): a version
// that cannot exist is one that npm's own parser (npm-package-arg, for a
// registry dependency) refuses. After trimming surrounding white space, a
// version is well formed when it is
//   - an exact semver version: MAJOR.MINOR.PATCH with numbers without
//     leading zeros, an optional -prerelease and +build of dot-separated
//     [0-9A-Za-z-]+ identifiers (prerelease numbers without leading zeros),
//     optionally preceded by "v" or "=";
//   - an npm semver range (node-semver's grammar): ranges joined by "||";
//     each range empty (any version), a hyphen range "partial - partial", or
//     comparators separated by white space, each an optional operator (<,
//     <=, >, >=, =, ~, ~>, ^; white space after it is allowed) and a
//     partial: an optional "v", then x, X, * or a number, optionally
//     followed by ".minor" and ".patch" parts of the same kind, the patch
//     optionally followed by -prerelease and +build;
//   - an npm dist-tag such as latest or next: one or more of the
//     characters encodeURIComponent leaves as they are, A-Z a-z 0-9 - _ .
//     ! ~ * ' ( ).
//
// Anything else cannot exist and fails the build, URLs, git, file: and
// npm: alias specifiers included (an action's dependency is assumed to come
// from a registry). A well-formed version, range or tag that matches no
// published version cannot be known and installs.
var (
	semverNumber   = `(?:0|[1-9][0-9]*)`
	semverPre      = `(?:-(?:` + semverNumber + `|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:` + semverNumber + `|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)`
	semverBuild    = `(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)`
	exactVersion   = regexp.MustCompile(`^[v=]?` + semverNumber + `\.` + semverNumber + `\.` + semverNumber + semverPre + `?` + semverBuild + `?$`)
	rangeX         = `(?:[xX*]|` + semverNumber + `)`
	rangeQualifier = `(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?` + semverBuild + `?`
	rangePartial   = `v?` + rangeX + `(?:\.` + rangeX + `(?:\.` + rangeX + rangeQualifier + `)?)?`
	rangeOperator  = regexp.MustCompile(`(<=|>=|<|>|=|~>|~|\^)\s+`)
	rangeHyphen    = regexp.MustCompile(`^` + rangePartial + `\s+-\s+` + rangePartial + `$`)
	rangeSimple    = regexp.MustCompile(`^(?:<=|>=|<|>|=|~>|~|\^)?` + rangePartial + `$`)
	distTag        = regexp.MustCompile(`^[A-Za-z0-9_.!~*'()-]+$`)
)

// wellFormedVersion reports whether v is an exact version, a range or a
// dist-tag as npm parses them (see above).
func wellFormedVersion(v string) bool {
	v = strings.TrimSpace(v)
	return exactVersion.MatchString(v) || semverRange(v) || distTag.MatchString(v)
}

func semverRange(v string) bool {
	for _, r := range strings.Split(v, "||") {
		r = strings.TrimSpace(r)
		if r == "" || rangeHyphen.MatchString(r) {
			continue
		}
		for _, c := range strings.Fields(rangeOperator.ReplaceAllString(r, "$1")) {
			if !rangeSimple.MatchString(c) {
				return false
			}
		}
	}
	return true
}

// npmURIComponent is what encodeURIComponent leaves as it is.
var (
	npmURIComponent = regexp.MustCompile(`^[A-Za-z0-9_.!~*'()-]+$`)
	npmScoped       = regexp.MustCompile(`^@([^/]+)/([^/]+)$`)
)

// npmPackageName reports whether name is a package name npm accepts for
// existing packages (validate-npm-package-name's validForOldPackages): not
// empty, not starting with "." or "_", no surrounding white space, not
// node_modules or favicon.ico, and URL-safe, or @scope/name with both parts
// URL-safe and the name not starting with ".".
//
// Assumption: the rules npm keeps only for new packages (lower case, at
// most 214 characters, not a core module name such as crypto, no ~'!()*)
// are not applied, since older published packages break them (JSONStream).
func npmPackageName(name string) bool {
	if name == "" || name[0] == '.' || name[0] == '_' || strings.TrimSpace(name) != name {
		return false
	}
	if l := strings.ToLower(name); l == "node_modules" || l == "favicon.ico" {
		return false
	}
	if npmURIComponent.MatchString(name) {
		return true
	}
	m := npmScoped.FindStringSubmatch(name)
	return m != nil && !strings.HasPrefix(m[2], ".") && npmURIComponent.MatchString(m[1]) && npmURIComponent.MatchString(m[2])
}

// Build phases, one step each (BuildDelay/4). A build that succeeds is
// pending, then building, then built after BuildDelay; one that fails goes
// pending, building, retrying, building, retrying, building, then failed
// (the observed sequence, reference §2).
var (
	buildSucceeds = []string{"pending", "building", "building", "building"}
	buildFails    = []string{"pending", "building", "retrying", "building", "retrying", "building"}
)

type trigger struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// dependency is an npm package the action needs.
//
// Assumption (reference §2 lists the keys only): name and version are
// required, registry_url is optional and absent from answers when not sent.
type dependency struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	RegistryURL string `json:"registry_url,omitempty"`
}

// actionSecret is a secret as the API shows it: never its value (reference §2, §7).
type actionSecret struct {
	Name      string `json:"name"`
	UpdatedAt string `json:"updated_at"`
}

// secret is a stored secret, value included.
type secret struct {
	Name      string
	Value     string
	UpdatedAt string
}

// actionVersion is one deployed version of an action.
type actionVersion struct {
	ID           string
	Number       int
	Code         string
	Dependencies []dependency
	Secrets      []actionSecret
	Runtime      string
	Triggers     []trigger
	BuiltAt      string
	CreatedAt    string
	UpdatedAt    string
	Deployed     bool
	// SecretValues are the secrets as they were when the version was made:
	// what its code reads in event.secrets.
	SecretValues map[string]string
}

// actionBuild is the latest build of an action's draft. Its status follows
// from the time since Start; settle applies its outcome once it is over.
type actionBuild struct {
	Start time.Time
	Step  time.Duration
	Fails bool
	// Deploy makes a version as soon as the build succeeds (create with
	// deploy:true, or a deploy asked before the build ended); DeployID is
	// that version's id when the deploy's answer gave it already.
	Deploy   bool
	DeployID string
	// DeployStep is how long the deploy takes to show (see deploy.go).
	DeployStep time.Duration
	Done       bool
	// BuiltAt is when the draft was last built successfully.
	BuiltAt time.Time
	// Install is the npm install of the draft's dependencies (nil when
	// there are none, or the build fails before npm runs).
	Install *actionruntime.Install `json:"-"`
}

func (b *actionBuild) phases() []string {
	if b.Fails || b.installFailed() {
		return buildFails
	}
	return buildSucceeds
}

func (b *actionBuild) length() time.Duration { return time.Duration(len(b.phases())) * b.Step }

func (b *actionBuild) end() time.Time { return b.afterInstall(b.Start.Add(b.length())) }

func (b *actionBuild) status(now time.Time) string {
	phases := b.phases()
	i := int(now.Sub(b.Start) / b.Step)
	if (b.Done || i >= len(phases)) && !b.installing() {
		if b.Fails || b.installFailed() {
			return "failed"
		}
		return "built"
	}
	return phases[min(max(i, 0), len(phases)-1)]
}

type action struct {
	ID                 string
	Name               string
	Triggers           []trigger
	CreatedAt          string
	UpdatedAt          string
	Code               string
	Dependencies       []dependency
	Runtime            string
	Secrets            []secret
	Versions           []*actionVersion // oldest first
	AllChangesDeployed bool
	Build              actionBuild
	Deploying          pendingDeploy
	Seq                int64
}

func (a *action) clone() *action {
	c := *a
	c.Triggers = append([]trigger{}, a.Triggers...)
	c.Dependencies = append([]dependency{}, a.Dependencies...)
	c.Secrets = append([]secret{}, a.Secrets...)
	c.Versions = make([]*actionVersion, len(a.Versions))
	for i, v := range a.Versions {
		x := *v
		x.Dependencies = append([]dependency{}, v.Dependencies...)
		x.Secrets = append([]actionSecret{}, v.Secrets...)
		x.Triggers = append([]trigger{}, v.Triggers...)
		c.Versions[i] = &x
	}
	return &c
}

func (a *action) supports(triggerID string) bool {
	for _, t := range a.Triggers {
		if t.ID == triggerID {
			return true
		}
	}
	return false
}

// settle applies the outcome of a build that is over by now: a failed build
// leaves the versions as they were (reference §2); a successful one marks
// the draft built and, if asked, deploys it at the moment it was built.
func (a *action) settle(now time.Time) {
	defer a.finishDeploy(now)
	b := &a.Build
	if b.Done || b.installing() || now.Before(b.end()) {
		return
	}
	b.Done = true
	if b.Fails || b.installFailed() {
		return
	}
	b.BuiltAt = b.end()
	if b.Deploy {
		a.deploy(b.end(), b.DeployStep, b.DeployID)
	}
}

// startBuild starts building the draft at start; whether it will fail is
// known from its dependencies and the faults set now.
//
// Assumption (a choice of the emulator): the FailingPackages fault applies
// to the builds started while it is set; a build already under way keeps
// the outcome it started with when the fault changes.
func (s *Server) startBuild(a *action, start time.Time, deploy bool) {
	fails := !installable(a.Dependencies, s.faults.FailingPackages)
	if n := len(a.Dependencies); n > maxDependencies {
		fails = true
		s.logLine("action %q (%s): %d dependencies, more than the %d an action may have: the build fails", a.Name, a.ID, n, maxDependencies)
	}
	a.Build = actionBuild{Start: start, Step: max(s.opts.BuildDelay/4, time.Nanosecond), Fails: fails, Deploy: deploy, DeployStep: s.deployStep()}
	if !fails {
		a.Build.Install = s.installDependencies(a)
	}
}

// installable reports whether every dependency would install (see
// wellFormedVersion); failing lists the FailingPackages fault's entries.
func installable(deps []dependency, failing []string) bool {
	for _, d := range deps {
		if !npmPackageName(d.Name) || !wellFormedVersion(d.Version) || slices.Contains(unpublished, dependency{Name: d.Name, Version: d.Version}) {
			return false
		}
		for _, f := range failing {
			name, version, _ := splitPackage(f)
			if d.Name == name && (version == "" || d.Version == version) {
				return false
			}
		}
	}
	return true
}

// splitPackage splits a FailingPackages entry, name@version or name, at its
// last "@" that does not begin a scoped name.
//
// Assumption (a choice of the emulator): an entry's version is compared
// with the dependency's version as a string, exactly, with no range
// matching; a bare name matches every version.
func splitPackage(entry string) (name, version string, err error) {
	name = entry
	if i := strings.LastIndex(entry, "@"); i > 0 {
		name, version = entry[:i], entry[i+1:]
		if version == "" {
			return "", "", fmt.Errorf("failing package %q: the version after @ is empty", entry)
		}
	}
	if !npmPackageName(name) {
		return "", "", fmt.Errorf("failing package %q: %q is not an npm package name", entry, name)
	}
	return name, version, nil
}

// current is the newest version, deployed the deployed one; nil before the
// first deploy.
func (a *action) current() *actionVersion {
	if len(a.Versions) == 0 {
		return nil
	}
	return a.Versions[len(a.Versions)-1]
}

func (a *action) deployed() *actionVersion {
	for _, v := range a.Versions {
		if v.Deployed {
			return v
		}
	}
	return nil
}

func secretValues(list []secret) map[string]string {
	out := make(map[string]string, len(list))
	for _, s := range list {
		out[s.Name] = s.Value
	}
	return out
}

func secretViews(list []secret) []actionSecret {
	out := make([]actionSecret, 0, len(list))
	for _, s := range list {
		out = append(out, actionSecret{Name: s.Name, UpdatedAt: s.UpdatedAt})
	}
	return out
}

// view is the action as the API shows it at now, in the observed key order
// (reference §2); current_version and deployed_version appear once a
// version exists.
func (a *action) view(now time.Time) wire.Ordered {
	a.settle(now)
	o := wire.Ordered{
		{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt},
		{"updated_at", a.UpdatedAt}, {"code", a.Code}, {"dependencies", a.Dependencies}, {"runtime", a.Runtime},
		{"status", a.Build.status(now)}, {"secrets", secretViews(a.Secrets)},
	}
	if v := a.current(); v != nil {
		// Assumption (reference §2 lists build_time without its format): a
		// timestamp like built_at.
		o = append(o, wire.Ordered{{"current_version", wire.Ordered{
			{"id", v.ID}, {"code", v.Code}, {"runtime", v.Runtime}, {"status", "BUILT"}, {"number", v.Number},
			{"build_time", v.BuiltAt}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		}}}...)
	}
	if v := a.deployed(); v != nil {
		o = append(o, wire.Ordered{{"deployed_version", v.view()}}...)
	}
	return append(o, wire.Ordered{{"all_changes_deployed", a.AllChangesDeployed}}...)
}

// view is a version in the key order of deployed_version (reference §2).
func (v *actionVersion) view() wire.Ordered {
	return wire.Ordered{
		{"code", v.Code}, {"dependencies", v.Dependencies}, {"id", v.ID}, {"deployed", v.Deployed}, {"number", v.Number},
		{"built_at", v.BuiltAt}, {"secrets", v.Secrets}, {"status", "built"}, {"created_at", v.CreatedAt},
		{"updated_at", v.UpdatedAt}, {"runtime", v.Runtime}, {"supported_triggers", v.Triggers},
	}
}

// summary is the action as a version shows it (reference §2, deploy reply).
func (a *action) summary(allChangesDeployed bool) wire.Ordered {
	return wire.Ordered{
		{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt},
		{"updated_at", a.UpdatedAt}, {"all_changes_deployed", allChangesDeployed},
	}
}

// applyAction validates b and writes it into the draft a; deploy is the
// create body's deploy flag.
func applyAction(a *action, b wire.Body, create bool, now time.Time) (deploy bool, _ *wire.Error) {
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
func readTriggers(o wire.Obj) ([]trigger, *wire.Error) {
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
	out := make([]trigger, 0, len(items))
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
		id, e := it.EnumReq("id", triggerIDs...)
		if e != nil {
			return nil, e
		}
		version, e := it.Str("version", true, 1, 0)
		if e != nil {
			return nil, e
		}
		out = append(out, trigger{ID: id, Version: version})
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
		if _, e := c.EnumReq("id", triggerIDs...); e != nil {
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
func readDependencies(o wire.Obj) ([]dependency, *wire.Error) {
	items, ok, e := o.Array("dependencies")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr("dependencies", "array")
	}
	out := make([]dependency, 0, len(items))
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
		out = append(out, dependency{Name: name, Version: version, RegistryURL: registry})
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
func readSecrets(o wire.Obj, old []secret, create bool, now time.Time) ([]secret, *wire.Error) {
	items, ok, e := o.Array("secrets")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, o.TypeErr("secrets", "array")
	}
	out := make([]secret, 0, len(items))
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
			out = append(out, secret{Name: name, Value: value, UpdatedAt: wire.Nanos(now)})
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
func (s *Server) findAction(id string, now time.Time) (*action, *wire.Error) {
	a, ok := s.st.Actions[id]
	if !ok {
		return nil, wire.NewErr(404, "That action does not exist.", "")
	}
	a.settle(now)
	return a, nil
}

func (s *Server) createAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	now := time.Now()
	a := &action{Triggers: []trigger{}, Dependencies: []dependency{}, Runtime: "node22", Secrets: []secret{}, Versions: []*actionVersion{}}
	deploy, e := applyAction(a, b, true, now)
	if e != nil {
		return e
	}
	if e := s.capReached(len(s.st.Actions)); e != nil {
		return e
	}
	s.addAction(a, now, deploy)
	wire.WriteJSON(w, 201, a.view(now))
	return nil
}

// addAction stores a new action whose first build starts at start. With
// deploy, it is deployed when that build succeeds, not before: right after
// the create it is still pending (reference §2).
func (s *Server) addAction(a *action, start time.Time, deploy bool) {
	a.ID, a.Seq = wire.UUID4(), s.st.next()
	a.CreatedAt, a.UpdatedAt = wire.Nanos(start), wire.Nanos(start)
	s.startBuild(a, start, deploy)
	s.st.Actions[a.ID] = a
}

func (s *Server) getAction(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	now := time.Now()
	a, e := s.findAction(wire.PathID(r), now)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, false, s.opts.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(a.view(now)))
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
	sel, e := wire.ReadFields(r, false, s.opts.FieldsEverywhere)
	if e != nil {
		return e
	}
	deployed := q.Get("deployed")
	if deployed != "" && deployed != "true" && deployed != "false" {
		return wire.NewErr(400, "Query validation error: 'Expected type boolean but found type string' on property deployed.", "invalid_query_string")
	}
	match := []wire.Ordered{}
	now := time.Now()
	for _, a := range sortedBySeq(s.st.Actions, func(a *action) int64 { return a.Seq }) {
		a.settle(now)
		if t := q.Get("triggerId"); t != "" && !a.supports(t) {
			continue
		}
		if n := q.Get("actionName"); n != "" && a.Name != n {
			continue
		}
		if deployed != "" && (deployed == "true") != (a.deployed() != nil) {
			continue
		}
		match = append(match, a.view(now))
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
	next := a.clone()
	if _, e := applyAction(next, b, false, now); e != nil {
		return e
	}
	next.UpdatedAt, next.AllChangesDeployed, next.Deploying.Stale = wire.Nanos(now), false, true
	s.startBuild(next, now, false)
	*a = *next
	wire.WriteJSON(w, 200, a.view(now))
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
	var v *actionVersion
	switch st := a.Build.status(now); {
	case st == "built":
		v = a.deploy(now, s.deployStep(), "")
	case st == "failed" || s.opts.Assume.DeployUnbuilt == "refuse":
		return wire.NewErr(400, "The action cannot be deployed: its status is "+st+", and only a built action can be deployed.", "")
	default:
		v = a.deployWhenBuilt(now)
	}
	wire.WriteJSON(w, 200, a.deployAnswer(v))
	return nil
}

// deployAnswer is the answer of a deploy: the version made, still
// deployed:false, and the action summary with all_changes_deployed:false
// (reference §2; the same for a roll-back, TestActionManager_DeployVersion.yaml).
func (a *action) deployAnswer(v *actionVersion) wire.Ordered {
	return wire.Ordered{
		{"code", v.Code}, {"dependencies", v.Dependencies}, {"id", v.ID}, {"deployed", false}, {"number", v.Number},
		{"secrets", v.Secrets}, {"status", "built"}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		{"runtime", v.Runtime}, {"supported_triggers", v.Triggers}, {"action", a.summary(false)},
	}
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
	i := slices.IndexFunc(a.Versions, func(v *actionVersion) bool { return v.ID == r.PathValue("versionId") })
	if i < 0 {
		return wire.NewErr(404, "That action version does not exist.", "")
	}
	old := a.Versions[i]
	if update != nil && *update {
		a.Code, a.Runtime = old.Code, old.Runtime
		a.Dependencies = append([]dependency{}, old.Dependencies...)
		a.Triggers = append([]trigger{}, old.Triggers...)
		a.UpdatedAt = wire.Nanos(now)
		a.Build = actionBuild{Start: now, Step: max(s.opts.BuildDelay/4, time.Nanosecond), Done: true, BuiltAt: now}
	}
	a.Deploying = pendingDeploy{}
	for _, v := range a.Versions {
		v.Deployed = false
	}
	v := &actionVersion{
		ID: wire.UUID4(), Number: len(a.Versions) + 1, Code: old.Code, Dependencies: append([]dependency{}, old.Dependencies...),
		Secrets: append([]actionSecret{}, old.Secrets...), Runtime: old.Runtime, Triggers: append([]trigger{}, old.Triggers...),
		BuiltAt: wire.Nanos(now), CreatedAt: wire.Nanos(now), UpdatedAt: wire.Nanos(now), Deployed: true,
	}
	a.Versions = append(a.Versions, v)
	a.AllChangesDeployed = a.draftIs(v)
	wire.WriteJSON(w, 200, a.deployAnswer(v))
	return nil
}

// draftIs reports whether the draft is what version v holds.
func (a *action) draftIs(v *actionVersion) bool {
	names := func(list []actionSecret) []string {
		out := make([]string, 0, len(list))
		for _, s := range list {
			out = append(out, s.Name)
		}
		return out
	}
	return a.Code == v.Code && a.Runtime == v.Runtime && slices.Equal(a.Dependencies, v.Dependencies) &&
		slices.Equal(a.Triggers, v.Triggers) && slices.Equal(names(secretViews(a.Secrets)), names(v.Secrets))
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
	sel, e := wire.ReadFields(r, false, s.opts.FieldsEverywhere)
	if e != nil {
		return e
	}
	all := []wire.Ordered{}
	for i := len(a.Versions) - 1; i >= 0; i-- {
		all = append(all, a.versionView(a.Versions[i]))
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
	sel, e := wire.ReadFields(r, false, s.opts.FieldsEverywhere)
	if e != nil {
		return e
	}
	for _, v := range a.Versions {
		if v.ID == r.PathValue("versionId") {
			wire.WriteJSON(w, 200, sel.One(a.versionView(v)))
			return nil
		}
	}
	return wire.NewErr(404, "That action version does not exist.", "")
}

func (a *action) versionView(v *actionVersion) wire.Ordered {
	return append(v.view(), wire.Ordered{{"action", a.summary(a.AllChangesDeployed)}}...)
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
	if _, ok := s.st.Actions[id]; !ok {
		return wire.NewErr(404, "That action does not exist.", "")
	}
	if r.URL.Query().Get("force") != "true" && len(s.boundTo(id)) > 0 {
		return wire.NewErr(409, "Unable to delete an action bound to a trigger.", "")
	}
	if r.URL.Query().Get("force") != "true" && s.opts.Assume.ActionInUse == "refuse" {
		var users []string
		for _, p := range sortedBySeq(s.st.Profiles, func(p *profile) int64 { return p.Seq }) {
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
	s.unbind(id)
	delete(s.st.Actions, id)
	wire.NoContent(w)
	return nil
}
