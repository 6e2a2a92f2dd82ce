package actionruntime

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// An action's dependencies are installed for real, with npm, when a version
// is built: a dependency that does not exist fails the build (reference
// §2: crypto@17.7.1, never published, went pending, building, retrying,
// failed, and the previous version stayed). Each set of dependencies is
// installed once, into a folder of its own under the package cache named
// by the set's hash, and every version with the same set shares it, also
// across emulators.
//
// Without npm, or without the registry, a build behaves as it does without
// them: the emulator cannot tell that a package does not exist, and an
// exchange that needs the packages says what is missing.

// Dependency is an npm package an action needs.
type Dependency struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	RegistryURL string `json:"registry_url,omitempty"`
}

// Outcome is how an npm install ended.
type Outcome int

const (
	// Installed: the packages are in the set's folder.
	Installed Outcome = iota
	// Missing: npm says a dependency does not exist (no such package, no
	// such version, a name or tag it refuses): the build fails.
	Missing
	// NotInstalled: npm, or the registry, could not be reached, or the
	// install did not end within its limit; the build goes on as if npm
	// had not run.
	NotInstalled
)

// The defaults of InstallerOptions.
const (
	// DefaultInstallTimeout bounds one npm install.
	DefaultInstallTimeout = 5 * time.Minute
	// DefaultInstalls bounds the npm installs that run at once; the others
	// wait for one to end.
	DefaultInstalls = 2
)

// InstallerOptions configure an Installer; zero values take the defaults.
type InstallerOptions struct {
	// Cache is where installed sets are kept, one folder each (default:
	// the user's cache folder, tenant-emulator/packages).
	Cache string
	// Npm is the npm program ("npm" on PATH when empty), and Registry the
	// registry it installs from (npm's own setting when empty).
	Npm      string
	Registry string
	// Timeout bounds one install; Installs bounds the installs at once.
	Timeout  time.Duration
	Installs int
}

// Installer installs dependency sets into a package cache for one
// emulator: its installs end, with what they started, when it is closed.
type Installer struct {
	npm      string // npm's path; "" when it was not found
	missing  string // why npm cannot be used, when npm is ""
	registry string
	dir      string
	timeout  time.Duration
	slots    chan struct{} // one per install that runs

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	installs map[string]*Install // by set key
}

// NewInstaller returns the installer of a package cache. One that cannot
// install says why in every Install it makes.
func NewInstaller(o InstallerOptions) *Installer {
	if o.Cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		o.Cache = filepath.Join(base, "tenant-emulator", "packages")
	}
	if abs, err := filepath.Abs(o.Cache); err == nil {
		o.Cache = abs
	}
	if o.Npm == "" {
		o.Npm = "npm"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultInstallTimeout
	}
	if o.Installs <= 0 {
		o.Installs = DefaultInstalls
	}
	in := &Installer{registry: o.Registry, dir: o.Cache, timeout: o.Timeout, slots: make(chan struct{}, o.Installs), installs: map[string]*Install{}}
	in.ctx, in.cancel = context.WithCancel(context.Background())
	if err := os.MkdirAll(o.Cache, 0o755); err != nil {
		in.missing = fmt.Sprintf("the package cache %s cannot be made (%v); name another with --package-cache", o.Cache, err)
	} else if path, err := exec.LookPath(o.Npm); err != nil {
		in.missing = fmt.Sprintf("npm was not found (%q: %v); install Node.js with npm, or name npm with --npm", o.Npm, err)
	} else {
		in.npm = path
	}
	return in
}

// Close ends the installs under way, with the processes they started, and
// waits until they have.
func (in *Installer) Close() {
	in.cancel()
	in.wg.Wait()
}

// Install is one install of a dependency set, shared by every build that
// needs the same set while it runs, and remembered once it is over.
type Install struct {
	key  string
	Dir  string // the set's folder; node_modules is in it once installed
	done chan struct{}
	// Set before done is closed.
	outcome Outcome
	detail  string
	at      time.Time
	// logs hear how the install ends (under the installer's lock).
	logs []func(format string, args ...any)
}

// Finished reports whether the install is over, how it ended and when.
func (i *Install) Finished() (over bool, outcome Outcome, at time.Time) {
	select {
	case <-i.done:
		return true, i.outcome, i.at
	default:
		return false, 0, time.Time{}
	}
}

// Wait blocks until the install is over or ctx ends, and says how it ended
// and npm's words.
func (i *Install) Wait(ctx context.Context) (Outcome, string, error) {
	select {
	case <-i.done:
		return i.outcome, i.detail, nil
	case <-ctx.Done():
		return 0, "", ctx.Err()
	}
}

