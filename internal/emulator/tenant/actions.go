package tenant

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Unpublished are the dependencies known not to install: crypto 17.7.1,
// never published, failed the build (reference §2).
var Unpublished = []Dependency{{Name: "crypto", Version: "17.7.1"}}

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

// WellFormedVersion reports whether v is an exact version, a range or a
// dist-tag as npm parses them (see above).
func WellFormedVersion(v string) bool {
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
	BuildSucceeds = []string{"pending", "building", "building", "building"}
	BuildFails    = []string{"pending", "building", "retrying", "building", "retrying", "building"}
)

type Trigger struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// Dependency is an npm package the action needs.
//
// Assumption (reference §2 lists the keys only): name and version are
// required, registry_url is optional and absent from answers when not sent.
type Dependency struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	RegistryURL string `json:"registry_url,omitempty"`
}

// ActionSecret is a secret as the API shows it: never its value (reference §2, §7).
type ActionSecret struct {
	Name      string `json:"name"`
	UpdatedAt string `json:"updated_at"`
}

// Secret is a stored secret, value included.
type Secret struct {
	Name      string
	Value     string
	UpdatedAt string
}

// ActionVersion is one deployed version of an action.
type ActionVersion struct {
	ID           string
	Number       int
	Code         string
	Dependencies []Dependency
	Secrets      []ActionSecret
	Runtime      string
	Triggers     []Trigger
	BuiltAt      string
	CreatedAt    string
	UpdatedAt    string
	Deployed     bool
	// SecretValues are the secrets as they were when the version was made:
	// what its code reads in event.secrets.
	SecretValues map[string]string
}

// Build is the latest build of an action's draft. Its status follows
// from the time since Start; settle applies its outcome once it is over.
type Build struct {
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

func (b *Build) Phases() []string {
	if b.Fails || b.installFailed() {
		return BuildFails
	}
	return BuildSucceeds
}

func (b *Build) Length() time.Duration { return time.Duration(len(b.Phases())) * b.Step }

func (b *Build) end() time.Time { return b.afterInstall(b.Start.Add(b.Length())) }

func (b *Build) Status(now time.Time) string {
	phases := b.Phases()
	i := int(now.Sub(b.Start) / b.Step)
	if (b.Done || i >= len(phases)) && !b.installing() {
		if b.Fails || b.installFailed() {
			return "failed"
		}
		return "built"
	}
	return phases[min(max(i, 0), len(phases)-1)]
}

type Action struct {
	ID                 string
	Name               string
	Triggers           []Trigger
	CreatedAt          string
	UpdatedAt          string
	Code               string
	Dependencies       []Dependency
	Runtime            string
	Secrets            []Secret
	Versions           []*ActionVersion // oldest first
	AllChangesDeployed bool
	Build              Build
	Deploying          PendingDeploy
	Seq                int64
}

func (a *Action) Clone() *Action {
	c := *a
	c.Triggers = append([]Trigger{}, a.Triggers...)
	c.Dependencies = append([]Dependency{}, a.Dependencies...)
	c.Secrets = append([]Secret{}, a.Secrets...)
	c.Versions = make([]*ActionVersion, len(a.Versions))
	for i, v := range a.Versions {
		x := *v
		x.Dependencies = append([]Dependency{}, v.Dependencies...)
		x.Secrets = append([]ActionSecret{}, v.Secrets...)
		x.Triggers = append([]Trigger{}, v.Triggers...)
		c.Versions[i] = &x
	}
	return &c
}

func (a *Action) Supports(triggerID string) bool {
	for _, t := range a.Triggers {
		if t.ID == triggerID {
			return true
		}
	}
	return false
}

// Settle applies the outcome of a build that is over by now: a failed build
// leaves the versions as they were (reference §2); a successful one marks
// the draft built and, if asked, deploys it at the moment it was built.
func (a *Action) Settle(now time.Time) {
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
		a.Deploy(b.end(), b.DeployStep, b.DeployID)
	}
}

// StartBuild starts building the draft at start; whether it will fail is
// known from its dependencies and the faults set now.
//
// Assumption (a choice of the emulator): the FailingPackages fault applies
// to the builds started while it is set; a build already under way keeps
// the outcome it started with when the fault changes.
func (s *Tenant) StartBuild(a *Action, start time.Time, deploy bool) {
	fails := !installable(a.Dependencies, s.FailingPackages)
	if n := len(a.Dependencies); n > maxDependencies {
		fails = true
		s.Logf("action %q (%s): %d dependencies, more than the %d an action may have: the build fails", a.Name, a.ID, n, maxDependencies)
	}
	a.Build = Build{Start: start, Step: max(s.BuildDelay/4, time.Nanosecond), Fails: fails, Deploy: deploy, DeployStep: s.DeployStep()}
	if !fails {
		a.Build.Install = s.installDependencies(a)
	}
}

// installable reports whether every dependency would install (see
// wellFormedVersion); failing lists the FailingPackages fault's entries.
func installable(deps []Dependency, failing []string) bool {
	for _, d := range deps {
		if !npmPackageName(d.Name) || !WellFormedVersion(d.Version) || slices.Contains(Unpublished, Dependency{Name: d.Name, Version: d.Version}) {
			return false
		}
		for _, f := range failing {
			name, version, _ := SplitPackage(f)
			if d.Name == name && (version == "" || d.Version == version) {
				return false
			}
		}
	}
	return true
}

