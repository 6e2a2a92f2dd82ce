package emulator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// A dependency that does not exist fails the build for real, through the
// observed statuses, and the deployed version stays (reference §2).
func TestActions_buildFailsOnMissingPackage(t *testing.T) {
	emutest.RequireNpm(t)
	h := start(t, Options{BuildDelay: 40 * time.Millisecond, PackageCache: t.TempDir()})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"deps","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"v1","dependencies":[{"name":"left-pad","version":"1.3.0"}],"deploy":true}`)
	h.expect(r, 201)
	id := r.json(t)["id"].(string)
	h.pollFor(tok, id, 60*time.Second, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"v2","dependencies":[{"name":"tenant-emulator-no-such-package-7f3a9c","version":"1.0.0"}]}`), 200, `"status":"pending"`)
	seen := h.pollFor(tok, id, 60*time.Second, statusIs(t, "failed"))
	if !inOrder(seen, tenant.BuildFails) { // polling may miss a short phase, never reorder them
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

const depsAction = `{"name":"deps","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x",` +
	`"dependencies":[{"name":"left-pad","version":"1.3.0"}],"deploy":true}`

// An npm install that does not end within its limit is ended, with what it
// started, and the build goes on as without npm.
func TestActions_installThatHangsIsEnded(t *testing.T) {
	npm := emutest.NewFakeNpm(t)
	log := &emutest.Log{}
	h := start(t, Options{Npm: npm.Path, PackageCache: t.TempDir(), InstallTimeout: 5 * time.Second, BuildDelay: 20 * time.Millisecond, Log: log})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, depsAction)
	h.expect(r, 201)
	pids := npm.PIDs(t)
	seen := h.pollFor(tok, r.json(t)["id"].(string), 60*time.Second, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	if seen[len(seen)-1] != "built" || !strings.Contains(log.String(), "npm install did not end within 5s") {
		t.Fatalf("statuses %v, log %s", seen, log.String())
	}
	for _, pid := range pids {
		if emutest.Running(pid) {
			t.Errorf("process %d of the ended install still runs", pid)
		}
	}
}

// Close ends the npm installs under way, with what they started.
func TestServer_closeEndsInstalls(t *testing.T) {
	npm := emutest.NewFakeNpm(t)
	h := start(t, Options{Npm: npm.Path, PackageCache: t.TempDir(), BuildDelay: 20 * time.Millisecond})
	h.expect(h.call(h.admin(), "POST", actionsPath, depsAction), 201)
	pids := npm.PIDs(t)
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if emutest.Running(pid) {
			t.Errorf("process %d of an install still runs after Close", pid)
		}
	}
}

// A build with more dependencies than the platform's limit fails at once,
// through the failed phases, without running npm.
func TestActions_tooManyDependencies(t *testing.T) {
	npm := emutest.NewFakeNpm(t)
	log := &emutest.Log{}
	h := start(t, Options{Npm: npm.Path, PackageCache: t.TempDir(), BuildDelay: 40 * time.Millisecond, Log: log})
	tok := h.admin()
	deps := make([]string, 11)
	for i := range deps {
		deps[i] = fmt.Sprintf(`{"name":"tenant-emulator-unknown-%d","version":"1.0.0"}`, i)
	}
	r := h.call(tok, "POST", actionsPath, `{"name":"many","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x",`+
		`"dependencies":[`+strings.Join(deps, ",")+`],"deploy":true}`)
	h.expect(r, 201)
	seen := h.pollFor(tok, r.json(t)["id"].(string), 30*time.Second, statusIs(t, "failed"))
	if !inOrder(seen, tenant.BuildFails) {
		t.Fatalf("statuses %v", seen)
	}
	if npm.Ran() {
		t.Fatal("npm ran for a build over the limit")
	}
	if !strings.Contains(log.String(), "11 dependencies, more than the 10 an action may have") {
		t.Fatalf("log %s", log.String())
	}
}