// SetKey names a dependency set: the same packages at the same versions
// from the same registries are one set, in whatever order they were given.
func SetKey(deps []Dependency, registry string) string {
	sorted := slices.Clone(deps)
	slices.SortFunc(sorted, func(a, b Dependency) int { return strings.Compare(a.Name, b.Name) })
	b, _ := json.Marshal(struct {
		Deps     []Dependency `json:"deps"`
		Registry string       `json:"registry"`
	}{sorted, registry})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// Install starts installing deps, or joins the install of the same set that
// is under way, or returns the one that is over; logf hears how an install
// it started or joined ends. No deps install nothing (nil).
func (in *Installer) Install(deps []Dependency, logf func(string, ...any)) *Install {
	if len(deps) == 0 {
		return nil
	}
	key := SetKey(deps, in.registry)
	in.mu.Lock()
	defer in.mu.Unlock()
	if i, ok := in.installs[key]; ok {
		// An install that could not reach npm or the registry is tried
		// again by the next build that needs the set.
		if over, outcome, _ := i.Finished(); !over || outcome != NotInstalled {
			if !over {
				i.logs = append(i.logs, logf)
			}
			return i
		}
	}
	i := &Install{key: key, Dir: filepath.Join(in.dir, key), done: make(chan struct{}), logs: []func(string, ...any){logf}}
	in.installs[key] = i
	if _, err := os.Stat(filepath.Join(i.Dir, "node_modules")); err == nil {
		i.outcome, i.at = Installed, time.Now()
		close(i.done)
		return i
	}
	if in.npm == "" {
		i.outcome, i.detail, i.at = NotInstalled, in.missing, time.Now()
		close(i.done)
		return i
	}
	if in.ctx.Err() != nil {
		i.outcome, i.detail, i.at = NotInstalled, "the emulator is stopping", time.Now()
		close(i.done)
		return i
	}
	in.wg.Add(1)
	go in.run(i, slices.Clone(deps))
	return i
}

// run installs the set, once a slot is free, and tells the logs how it ended.
func (in *Installer) run(i *Install, deps []Dependency) {
	defer in.wg.Done()
	defer close(i.done)
	started := time.Now()
	outcome, detail := NotInstalled, "the emulator stopped before npm ran"
	select {
	case in.slots <- struct{}{}:
		outcome, detail = in.npmInstall(i.Dir, deps)
		<-in.slots
	case <-in.ctx.Done():
	}
	i.outcome, i.detail, i.at = outcome, detail, time.Now()
	in.mu.Lock()
	logs := i.logs
	in.mu.Unlock()
	for _, logf := range logs {
		switch outcome {
		case Installed:
			logf("npm: installed %s in %v", DescribeDeps(deps), time.Since(started).Round(time.Millisecond))
		case Missing:
			logf("npm: %s cannot be installed, so the build fails: %s", DescribeDeps(deps), detail)
		default:
			logf("npm: %s not installed: %s", DescribeDeps(deps), detail)
		}
	}
}

// npmInstall installs the set into a folder of its own and renames it into
// place, so that a set's folder is either complete or absent, whoever else
// installs the same set at the same time. npm runs in a process group of
// its own, which ends with the install's limit or the installer.
func (in *Installer) npmInstall(dir string, deps []Dependency) (Outcome, string) {
	tmp, err := os.MkdirTemp(in.dir, ".install-")
	if err != nil {
		return NotInstalled, err.Error()
	}
	defer os.RemoveAll(tmp)
	pkg := map[string]any{"name": "tenant-action", "version": "1.0.0", "private": true, "dependencies": map[string]string{}}
	for _, d := range deps {
		pkg["dependencies"].(map[string]string)[d.Name] = d.Version
	}
	b, _ := json.MarshalIndent(pkg, "", "  ")
	npmrc, e := npmrcFor(deps, in.registry)
	if e != "" {
		return Missing, e
	}
	if err := errors.Join(os.WriteFile(filepath.Join(tmp, "package.json"), b, 0o644),
		os.WriteFile(filepath.Join(tmp, ".npmrc"), []byte(npmrc), 0o644)); err != nil {
		return NotInstalled, err.Error()
	}
	ctx, cancel := context.WithTimeout(in.ctx, in.timeout)
	defer cancel()
	// No install scripts: a dependency's own scripts would run with the
	// emulator's environment. Few retries, so that a registry that cannot
	// be reached is known in seconds.
	cmd := exec.CommandContext(ctx, in.npm, "install", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts",
		"--omit=dev", "--no-update-notifier", "--loglevel=error",
		"--fetch-retries=1", "--fetch-retry-mintimeout=2000", "--fetch-retry-maxtimeout=5000")
	cmd.Dir = tmp
	cmd.Env = npmEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	newProcessGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	// Once the group is killed, a process that escaped it and still holds
	// npm's output is not waited for.
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	killGroup(cmd) // whatever npm left running in its group
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState.Success() {
		err = nil // npm succeeded; what it left holding its output is ended
	}
	if err != nil {
		switch {
		case in.ctx.Err() != nil:
			return NotInstalled, "the emulator stopped during npm install"
		case ctx.Err() != nil:
			return NotInstalled, fmt.Sprintf("npm install did not end within %v", in.timeout)
		}
		return classifyNpmFailure(out.Bytes(), err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "node_modules")); statErr != nil {
			return NotInstalled, err.Error()
		}
		// Another emulator installed the same set first.
	}
	return Installed, ""
}

