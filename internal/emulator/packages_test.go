package emulator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// requireNpm skips a test that installs packages for real where this
// machine has no npm (TestActions_buildWithoutNpm covers that case).
func requireNpm(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skipf("this test installs packages with npm: %v", err)
	}
}

// A published package installs, once per dependency set: the second
// build of the same set finds it in the package cache.
func TestPackages_installOncePerSet(t *testing.T) {
	requireNpm(t)
	in := installerFor(t.TempDir(), "", "")
	log := &emutest.Log{}
	deps := []dependency{{Name: "left-pad", Version: "1.3.0"}}
	i := in.install(deps, log.Printf)
	<-i.done
	if i.outcome != installOK {
		t.Fatalf("install: %d %s", i.outcome, i.detail)
	}
	if _, err := os.Stat(filepath.Join(i.dir, "node_modules", "left-pad", "package.json")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "npm: installed left-pad@1.3.0") {
		t.Fatalf("log %q", log.String())
	}
	// The same set in another order, and a new installer of the same cache
	// (another emulator): no second npm run.
	fresh := &packageInstaller{npm: in.npm, registry: in.registry, dir: in.dir, installs: map[string]*npmInstall{}}
	again := fresh.install([]dependency{{Name: "left-pad", Version: "1.3.0"}}, log.Printf)
	if over, outcome, _ := again.finished(); !over || outcome != installOK || again.dir != i.dir {
		t.Fatalf("the cached set was installed again: over %v, outcome %d, %s vs %s", over, outcome, again.dir, i.dir)
	}
	if other := setKey([]dependency{{Name: "left-pad", Version: "1.3.1"}}, ""); other == i.key {
		t.Fatal("another version is the same set")
	}
}

// npm's answers tell a package that does not exist (the build fails) from
// a registry that cannot be reached (the build goes on as without npm).
func TestPackages_classifyFailures(t *testing.T) {
	requireNpm(t)
	missing := installerFor(t.TempDir(), "", "")
	for _, deps := range [][]dependency{
		{{Name: "tenant-emulator-no-such-package-7f3a9c", Version: "1.0.0"}},
		{{Name: "left-pad", Version: "99.0.0"}},
	} {
		i := missing.install(deps, func(string, ...any) {})
		<-i.done
		if i.outcome != installMissing || i.detail == "" {
			t.Fatalf("%v: outcome %d (%s), want missing", deps, i.outcome, i.detail)
		}
	}
	unreachable := installerFor(t.TempDir(), "", "http://127.0.0.1:1/")
	i := unreachable.install([]dependency{{Name: "left-pad", Version: "1.3.0"}}, func(string, ...any) {})
	<-i.done
	if i.outcome != installUnavailable || !strings.Contains(i.detail, "ECONNREFUSED") {
		t.Fatalf("outcome %d (%s), want unavailable", i.outcome, i.detail)
	}
	noNpm := installerFor(t.TempDir(), filepath.Join(t.TempDir(), "no-npm"), "")
	i = noNpm.install([]dependency{{Name: "left-pad", Version: "1.3.0"}}, func(string, ...any) {})
	if over, outcome, _ := i.finished(); !over || outcome != installUnavailable || !strings.Contains(i.detail, "npm was not found") {
		t.Fatalf("without npm: %v %d %s", over, outcome, i.detail)
	}
}

func TestNpmrcFor(t *testing.T) {
	got, bad := npmrcFor([]dependency{
		{Name: "@acme/sdk", Version: "1.0.0", RegistryURL: "https://npm.acme.example/"},
		{Name: "left-pad", Version: "1.3.0"},
	}, "https://mirror.example/")
	if bad != "" || got != "@acme:registry=https://npm.acme.example/\nregistry=https://mirror.example/\n" {
		t.Fatalf("npmrc %q %q", got, bad)
	}
	if _, bad := npmrcFor([]dependency{
		{Name: "a", Version: "1.0.0", RegistryURL: "https://one.example/"},
		{Name: "b", Version: "1.0.0", RegistryURL: "https://two.example/"},
	}, ""); bad == "" {
		t.Fatal("two registries for unscoped packages were accepted")
	}
}

// A dependency that does not exist fails the build for real, through the
// observed statuses, and the deployed version stays (reference §2).
func TestActions_buildFailsOnMissingPackage(t *testing.T) {
	requireNpm(t)
	h := start(t, Options{BuildDelay: 40 * time.Millisecond, PackageCache: t.TempDir()})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"deps","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"v1","dependencies":[{"name":"left-pad","version":"1.3.0"}],"deploy":true}`)
	h.expect(r, 201)
	id := r.json(t)["id"].(string)
	h.pollFor(tok, id, 60*time.Second, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"v2","dependencies":[{"name":"tenant-emulator-no-such-package-7f3a9c","version":"1.0.0"}]}`), 200, `"status":"pending"`)
	seen := h.pollFor(tok, id, 60*time.Second, statusIs(t, "failed"))
	if !inOrder(seen, buildFails) { // polling may miss a short phase, never reorder them
		t.Fatalf("statuses %v", seen)
	}
	m := h.call(tok, "GET", actionsPath+"/"+id, nil).json(t)
	if dep := m["deployed_version"].(map[string]any); dep["code"] != "v1" || m["all_changes_deployed"] != false {
		t.Fatalf("after the failed build: %v", m)
	}
}

// Without npm, or without the registry, a build behaves as it does without
// them: a well-formed dependency builds, and the exchange says what is
// missing (TestExchange_withoutNpm).
func TestActions_buildWithoutNpm(t *testing.T) {
	for name, o := range map[string]Options{
		"no npm":          {Npm: filepath.Join(t.TempDir(), "no-npm")},
		"no npm registry": {NpmRegistry: "http://127.0.0.1:1/"},
	} {
		t.Run(name, func(t *testing.T) {
			o.BuildDelay, o.PackageCache = 20*time.Millisecond, t.TempDir()
			h := start(t, o)
			tok := h.admin()
			r := h.call(tok, "POST", actionsPath, `{"name":"deps","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x","dependencies":[{"name":"tenant-emulator-no-such-package-7f3a9c","version":"1.0.0"}],"deploy":true}`)
			h.expect(r, 201)
			seen := h.pollFor(tok, r.json(t)["id"].(string), 30*time.Second, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
			if seen[len(seen)-1] != "built" {
				t.Fatalf("statuses %v", seen)
			}
		})
	}
}

// pollFor is poll with a longer budget, for builds that run npm.
func (h *harness) pollFor(tok, id string, budget time.Duration, done func(reply) bool) []string {
	h.t.Helper()
	var seen []string
	for deadline := time.Now().Add(budget); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		r := h.call(tok, "GET", "/api/v2/actions/actions/"+id, nil)
		h.expect(r, 200)
		if st, _ := r.json(h.t)["status"].(string); len(seen) == 0 || seen[len(seen)-1] != st {
			seen = append(seen, st)
		}
		if done(r) {
			return seen
		}
	}
	h.t.Fatalf("action %s: gave up polling after %v", id, seen)
	return nil
}
