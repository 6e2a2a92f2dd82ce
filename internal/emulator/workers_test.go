package emulator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// requireNode skips a test that runs actions' code where this machine has
// no Node.js (the emulator then answers that it is missing, which
// TestExchange_withoutNodeOrNpm covers).
func requireNode(t testing.TB) {
	t.Helper()
	rt := actionruntime.New(actionruntime.Options{})
	defer rt.Close()
	_, err := rt.Run(context.Background(), actionruntime.Version{VersionID: "probe", Code: "exports.onExecuteCustomTokenExchange = async () => {};"}, nil, nil)
	var re *actionruntime.Error
	if errors.As(err, &re) && re.Kind == actionruntime.Unavailable {
		t.Skipf("these tests run actions' code: %s", re.Message)
	}
}

// waitFor polls cond until it holds; for a state that, once reached,
// stays. Its minute only ends a test whose condition never comes, however
// loaded the machine.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// workersOf are the processes of the action's workers.
func workersOf(s *Server, actionID string) []actionruntime.Process {
	var out []actionruntime.Process
	for _, p := range s.runtime.Processes() {
		if p.Version.ActionID == actionID {
			out = append(out, p)
		}
	}
	return out
}

// A worker does not outlive what it runs: deleting the action stops it, and
// so does a deploy that makes another version the deployed one, before
// any exchange runs the new one.
func TestExchange_workersStopWithTheirVersion(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	if status, out := x.exchange("w1"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	first := workersOf(x.s, x.actionID)
	if len(first) != 1 || !emutest.Running(first[0].PID) {
		t.Fatalf("after an exchange: workers %+v", first)
	}
	x.expect(x.call(x.tok, "POST", actionsPath+"/"+x.actionID+"/deploy", nil), 200)
	x.pollFor(x.tok, x.actionID, time.Minute, func(r reply) bool {
		d, _ := r.json(t)["deployed_version"].(map[string]any)
		return d["number"] == 2.0
	})
	waitFor(t, func() bool { return !emutest.Running(first[0].PID) && len(workersOf(x.s, x.actionID)) == 0 }, "the old version's worker to end")

	if status, out := x.exchange("w2"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	second := workersOf(x.s, x.actionID)
	if len(second) != 1 || second[0].Version.Number != 2 {
		t.Fatalf("the exchange after the deploy ran in %+v", second)
	}
	x.expect(x.call(x.tok, "DELETE", actionsPath+"/"+x.actionID+"?force=true", nil), 204)
	waitFor(t, func() bool { return !emutest.Running(second[0].PID) && len(workersOf(x.s, x.actionID)) == 0 }, "the deleted action's worker to end")
}
