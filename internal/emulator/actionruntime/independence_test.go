package actionruntime_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// outcome is how one execution ended.
type outcome struct {
	res *actionruntime.Result
	err error
}

// runAll runs the executions at once and returns how each ended, in order.
func runAll(rt *actionruntime.Runtime, ctx context.Context, vs ...actionruntime.Version) []outcome {
	out := make([]outcome, len(vs))
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].res, out[i].err = rt.Run(ctx, v, map[string]any{}, nil)
		}()
	}
	wg.Wait()
	return out
}

// Executions of one version run at once: each waits at a barrier that only
// as many executions there together can pass.
func TestRun_concurrentExecutionsOfOneVersion(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	up := emutest.NewUpstream(t)
	v := version("together", handler(up.Fetch("/barrier/together?n=5")+` api.authentication.setUserById("passed");`))
	for i, o := range runAll(rt, context.Background(), v, v, v, v, v) {
		if o.err != nil || userOf(t, o.res) != "passed" {
			t.Errorf("execution %d: %v %+v", i, o.err, o.res)
		}
	}
}

// An execution that never ends is stopped at its time limit, and fails no
// other: an execution of the same version asked while it hangs answers.
func TestRun_hangAffectsNoOther(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{Timeout: 5 * time.Second})
	up := emutest.NewUpstream(t)
	v := version("hang", handler(`if (event.hang) { await fetch(`+fmt.Sprintf("%q", up.URL+"/hold/started")+`).catch(() => {}); }
  if (event.hang) { await new Promise(() => setInterval(() => {}, 1000)); }
  api.authentication.setUserById("fast");`))
	// The hold is released at once: the upstream records that the hung
	// execution is under way, and nothing waits on it.
	up.Release("started")
	hung := make(chan outcome, 1)
	go func() {
		res, err := rt.Run(context.Background(), v, map[string]any{"hang": true}, nil)
		hung <- outcome{res, err}
	}()
	up.Arrived(t, "started", 1)
	res, err := rt.Run(context.Background(), v, map[string]any{}, nil)
	if err != nil || userOf(t, res) != "fast" {
		t.Fatalf("beside a hung execution: %v %+v", err, res)
	}
	if o := <-hung; kindOf(o.err) != actionruntime.Timeout || o.res != nil {
		t.Fatalf("the hung execution: %v %+v", o.err, o.res)
	}
}

// An execution whose caller has gone is stopped: its process ends (the
// upstream sees its request dropped) and it gives no result.
func TestRun_callerGoneStopsTheExecution(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	up := emutest.NewUpstream(t)
	v := version("gone", handler(up.Fetch("/hold/gone")+` api.authentication.setUserById("went on");`))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan outcome, 1)
	go func() {
		res, err := rt.Run(ctx, v, map[string]any{}, nil)
		done <- outcome{res, err}
	}()
	up.Arrived(t, "gone", 1)
	cancel()
	if o := <-done; kindOf(o.err) != actionruntime.Cancelled || o.res != nil {
		t.Fatalf("got %v %+v", o.err, o.res)
	}
	up.Dropped(t, "gone", 1)
	eventually(t, "the stopped execution's process to end", func() bool { return len(pids(rt, "gone")) == 0 })
}

// A retired version's busy worker finishes its execution on its version,
// then stops; the next execution runs the new version.
func TestRetire_busyWorkerFinishesOnItsVersion(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	up := emutest.NewUpstream(t)
	v1 := version("v1", handler(up.Fetch("/hold/v1")+` api.authentication.setUserById("version 1");`))
	v2 := version("v2", handler(`api.authentication.setUserById("version 2");`))
	v2.ActionID = v1.ActionID
	done := make(chan outcome, 1)
	go func() {
		res, err := rt.Run(context.Background(), v1, map[string]any{}, nil)
		done <- outcome{res, err}
	}()
	up.Arrived(t, "v1", 1)
	busy := pids(rt, "v1")
	rt.Retire(func(v actionruntime.Version) bool { return v.VersionID == "v1" })
	if res, err := rt.Run(context.Background(), v2, map[string]any{}, nil); err != nil || userOf(t, res) != "version 2" {
		t.Fatalf("the new version: %v %+v", err, res)
	}
	up.Release("v1")
	if o := <-done; o.err != nil || userOf(t, o.res) != "version 1" {
		t.Fatalf("the execution under way when its version was retired: %v %+v", o.err, o.res)
	}
	eventually(t, "the retired version's worker to end", func() bool { return len(busy) == 1 && !emutest.Running(busy[0]) && len(pids(rt, "v1")) == 0 })
}

