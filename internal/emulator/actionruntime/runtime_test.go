package actionruntime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
)

func TestRun_callsAndEvent(t *testing.T) {
	rt, log := newRuntime(t, actionruntime.Options{})
	code := handler(`console.log("token type", event.transaction.subject_token_type);
  api.user.setAppMetadata("plan", { tier: "gold" });
  api.authentication.setUserById("auth0|" + event.transaction.subject_token);`)
	res, err := rt.Run(context.Background(), version("v1", code), map[string]any{"transaction": map[string]any{"subject_token": "u1", "subject_token_type": "urn:t"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Calls)
	if want := `[{"call":"user.setAppMetadata","args":["plan",{"tier":"gold"}]},{"call":"authentication.setUserById","args":["auth0|u1"]}]`; string(got) != want {
		t.Fatalf("calls %s, want %s", got, want)
	}
	eventually(t, "console output in the log", func() bool {
		return strings.Contains(log.String(), `action "test v1" (act-v1) version 1: token type urn:t`)
	})
}

// A worker stays warm: the next execution reuses its process, and another
// version gets another.
func TestRun_warmWorkerPerVersion(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	code := handler(`globalThis.n = (globalThis.n || 0) + 1; api.authentication.setUserById(String(globalThis.n) + ":" + process.pid);`)
	run := func(v actionruntime.Version) string {
		res, err := rt.Run(context.Background(), v, map[string]any{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return userOf(t, res)
	}
	first, second := run(version("v1", code)), run(version("v1", code))
	pid := strings.Split(first, ":")[1]
	if first != "1:"+pid || second != "2:"+pid {
		t.Fatalf("executions %q then %q: want the same process, counting", first, second)
	}
	v2 := version("v2", code)
	v2.ActionID = "act-v1" // the same action, deployed again
	if third := run(v2); !strings.HasPrefix(third, "1:") || third == "1:"+pid {
		t.Fatalf("another version ran in %q: want a new worker", third)
	}
}

// The action gets nothing of the emulator's: no environment, no file but
// its own, no child process.
func TestRun_sandbox(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
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
	res, err := rt.Run(context.Background(), version("sandbox", code), map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := userOf(t, res)
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
	if filepath.Base(report.Cwd) != "sandbox" || !strings.HasPrefix(report.Cwd, rt.Folder()) {
		t.Fatalf("working directory %s, want the version's own folder under %s", report.Cwd, rt.Folder())
	}
}

// How an execution fails to return. The limit of the one that never ends
// is short; the others have the default, so that a loaded machine starts
// their worker in time.
func TestRun_failures(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	short, _ := newRuntime(t, actionruntime.Options{Timeout: 2 * time.Second})
	for _, tc := range []struct {
		name, code string
		kind       actionruntime.Kind
	}{
		{"thrown", handler(`throw new Error("boom");`), "thrown"},
		{"rejected api call", handler(`api.authentication.setUserById(42);`), "thrown"},
		{"timeout", `exports.onExecuteCustomTokenExchange = () => new Promise(() => setInterval(() => {}, 1000));`, actionruntime.Timeout},
		{"crash", handler(`setTimeout(() => { throw new Error("late"); }, 1); await new Promise(r => setTimeout(r, 200));`), actionruntime.Crash},
		{"exit", handler(`process.exit(3);`), actionruntime.Crash},
		{"syntax", `exports.onExecuteCustomTokenExchange = async ( => {};`, actionruntime.Load},
		{"no handler", `exports.somethingElse = 1;`, actionruntime.Load},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := version(strings.ReplaceAll(tc.name, " ", "-"), tc.code)
			rt := rt
			if tc.kind == actionruntime.Timeout {
				rt = short
			}
			res, err := rt.Run(context.Background(), v, map[string]any{}, nil)
			kind := kindOf(err)
			if err == nil && res.Thrown != nil {
				kind = actionruntime.Kind(res.Thrown.Kind)
			}
			if kind != tc.kind {
				t.Fatalf("got %v / %+v, want %s", err, res, tc.kind)
			}
			if kind == actionruntime.Timeout || kind == actionruntime.Crash {
				eventually(t, "the failed execution's process to end", func() bool { return len(pids(rt, v.VersionID)) == 0 })
			}
		})
	}
}

// An execution that runs out of memory ends its own process only.
func TestRun_outOfMemory(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	v := version("oom", handler(`if (event.grow) { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }
  api.authentication.setUserById("fine");`))
	if _, err := rt.Run(context.Background(), v, map[string]any{"grow": true}, nil); kindOf(err) != actionruntime.Crash {
		t.Fatalf("got %v, want a crash", err)
	}
	if res, err := rt.Run(context.Background(), v, map[string]any{}, nil); err != nil || userOf(t, res) != "fine" {
		t.Fatalf("the next execution: %v %+v", err, res)
	}
}

func TestRun_cache(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	code := handler(`const seen = api.cache.get("k");
  const big = api.cache.set("big", "x".repeat(5000));
  const set = api.cache.set("k", "v2", { ttl: 60000 });
  api.cache.delete("gone");
  api.authentication.setUserById(JSON.stringify({ seen: seen && seen.value, big: big.type + "/" + big.code, set: set.type }));`)
	now := time.Now().UnixMilli()
	res, err := rt.Run(context.Background(), version("cache", code), map[string]any{}, map[string]actionruntime.CacheRecord{"k": {Value: "v1", ExpiresAt: now + 60000}})
	if err != nil {
		t.Fatal(err)
	}
	if report := userOf(t, res); report != `{"seen":"v1","big":"error/VALUE_TOO_LARGE","set":"success"}` {
		t.Fatalf("cache answers %s", report)
	}
	if len(res.Cache) != 2 || res.Cache[0].Op != "set" || res.Cache[0].Key != "k" || res.Cache[1].Op != "delete" ||
		res.Cache[0].ExpiresAt < now+59000 || res.Cache[0].ExpiresAt > now+70000 {
		t.Fatalf("cache writes %+v", res.Cache)
	}
}

func TestRun_missingNode(t *testing.T) {
	rt := actionruntime.New(actionruntime.Options{Node: filepath.Join(t.TempDir(), "no-node-here")})
	defer rt.Close()
	_, err := rt.Run(context.Background(), version("v", "x"), nil, nil)
	if re, ok := err.(*actionruntime.Error); !ok || re.Kind != actionruntime.Unavailable || !strings.Contains(re.Message, "Node.js was not found") || !strings.Contains(re.Message, "--node") {
		t.Fatalf("got %v", err)
	}
}
