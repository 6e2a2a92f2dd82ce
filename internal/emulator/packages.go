package emulator

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
// by the set's hash, and every version with the same set shares it.
//
// Without npm, or without the registry, a build behaves as it does without
// them (see installable): the emulator cannot tell that a package does not
// exist, and an exchange that needs the packages says what is missing.

// installOutcome is how an npm install ended.
type installOutcome int

const (
	// installOK: the packages are in the set's folder.
	installOK installOutcome = iota
	// installMissing: npm says a dependency does not exist (no such
	// package, no such version, a name or tag it refuses): the build fails.
	installMissing
	// installUnavailable: npm, or the registry, could not be reached; the
	// build goes on as if it had not run.
	installUnavailable
)

// npmInstall is one install of a dependency set, shared by every build that
// needs the same set while it runs, and remembered once it is over.
type npmInstall struct {
	key  string
	dir  string // the set's folder; node_modules is in it once installed
	done chan struct{}
	// Set before done is closed.
	outcome installOutcome
	detail  string
	at      time.Time
	// logs are the logs of the emulators waiting for it (under the
	// installer's lock).
	logs []func(format string, args ...any)
}

// finished reports whether the install is over, and how it ended.
func (i *npmInstall) finished() (over bool, outcome installOutcome, at time.Time) {
	select {
	case <-i.done:
		return true, i.outcome, i.at
	default:
		return false, 0, time.Time{}
	}
}

// wait blocks until the install is over or ctx ends.
func (i *npmInstall) wait(ctx context.Context) error {
	select {
	case <-i.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// packageInstaller installs dependency sets into one package cache. The
// emulators of one process that share a cache share its installer, so that
// a set is installed once even when several emulators build it at once.
type packageInstaller struct {
	npm      string // npm's path; "" when it was not found
	missing  string // why npm cannot be used, when npm is ""
	registry string
	dir      string

	mu       sync.Mutex
	installs map[string]*npmInstall // by key
}

var (
	installersMu sync.Mutex
	installers   = map[string]*packageInstaller{}
)

// installerFor returns the installer of a package cache (default: the
// user's cache folder), made on first use. npm is the path or name of the
// npm program ("" for "npm" on PATH). An installer that cannot install says
// why in its missing field.
func installerFor(cache, npm, registry string) *packageInstaller {
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cache = filepath.Join(base, "tenant-emulator", "packages")
	}
	if abs, err := filepath.Abs(cache); err == nil {
		cache = abs
	}
	if npm == "" {
		npm = "npm"
	}
	key := cache + "\x00" + npm + "\x00" + registry
	installersMu.Lock()
	defer installersMu.Unlock()
	if in, ok := installers[key]; ok {
		return in
	}
	in := &packageInstaller{registry: registry, dir: cache, installs: map[string]*npmInstall{}}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		in.missing = fmt.Sprintf("the package cache %s cannot be made (%v); name another with --package-cache", cache, err)
	} else if path, err := exec.LookPath(npm); err != nil {
		in.missing = fmt.Sprintf("npm was not found (%q: %v); install Node.js with npm, or name npm with --npm", npm, err)
	} else {
		in.npm = path
	}
	installers[key] = in
	return in
}