// At the runtime's bound a new version's execution stops an idle worker
// of another version, never a busy one: it waits for one to be free.
func TestRun_evictionNeverStopsABusyWorker(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{Total: 2})
	up := emutest.NewUpstream(t)
	a := version("a", handler(up.Fetch("/hold/a")+` api.authentication.setUserById("a");`))
	b := version("b", handler(up.Fetch("/hold/b")+` api.authentication.setUserById("b");`))
	c := version("c", handler(`api.authentication.setUserById("c");`))
	held := make(chan []outcome, 1)
	go func() { held <- runAll(rt, context.Background(), a, b) }()
	up.Arrived(t, "a", 1)
	up.Arrived(t, "b", 1)
	third := make(chan outcome, 1)
	go func() {
		res, err := rt.Run(context.Background(), c, map[string]any{}, nil)
		third <- outcome{res, err}
	}()
	// The third waits while both are busy; a is let go, and its worker,
	// idle, is the one stopped.
	up.Release("a")
	if o := <-third; o.err != nil || userOf(t, o.res) != "c" {
		t.Fatalf("the third version: %v %+v", o.err, o.res)
	}
	up.Release("b")
	for i, o := range <-held {
		if o.err != nil || userOf(t, o.res) != []string{"a", "b"}[i] {
			t.Errorf("busy execution %d: %v %+v", i, o.err, o.res)
		}
	}
}

// Waiting for a worker counts against the execution's time limit, which
// alone bounds it here. Two executions that hang are asked at once of a
// version's only worker, warm: one runs until its limit; the other waits,
// and when the first's worker ends it has next to nothing of its own limit
// left, too little to start another worker (counted from the end of its
// wait, it would run and hang, and answer as the first does). The limit is
// 5 s, not 1: the warm-up's worker must load within it, and on a loaded
// machine starting Node.js has taken more than a second.
func TestRun_waitingCountsAgainstTheLimit(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{Timeout: 5 * time.Second, PerVersion: 1})
	up := emutest.NewUpstream(t)
	v := version("one", handler(`if (event.hold) { `+up.Fetch("/hold/one")+` } api.authentication.setUserById("ran");`))
	if _, err := rt.Run(context.Background(), v, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	out := make([]outcome, 2)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].res, out[i].err = rt.Run(context.Background(), v, map[string]any{"hold": true}, nil)
		}()
	}
	wg.Wait()
	up.Release("one")
	waited := 0
	for _, o := range out {
		if kindOf(o.err) != actionruntime.Timeout {
			t.Fatalf("an execution that hangs: %v %+v", o.err, o.res)
		}
		if strings.Contains(o.err.Error(), "waiting for a worker") || strings.Contains(o.err.Error(), "while its worker loaded the code") {
			waited++
		}
	}
	if waited != 1 {
		t.Fatalf("one of the two should have timed out before it ran: %v, %v", out[0].err, out[1].err)
	}
}

// An error of an execution that has answered (a promise it left behind)
// fails no other execution, also one running in the same worker: it goes
// to the log, and the worker takes no more executions.
func TestRun_strayErrorFailsNoOther(t *testing.T) {
	rt, log := newRuntime(t, actionruntime.Options{PerVersion: 1})
	v := version("stray", handler(`if (event.first) {
    new Promise((r) => { globalThis.release = r; }).then(() => { throw new Error("stray of the first"); });
    api.authentication.setUserById("first");
    return;
  }
  if (globalThis.release) globalThis.release();
  await new Promise((r) => setTimeout(r, 50));
  api.authentication.setUserById("second");`))
	for _, event := range []map[string]any{{"first": true}, {}} {
		res, err := rt.Run(context.Background(), v, event, nil)
		if err != nil || res.Thrown != nil {
			t.Fatalf("%v: %v %+v", event, err, res)
		}
	}
	eventually(t, "the stray error in the log", func() bool {
		return strings.Contains(log.String(), "an error after its execution had ended: Error: stray of the first")
	})
	eventually(t, "the worker to stop", func() bool { return len(pids(rt, "stray")) == 0 })
}