// SplitPackage splits a FailingPackages entry, name@version or name, at its
// last "@" that does not begin a scoped name.
//
// Assumption (a choice of the emulator): an entry's version is compared
// with the dependency's version as a string, exactly, with no range
// matching; a bare name matches every version.
func SplitPackage(entry string) (name, version string, err error) {
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

// Current is the newest version, deployed the deployed one; nil before the
// first deploy.
func (a *Action) Current() *ActionVersion {
	if len(a.Versions) == 0 {
		return nil
	}
	return a.Versions[len(a.Versions)-1]
}

func (a *Action) Deployed() *ActionVersion {
	for _, v := range a.Versions {
		if v.Deployed {
			return v
		}
	}
	return nil
}

func SecretValues(list []Secret) map[string]string {
	out := make(map[string]string, len(list))
	for _, s := range list {
		out[s.Name] = s.Value
	}
	return out
}

func SecretViews(list []Secret) []ActionSecret {
	out := make([]ActionSecret, 0, len(list))
	for _, s := range list {
		out = append(out, ActionSecret{Name: s.Name, UpdatedAt: s.UpdatedAt})
	}
	return out
}

// View is the action as the API shows it at now, in the observed key order
// (reference §2); current_version and deployed_version appear once a
// version exists.
func (a *Action) View(now time.Time) wire.Ordered {
	a.Settle(now)
	o := wire.Ordered{
		{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt},
		{"updated_at", a.UpdatedAt}, {"code", a.Code}, {"dependencies", a.Dependencies}, {"runtime", a.Runtime},
		{"status", a.Build.Status(now)}, {"secrets", SecretViews(a.Secrets)},
	}
	if v := a.Current(); v != nil {
		// Assumption (reference §2 lists build_time without its format): a
		// timestamp like built_at.
		o = append(o, wire.Ordered{{"current_version", wire.Ordered{
			{"id", v.ID}, {"code", v.Code}, {"runtime", v.Runtime}, {"status", "BUILT"}, {"number", v.Number},
			{"build_time", v.BuiltAt}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		}}}...)
	}
	if v := a.Deployed(); v != nil {
		o = append(o, wire.Ordered{{"deployed_version", v.View()}}...)
	}
	return append(o, wire.Ordered{{"all_changes_deployed", a.AllChangesDeployed}}...)
}

// View is a version in the key order of deployed_version (reference §2).
func (v *ActionVersion) View() wire.Ordered {
	return wire.Ordered{
		{"code", v.Code}, {"dependencies", v.Dependencies}, {"id", v.ID}, {"deployed", v.Deployed}, {"number", v.Number},
		{"built_at", v.BuiltAt}, {"secrets", v.Secrets}, {"status", "built"}, {"created_at", v.CreatedAt},
		{"updated_at", v.UpdatedAt}, {"runtime", v.Runtime}, {"supported_triggers", v.Triggers},
	}
}

// Summary is the action as a version shows it (reference §2, deploy reply).
func (a *Action) Summary(allChangesDeployed bool) wire.Ordered {
	return wire.Ordered{
		{"id", a.ID}, {"name", a.Name}, {"supported_triggers", a.Triggers}, {"created_at", a.CreatedAt},
		{"updated_at", a.UpdatedAt}, {"all_changes_deployed", allChangesDeployed},
	}
}

// AddAction stores a new action whose first build starts at start. With
// deploy, it is deployed when that build succeeds, not before: right after
// the create it is still pending (reference §2).
func (s *Tenant) AddAction(a *Action, start time.Time, deploy bool) {
	a.ID, a.Seq = wire.UUID4(), s.St.Next()
	a.CreatedAt, a.UpdatedAt = wire.Nanos(start), wire.Nanos(start)
	s.StartBuild(a, start, deploy)
	s.St.Actions[a.ID] = a
}

// DeployAnswer is the answer of a deploy: the version made, still
// deployed:false, and the action summary with all_changes_deployed:false
// (reference §2; the same for a roll-back, TestActionManager_DeployVersion.yaml).
func (a *Action) DeployAnswer(v *ActionVersion) wire.Ordered {
	return wire.Ordered{
		{"code", v.Code}, {"dependencies", v.Dependencies}, {"id", v.ID}, {"deployed", false}, {"number", v.Number},
		{"secrets", v.Secrets}, {"status", "built"}, {"created_at", v.CreatedAt}, {"updated_at", v.UpdatedAt},
		{"runtime", v.Runtime}, {"supported_triggers", v.Triggers}, {"action", a.Summary(false)},
	}
}

// DraftIs reports whether the draft is what version v holds.
func (a *Action) DraftIs(v *ActionVersion) bool {
	names := func(list []ActionSecret) []string {
		out := make([]string, 0, len(list))
		for _, s := range list {
			out = append(out, s.Name)
		}
		return out
	}
	return a.Code == v.Code && a.Runtime == v.Runtime && slices.Equal(a.Dependencies, v.Dependencies) &&
		slices.Equal(a.Triggers, v.Triggers) && slices.Equal(names(SecretViews(a.Secrets)), names(v.Secrets))
}

func (a *Action) VersionView(v *ActionVersion) wire.Ordered {
	return append(v.View(), wire.Ordered{{"action", a.Summary(a.AllChangesDeployed)}}...)
}

// TriggerIDs are the trigger ids an action may support.
//
// Assumption (reference §2 names only custom-token-exchange): the platform's
// documented triggers post-login, credentials-exchange,
// pre-user-registration, post-user-registration, post-change-password,
// send-phone-message and password-reset-post-challenge are accepted too; any
// other id is refused as an enum mismatch. A trigger's version is any
// non-empty string.
var TriggerIDs = []string{
	"post-login", "credentials-exchange", "pre-user-registration", "post-user-registration",
	"post-change-password", "send-phone-message", "password-reset-post-challenge", "custom-token-exchange",
}
