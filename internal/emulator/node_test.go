package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a log that tests read while workers write it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuffer) printf(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }

// requireNode skips a test that runs actions' code where this machine has
// no Node.js (the emulator then answers that it is missing, which
// TestExchange_withoutNode covers).
func requireNode(t testing.TB) *nodeRuntime {
	t.Helper()
	rt := newNodeRuntime("", 5*time.Second, func(string, ...any) {})
	rt.prepare()
	if rt.node == "" {
		t.Skipf("these tests run actions' code: %s", rt.missing)
	}
	t.Cleanup(func() { rt.close() })
	return rt
}

func newTestRuntime(t *testing.T, timeout time.Duration) (*nodeRuntime, *syncBuffer) {
	t.Helper()
	requireNode(t)
	log := &syncBuffer{}
	rt := newNodeRuntime("", timeout, log.printf)
	t.Cleanup(func() { rt.close() })
	return rt, log
}

func version(id, code string) versionCode {
	return versionCode{ActionID: "act-" + id, ActionName: "test " + id, VersionID: id, Number: 1, Code: code}
}

func TestNodeRuntime_callsAndEvent(t *testing.T) {
	rt, log := newTestRuntime(t, 5*time.Second)
	code := `exports.onExecuteCustomTokenExchange = async (event, api) => {
  console.log("token type", event.transaction.subject_token_type);
  api.user.setAppMetadata("plan", { tier: "gold" });
  api.authentication.setUserById("auth0|" + event.transaction.subject_token);
};`
	x, err := rt.run(version("v1", code), map[string]any{"transaction": map[string]any{"subject_token": "u1", "subject_token_type": "urn:t"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(x.Calls)
	if want := `[{"call":"user.setAppMetadata","args":["plan",{"tier":"gold"}]},{"call":"authentication.setUserById","args":["auth0|u1"]}]`; string(got) != want {
		t.Fatalf("calls %s, want %s", got, want)
	}
	waitFor(t, func() bool {
		return strings.Contains(log.String(), `action "test v1" (act-v1) version 1: token type urn:t`)
	}, "console output in the log")
}

// The worker stays warm: the second execution reuses the process, and a
// new version gets a new one.
func TestNodeRuntime_warmWorkerPerVersion(t *testing.T) {
	rt, _ := newTestRuntime(t, 5*time.Second)
	code := `let n = 0; exports.onExecuteCustomTokenExchange = async (event, api) => { n++; api.authentication.setUserById(String(n) + ":" + process.pid); };`
	run := func(v versionCode) string {
		x, err := rt.run(v, map[string]any{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var id string
		_ = json.Unmarshal(x.Calls[0].Args[0], &id)
		return id
	}
	first, second := run(version("v1", code)), run(version("v1", code))
	pid := strings.Split(first, ":")[1]
	if first != "1:"+pid || second != "2:"+pid {
		t.Fatalf("executions %q then %q: want the same process, counting", first, second)
	}
	v2 := version("v2", code)
	v2.ActionID = "act-v1" // the same action, deployed again
	if third := run(v2); third == "3:"+pid || !strings.HasPrefix(third, "1:") {
		t.Fatalf("after a new deploy %q: want a new worker", third)
	}
}

// The action gets nothing of the emulator's: no environment, no file but
// its own, no child process.
func TestNodeRuntime_sandbox(t *testing.T) {
	rt, _ := newTestRuntime(t, 5*time.Second)
	t.Setenv("TENANT_CLIENT_SECRET", "emulator-secret-must-not-leak")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("private"), 0o600); err != nil {
		t.Fatal(err)
	}
	code := fmt.Sprintf(`const fs = require("fs");
exports.onExecuteCustomTokenExchange = async (event, api) => {
  const report = { env: Object.keys(process.env).length, cwd: process.cwd() };
  try { report.file = fs.readFileSync(%q, "utf8"); } catch (e) { report.file = e.code; }
  try { report.environ = fs.readFileSync("/proc/" + process.ppid + "/environ", "utf8").length; } catch (e) { report.environ = e.code; }
  try { require("child_process").execSync("true"); report.child = "ran"; } catch (e) { report.child = e.code; }
  api.authentication.setUserById(JSON.stringify(report));
};`, outside)
	x, err := rt.run(version("sandbox", code), map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	_ = json.Unmarshal(x.Calls[0].Args[0], &raw)
	var report struct {
		Env     int    `json:"env"`
		Cwd     string `json:"cwd"`
		File    string `json:"file"`
		Environ any    `json:"environ"`
		Child   string `json:"child"`
	}
	if err := json.Unmarshal([]byte(raw), &report); err != nil {
		t.Fatal(raw, err)
	}
	if report.Env != 0 || report.File != "ERR_ACCESS_DENIED" || report.Environ != "ERR_ACCESS_DENIED" || report.Child != "ERR_ACCESS_DENIED" {
		t.Fatalf("the action reached the emulator's things: %s", raw)
	}
	if filepath.Base(report.Cwd) != "sandbox" || !strings.HasPrefix(report.Cwd, rt.dir) {
		t.Fatalf("working directory %s, want the version's own folder under %s", report.Cwd, rt.dir)
	}
}

func TestNodeRuntime_failures(t *testing.T) {
	rt, log := newTestRuntime(t, 700*time.Millisecond)
	for _, tc := range []struct {
		name, code, kind string
	}{
		{"thrown", `exports.onExecuteCustomTokenExchange = async () => { throw new Error("boom"); };`, "thrown"},
		{"rejected api call", `exports.onExecuteCustomTokenExchange = async (e, api) => { api.authentication.setUserById(42); };`, "thrown"},
		{"timeout", `exports.onExecuteCustomTokenExchange = () => new Promise(() => setInterval(() => {}, 1000));`, "timeout"},
		{"crash", `exports.onExecuteCustomTokenExchange = async () => { setTimeout(() => { throw new Error("late"); }, 1); await new Promise(r => setTimeout(r, 200)); };`, "crash"},
		{"exit", `exports.onExecuteCustomTokenExchange = async () => { process.exit(3); };`, "crash"},
		{"syntax", `exports.onExecuteCustomTokenExchange = async ( => {};`, "load"},
		{"no handler", `exports.somethingElse = 1;`, "load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := version(strings.ReplaceAll(tc.name, " ", "-"), tc.code)
			x, err := rt.run(v, map[string]any{}, nil)
			kind := ""
			var re *runError
			switch {
			case errors.As(err, &re):
				kind = re.kind
			case err == nil && x.Error != nil:
				kind = x.Error.Kind
			}
			if kind != tc.kind {
				t.Fatalf("got %v / %+v, want %s", err, x, tc.kind)
			}
			// The next execution works again (a new worker where the old one ended).
			if tc.kind == "timeout" || tc.kind == "crash" {
				ok := version(v.VersionID, `exports.onExecuteCustomTokenExchange = async (e, api) => { api.authentication.setUserById("x"); };`)
				ok.VersionID += "-fixed"
				ok.ActionID = v.ActionID
				if x, err := rt.run(ok, map[string]any{}, nil); err != nil || len(x.Calls) != 1 {
					t.Fatalf("after a %s: %v %+v", tc.kind, err, x)
				}
			}
		})
	}
	_ = log
}

func TestNodeRuntime_cache(t *testing.T) {
	rt, _ := newTestRuntime(t, 5*time.Second)
	code := `exports.onExecuteCustomTokenExchange = async (event, api) => {
  const seen = api.cache.get("k");
  const big = api.cache.set("big", "x".repeat(5000));
  const set = api.cache.set("k", "v2", { ttl: 60000 });
  api.cache.delete("gone");
  api.authentication.setUserById(JSON.stringify({ seen: seen && seen.value, big: big.type + "/" + big.code, set: set.type }));
};`
	now := time.Now().UnixMilli()
	x, err := rt.run(version("cache", code), map[string]any{}, map[string]cacheRecord{"k": {Value: "v1", ExpiresAt: now + 60000}})
	if err != nil {
		t.Fatal(err)
	}
	var report string
	_ = json.Unmarshal(x.Calls[0].Args[0], &report)
	if report != `{"seen":"v1","big":"error/VALUE_TOO_LARGE","set":"success"}` {
		t.Fatalf("cache answers %s", report)
	}
	if len(x.Cache) != 2 || x.Cache[0].Op != "set" || x.Cache[0].Key != "k" || x.Cache[1].Op != "delete" ||
		x.Cache[0].ExpiresAt < now+59000 || x.Cache[0].ExpiresAt > now+70000 {
		t.Fatalf("cache writes %+v", x.Cache)
	}
}

func TestNodeRuntime_missingNode(t *testing.T) {
	rt := newNodeRuntime(filepath.Join(t.TempDir(), "no-node-here"), time.Second, func(string, ...any) {})
	defer rt.close()
	_, err := rt.run(version("v", "x"), nil, nil)
	var re *runError
	if !errors.As(err, &re) || re.kind != "unavailable" || !strings.Contains(re.message, "Node.js was not found") || !strings.Contains(re.message, "--node") {
		t.Fatalf("got %v", err)
	}
}

// waitFor waits until cond holds; its minute only ends a test whose
// condition never comes, however loaded the machine.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// workerOf is the process of the action's warm worker, nil when none runs.
func workerOf(s *Server, actionID string) *worker {
	s.runtime.mu.Lock()
	defer s.runtime.mu.Unlock()
	for _, w := range s.runtime.workers {
		if w.code.ActionID == actionID {
			return w
		}
	}
	return nil
}

// processGone waits until the worker's process has ended and been reaped,
// then checks that no process has its PID any more.
func processGone(t *testing.T, w *worker) {
	t.Helper()
	select {
	case <-w.exited:
	case <-time.After(10 * time.Second): // only so that a failing test ends
		t.Fatalf("the worker's process %d has not ended", w.cmd.Process.Pid)
	}
	if err := syscall.Kill(w.cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the worker's process %d is still there: %v", w.cmd.Process.Pid, err)
	}
}

// A worker does not outlive what it runs: deleting the action stops it, and
// so does a deploy that makes another version the deployed one, before
// any exchange runs the new one.
func TestNodeRuntime_workersStopWithTheirVersion(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	if status, out := x.exchange("w1"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	first := workerOf(x.s, x.actionID)
	if first == nil || syscall.Kill(first.cmd.Process.Pid, 0) != nil {
		t.Fatal("no worker runs after an exchange")
	}
	x.expect(x.call(x.tok, "POST", actionsPath+"/"+x.actionID+"/deploy", nil), 200)
	x.pollFor(x.tok, x.actionID, time.Minute, func(r reply) bool {
		d, _ := r.json(t)["deployed_version"].(map[string]any)
		return d["number"] == 2.0
	})
	processGone(t, first)
	if w := workerOf(x.s, x.actionID); w != nil {
		t.Fatalf("a worker of version %d runs before any exchange asked for it", w.code.Number)
	}

	if status, out := x.exchange("w2"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	second := workerOf(x.s, x.actionID)
	if second == nil || second.code.Number != 2 {
		t.Fatalf("the exchange after the deploy ran in %+v", second)
	}
	x.expect(x.call(x.tok, "DELETE", actionsPath+"/"+x.actionID+"?force=true", nil), 204)
	processGone(t, second)
	if w := workerOf(x.s, x.actionID); w != nil {
		t.Fatal("the deleted action's worker is still listed")
	}
}
