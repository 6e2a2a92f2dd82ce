package actionruntime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// newRuntime is a runtime with o's settings and a log, closed when the
// test ends; the test is skipped where this machine has no Node.js.
func newRuntime(t *testing.T, o actionruntime.Options) (*actionruntime.Runtime, *emutest.Log) {
	t.Helper()
	log := &emutest.Log{}
	o.Log = log.Printf
	rt := actionruntime.New(o)
	t.Cleanup(func() {
		if err := rt.Close(); err != nil {
			t.Error(err)
		}
	})
	_, err := rt.Run(context.Background(), version("probe", `exports.onExecuteCustomTokenExchange = async () => {};`), nil, nil)
	var re *actionruntime.Error
	if errors.As(err, &re) && re.Kind == actionruntime.Unavailable {
		t.Skipf("these tests run actions' code: %s", re.Message)
	}
	rt.Retire(func(v actionruntime.Version) bool { return v.VersionID == "probe" })
	return rt, log
}

func version(id, code string) actionruntime.Version {
	return actionruntime.Version{ActionID: "act-" + id, ActionName: "test " + id, VersionID: id, Number: 1, Code: code}
}

// handler is code whose handler runs body.
func handler(body string) string {
	return "exports.onExecuteCustomTokenExchange = async (event, api) => {\n" + body + "\n};"
}

// userOf is the argument of the execution's first call, which the tests'
// actions make with what they report.
func userOf(t *testing.T, res *actionruntime.Result) string {
	t.Helper()
	if res == nil || len(res.Calls) == 0 {
		t.Fatalf("no call in %+v", res)
	}
	var s string
	_ = json.Unmarshal(res.Calls[0].Args[0], &s)
	return s
}

func kindOf(err error) actionruntime.Kind {
	var re *actionruntime.Error
	if errors.As(err, &re) {
		return re.Kind
	}
	return ""
}

// eventually polls cond until it holds; for a final state (a process that
// has ended), never for a passing one. The bound only ends a failing test.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// pids are the worker processes of a version.
func pids(rt *actionruntime.Runtime, versionID string) []int {
	var out []int
	for _, p := range rt.Processes() {
		if p.Version.VersionID == versionID {
			out = append(out, p.PID)
		}
	}
	return out
}