// Close ends every worker, busy ones too, and their executions say so.
func TestClose_endsBusyWorkers(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{})
	up := emutest.NewUpstream(t)
	v := version("closing", handler(up.Fetch("/hold/closing")))
	done := make(chan outcome, 1)
	go func() {
		res, err := rt.Run(context.Background(), v, map[string]any{}, nil)
		done <- outcome{res, err}
	}()
	up.Arrived(t, "closing", 1)
	busy := pids(rt, "closing")
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if o := <-done; kindOf(o.err) != actionruntime.Unavailable {
		t.Fatalf("the execution under way: %v %+v", o.err, o.res)
	}
	if len(busy) != 1 || emutest.Running(busy[0]) || len(rt.Processes()) != 0 {
		t.Fatalf("after Close: %v still listed %v", busy, rt.Processes())
	}
	if _, err := rt.Run(context.Background(), v, map[string]any{}, nil); kindOf(err) != actionruntime.Unavailable {
		t.Fatalf("after Close: %v", err)
	}
}

// Work an execution leaves behind fails no later execution, in a worker
// of the version's only one: the first execution leaves a timer, or a
// promise, that loops or ends the process once the second has started.
func TestRun_leftoverWorkFailsNoLaterExecution(t *testing.T) {
	for name, leftover := range map[string]string{
		"a timer that loops":              `setInterval(() => { if (globalThis.go) { for (;;) {} } }, 10);`,
		"a timer that ends the process":   `setInterval(() => { if (globalThis.go) process.exit(0); }, 10);`,
		"a promise that ends the process": `new Promise((r) => { globalThis.go = r; }).then(() => process.exit(0));`,
	} {
		t.Run(name, func(t *testing.T) {
			rt, _ := newRuntime(t, actionruntime.Options{PerVersion: 1, Timeout: 5 * time.Second})
			// The second execution sets the signal (or resolves the
			// promise), then waits past the timer's next turn.
			v := version("leftover", handler(`if (event.first) { `+leftover+` api.authentication.setUserById("first"); return; }
  if (typeof globalThis.go === "function") globalThis.go(); else globalThis.go = true;
  await new Promise((r) => setTimeout(r, 100));
  api.authentication.setUserById("second");`))
			for _, event := range []map[string]any{{"first": true}, {}} {
				res, err := rt.Run(context.Background(), v, event, nil)
				if err != nil || res.Thrown != nil {
					t.Fatalf("%v: %v %+v", event, err, res)
				}
			}
		})
	}
}

// A worker whose execution left nothing behind (a fetch's open connection
// is not work) waits warm for the next execution of its version.
func TestRun_workerLeftCleanIsReused(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{PerVersion: 1})
	up := emutest.NewUpstream(t)
	up.Release("clean")
	v := version("clean", handler(`if (event.throws) { `+up.Fetch("/hold/clean")+` throw new Error("refused"); }
  `+up.Fetch("/hold/clean")+` api.authentication.setUserById("clean");`))
	var seen []int
	for _, event := range []map[string]any{{}, {"throws": true}, {}} {
		if _, err := rt.Run(context.Background(), v, event, nil); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, pids(rt, "clean")...)
	}
	if len(seen) != 3 || seen[0] != seen[1] || seen[1] != seen[2] {
		t.Fatalf("the version's worker after each execution: %v", seen)
	}
}

// Executions of a retired version that wait for a worker run in the
// version's workers as they come free, within the version's bound, and
// those workers stop once none waits.
func TestRetire_waitingExecutionsTakeTheRetiredWorkers(t *testing.T) {
	rt, _ := newRuntime(t, actionruntime.Options{PerVersion: 2})
	up := emutest.NewUpstream(t)
	v1 := version("v1", handler(up.Fetch("/hold/v1")+` api.authentication.setUserById(String(process.pid));`))
	done := make(chan []outcome, 1)
	go func() { done <- runAll(rt, context.Background(), v1, v1, v1, v1) }()
	up.Arrived(t, "v1", 2)
	eventually(t, "two executions to wait for a worker", func() bool { return rt.Waiting("v1") == 2 })
	rt.Retire(func(v actionruntime.Version) bool { return v.VersionID == "v1" })
	up.Release("v1")
	ran := map[string]bool{}
	for i, o := range <-done {
		if o.err != nil {
			t.Fatalf("execution %d: %v", i, o.err)
		}
		ran[userOf(t, o.res)] = true
	}
	if len(ran) != 2 {
		t.Errorf("the four executions ran in the processes %v, not in the version's 2", ran)
	}
	eventually(t, "the retired version's workers to end", func() bool { return len(pids(rt, "v1")) == 0 })
}