// setKey names a dependency set: the same packages at the same versions
// from the same registries are one set, in whatever order they were given.
func setKey(deps []dependency, registry string) string {
	sorted := slices.Clone(deps)
	slices.SortFunc(sorted, func(a, b dependency) int { return strings.Compare(a.Name, b.Name) })
	b, _ := json.Marshal(struct {
		Deps     []dependency `json:"deps"`
		Registry string       `json:"registry"`
	}{sorted, registry})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// install starts installing deps, or joins the install of the same set that
// is under way, or returns the one that is over; logf hears how an install
// it started or joined ends. Nil deps install nothing (nil).
func (in *packageInstaller) install(deps []dependency, logf func(string, ...any)) *npmInstall {
	if len(deps) == 0 {
		return nil
	}
	key := setKey(deps, in.registry)
	in.mu.Lock()
	defer in.mu.Unlock()
	if i, ok := in.installs[key]; ok {
		// An install that could not reach npm or the registry is tried
		// again by the next build that needs the set.
		if over, outcome, _ := i.finished(); !over || outcome != installUnavailable {
			if !over {
				i.logs = append(i.logs, logf)
			}
			return i
		}
	}
	i := &npmInstall{key: key, dir: filepath.Join(in.dir, key), done: make(chan struct{}), logs: []func(string, ...any){logf}}
	in.installs[key] = i
	if _, err := os.Stat(filepath.Join(i.dir, "node_modules")); err == nil {
		i.outcome, i.at = installOK, time.Now()
		close(i.done)
		return i
	}
	if in.npm == "" {
		i.outcome, i.detail, i.at = installUnavailable, in.missing, time.Now()
		close(i.done)
		return i
	}
	go in.run(i, slices.Clone(deps))
	return i
}

// installTimeout bounds one npm install.
const installTimeout = 5 * time.Minute

// run installs the set into a folder of its own and renames it into place,
// so that a set's folder is either complete or absent, whoever else
// installs the same set at the same time.
func (in *packageInstaller) run(i *npmInstall, deps []dependency) {
	defer close(i.done)
	started := time.Now()
	outcome, detail := in.npmInstall(i.dir, deps)
	i.outcome, i.detail, i.at = outcome, detail, time.Now()
	in.mu.Lock()
	logs := i.logs
	in.mu.Unlock()
	for _, logf := range logs {
		switch outcome {
		case installOK:
			logf("npm: installed %s in %v", describeDeps(deps), time.Since(started).Round(time.Millisecond))
		case installMissing:
			logf("npm: %s cannot be installed, so the build fails: %s", describeDeps(deps), detail)
		default:
			logf("npm: %s not installed, npm or the registry is not available: %s", describeDeps(deps), detail)
		}
	}
}

func (in *packageInstaller) npmInstall(dir string, deps []dependency) (installOutcome, string) {
	tmp, err := os.MkdirTemp(in.dir, ".install-")
	if err != nil {
		return installUnavailable, err.Error()
	}
	defer os.RemoveAll(tmp)
	pkg := map[string]any{"name": "tenant-action", "version": "1.0.0", "private": true, "dependencies": map[string]string{}}
	for _, d := range deps {
		pkg["dependencies"].(map[string]string)[d.Name] = d.Version
	}
	b, _ := json.MarshalIndent(pkg, "", "  ")
	npmrc, e := npmrcFor(deps, in.registry)
	if e != "" {
		return installMissing, e
	}
	if err := errors.Join(os.WriteFile(filepath.Join(tmp, "package.json"), b, 0o644),
		os.WriteFile(filepath.Join(tmp, ".npmrc"), []byte(npmrc), 0o644)); err != nil {
		return installUnavailable, err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	// No install scripts: a dependency's own scripts would run with the
	// emulator's environment. Few retries, so that a registry that cannot
	// be reached is known in seconds.
	cmd := exec.CommandContext(ctx, in.npm, "install", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts",
		"--omit=dev", "--no-update-notifier", "--loglevel=error",
		"--fetch-retries=1", "--fetch-retry-mintimeout=2000", "--fetch-retry-maxtimeout=5000")
	cmd.Dir = tmp
	cmd.Env = npmEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return installUnavailable, fmt.Sprintf("npm install did not end within %v", installTimeout)
		}
		return classifyNpmFailure(out, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "node_modules")); statErr != nil {
			return installUnavailable, err.Error()
		}
		// Another emulator installed the same set first.
	}
	return installOK, ""
}

// npmrcFor writes the registries the dependencies name: registry_url of a
// scoped package is its scope's registry; that of an unscoped one is the
// registry of every unscoped package.
//
// Assumption (reference §2 lists registry_url without its meaning): two
// unscoped dependencies that name different registries cannot be
// installed together, and fail the build.
func npmrcFor(deps []dependency, registry string) (string, string) {
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
func classifyNpmFailure(out []byte, err error) (installOutcome, string) {
	m := npmErrorCode.FindSubmatch(out)
	if m == nil {
		return installUnavailable, "npm install failed (" + err.Error() + "): " + firstNpmLines(out)
	}
	detail := "npm error " + string(m[1]) + ": " + firstNpmLines(out)
	if slices.Contains(unreachable, string(m[1])) {
		return installUnavailable, detail
	}
	return installMissing, detail
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

func describeDeps(deps []dependency) string {
	parts := make([]string, 0, len(deps))
	for _, d := range deps {
		parts = append(parts, d.Name+"@"+d.Version)
	}
	return strings.Join(parts, ", ")
}

// The build hooks: a build whose dependencies npm installs is not over
// before the install is, and fails when npm says a dependency does not
// exist. An install that could not reach npm or the registry leaves the
// build as it would be without npm.

// installing reports whether the build's npm install still runs.
func (b *actionBuild) installing() bool {
	if b.Install == nil {
		return false
	}
	over, _, _ := b.Install.finished()
	return !over
}

// installFailed reports whether npm found a dependency that does not exist.
func (b *actionBuild) installFailed() bool {
	if b.Install == nil {
		return false
	}
	over, outcome, _ := b.Install.finished()
	return over && outcome == installMissing
}

// afterInstall moves the end of a build past the end of its install.
func (b *actionBuild) afterInstall(end time.Time) time.Time {
	if b.Install == nil {
		return end
	}
	if over, _, at := b.Install.finished(); over && at.After(end) {
		return at
	}
	return end
}

// installDependencies starts the npm install of a draft's dependencies when
// its build starts.
func (s *Server) installDependencies(a *action) *npmInstall {
	return s.packages.install(a.Dependencies, s.logLine)
}