// npmrcFor writes the registries the dependencies name: registry_url of a
// scoped package is its scope's registry; that of an unscoped one is the
// registry of every unscoped package.
//
// Assumption (reference §2 lists registry_url without its meaning): two
// unscoped dependencies that name different registries cannot be
// installed together, and fail the build.
func npmrcFor(deps []Dependency, registry string) (string, string) {
	var b strings.Builder
	unscoped := registry
	named := ""
	for _, d := range deps {
		if d.RegistryURL == "" {
			continue
		}
		if scope, _, ok := strings.Cut(d.Name, "/"); ok && strings.HasPrefix(scope, "@") {
			fmt.Fprintf(&b, "%s:registry=%s\n", scope, d.RegistryURL)
			continue
		}
		if named != "" && named != d.RegistryURL {
			return "", fmt.Sprintf("dependencies name two registries, %s and %s", named, d.RegistryURL)
		}
		named, unscoped = d.RegistryURL, d.RegistryURL
	}
	if unscoped != "" {
		fmt.Fprintf(&b, "registry=%s\n", unscoped)
	}
	return b.String(), ""
}

// npmEnv is what npm needs of the emulator's environment to reach the
// registry (its path, home and proxy settings, npm's own settings) and no
// more: not the credentials a test or CI job holds.
func npmEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		switch {
		case upper == "PATH", upper == "HOME", upper == "USERPROFILE", upper == "APPDATA", upper == "SYSTEMROOT",
			upper == "TMPDIR", upper == "TEMP", upper == "TMP",
			upper == "HTTP_PROXY", upper == "HTTPS_PROXY", upper == "NO_PROXY",
			upper == "SSL_CERT_FILE", upper == "NODE_EXTRA_CA_CERTS",
			strings.HasPrefix(upper, "NPM_CONFIG_"):
			env = append(env, kv)
		}
	}
	return env
}

// npmErrorCode finds npm's error code ("npm error code E404", or "npm ERR!
// code E404" before npm 10).
var npmErrorCode = regexp.MustCompile(`(?m)^npm (?:error|ERR!) code (\S+)`)

// unreachable are npm's codes for a registry it could not reach (or that
// failed), as opposed to one that answered that a package does not exist.
var unreachable = []string{
	"ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH",
	"ERR_SOCKET_TIMEOUT", "EPROXY", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "SELF_SIGNED_CERT_IN_CHAIN",
	"E500", "E502", "E503", "E504", "EINTEGRITY", "ENOSPC", "EACCES", "EPERM",
}

// classifyNpmFailure tells a dependency that does not exist (any answer of
// the registry: E404, ETARGET, a refused name, an access refused) from a
// registry that could not be reached, and keeps npm's code and first words.
func classifyNpmFailure(out []byte, err error) (Outcome, string) {
	m := npmErrorCode.FindSubmatch(out)
	if m == nil {
		return NotInstalled, "npm install failed (" + err.Error() + "): " + firstNpmLines(out)
	}
	detail := "npm error " + string(m[1]) + ": " + firstNpmLines(out)
	if slices.Contains(unreachable, string(m[1])) {
		return NotInstalled, detail
	}
	return Missing, detail
}

// firstNpmLines are npm's first two lines that say what happened: not its
// code, syscall and errno lines, a stack, or where its log is.
func firstNpmLines(out []byte) string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() && len(lines) < 2 {
		l := strings.TrimSpace(sc.Text())
		for _, p := range []string{"npm error", "npm ERR!"} {
			l = strings.TrimSpace(strings.TrimPrefix(l, p))
		}
		if l == "" || strings.HasPrefix(l, "code ") || strings.HasPrefix(l, "syscall ") || strings.HasPrefix(l, "errno ") ||
			strings.HasPrefix(l, "at ") || strings.Contains(l, "A complete log of this run") {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, " ")
}

// DescribeDeps lists dependencies as name@version.
func DescribeDeps(deps []Dependency) string {
	parts := make([]string, 0, len(deps))
	for _, d := range deps {
		parts = append(parts, d.Name+"@"+d.Version)
	}
	return strings.Join(parts, ", ")
}
