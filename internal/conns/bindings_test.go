package conns_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestTriggerBindings_readOnce: the reads of one trigger's bindings in a run
// cost one request until an action or binding write.
func TestTriggerBindings_readOnce(t *testing.T) {
	tc, emu, _, _ := tenant(t)
	ctx := context.Background()
	a, err := tc.API.CreateAction(ctx, mgmt.ActionCreate{Name: "a", SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}}, Code: "x", Deploy: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.API.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	emu.ResetStats()
	const route = "GET /api/v2/actions/triggers/{trigger}/bindings"
	for range 3 {
		if got, err := tc.Bindings.Read(ctx, "post-login"); err != nil || len(got) != 0 {
			t.Fatalf("%v %v", got, err)
		}
	}
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("3 reads sent %d requests, want 1", n)
	}
	// A write of the bindings makes the next read read anew.
	if _, err := tc.API.UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a.ID}, DisplayName: "a"}}); err != nil {
		t.Fatal(err)
	}
	got, err := tc.Bindings.Read(ctx, "post-login")
	if err != nil || len(got) != 1 || got[0].Action.ID != a.ID {
		t.Fatalf("after the write: %v %v", got, err)
	}
	// Another trigger is read on its own.
	if _, err := tc.Bindings.Read(ctx, "credentials-exchange"); err != nil {
		t.Fatal(err)
	}
	if n := emu.Stats().ByRoute[route]; n != 3 {
		t.Fatalf("%d reads, want 3", n)
	}
}

// TestTriggerBindings_await: the plan of an action's destroy gets what the
// bindings of its trigger plan, whichever plans first, and gives up after
// PlanWait when nothing of that trigger plans.
func TestTriggerBindings_await(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings
	b.PlanWait = 300 * time.Millisecond
	ctx := context.Background()

	// Planned first.
	if n, _, _ := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1", "a2"}, Complete: true}); n != 1 {
		t.Fatalf("claims %d", n)
	}
	// At once: even a context that has ended gets the planned list, which
	// it could not if Await waited.
	ended, cancel := context.WithCancel(ctx)
	cancel()
	got, ok := b.Await(ended, "post-login")
	if !ok || !got.Binds("a2") || got.Binds("a3") {
		t.Fatalf("%v %v", got, ok)
	}

	// Planned later: the waiter wakes when it does.
	done := make(chan conns.PlannedBindings)
	go func() {
		p, _ := b.Await(ctx, "credentials-exchange")
		done <- p
	}()
	time.Sleep(50 * time.Millisecond)
	b.Claim("send-phone-message", conns.PlannedBindings{Complete: true}) // another trigger wakes nobody up for good
	b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}})
	if p := <-done; !p.Binds("c1") || p.Complete {
		t.Fatalf("woke with %v", p)
	}

	// Never planned: no answer after the wait.
	start := time.Now()
	if _, ok := b.Await(ctx, "pre-user-registration"); ok || time.Since(start) < b.PlanWait {
		t.Fatalf("ok %v after %s", ok, time.Since(start))
	}

	// The same list twice (a replacement's two plans) is one claim;
	// another list is a second.
	if n, _, _ := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1", "a2"}, Complete: true}); n != 1 {
		t.Fatalf("the same list counted %d times", n)
	}
	if n, _, _ := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a2", "a1"}, Complete: true}); n != 2 {
		t.Fatalf("two lists counted %d", n)
	}
}

// TestTriggerBindings_destroyedAndListed: an action destroyed by the plan
// while its bindings still list it is seen by exactly one side: the one
// that plans second.
func TestTriggerBindings_destroyedAndListed(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings
	// The destroy plans first: the bindings' claim names it.
	if p, ok := b.Destroying("a1", "post-login"); ok {
		t.Fatalf("a claim before any: %v", p)
	}
	if _, destroyed, _ := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a0", "a1"}, Complete: true}); fmt.Sprint(destroyed) != "[a1]" {
		t.Fatalf("destroyed %v", destroyed)
	}
	// The bindings plan first: the destroy sees their list.
	if _, destroyed, _ := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}); len(destroyed) != 0 {
		t.Fatalf("destroyed %v", destroyed)
	}
	if p, ok := b.Destroying("c1", "credentials-exchange"); !ok || !p.Binds("c1") {
		t.Fatalf("%v %v", p, ok)
	}
}

// TestTriggerBindings_released: a trigger given up by one resource (its
// destroy) and claimed by another is seen by exactly one side, the one that
// plans second; the release is no second list, and the plan of an action's
// destroy sees the claimed list, or an empty one when only the release
// planned.
func TestTriggerBindings_released(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings
	ctx := context.Background()

	// The release plans first: the claim sees it.
	if claimed := b.Release("post-login"); claimed {
		t.Fatal("a claim before any")
	}
	if p, ok := b.Await(ctx, "post-login"); !ok || !p.Complete || len(p.IDs) != 0 {
		t.Fatalf("after the release alone: %v %v", p, ok)
	}
	n, _, released := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1"}, Complete: true})
	if n != 1 || !released {
		t.Fatalf("claims %d, released %v", n, released)
	}
	if p, ok := b.Await(ctx, "post-login"); !ok || !p.Binds("a1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}

	// The claim plans first: the release sees it, and the list stays.
	if n, _, released := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}); n != 1 || released {
		t.Fatalf("claims %d, released %v", n, released)
	}
	if claimed := b.Release("credentials-exchange"); !claimed {
		t.Fatal("the release did not see the claim")
	}
	if p, ok := b.Destroying("c2", "credentials-exchange"); !ok || !p.Binds("c1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}
	if n, _, _ := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}); n != 1 {
		t.Fatalf("the release counted as a list: %d claims", n)
	}
}

// TestTriggerBindings_refusedWriteKeepsTheRead: a write the tenant refuses
// (the delete of a bound action: 409) changed nothing, so the bindings read
// stays shared after it; a write that is not refused drops it.
func TestTriggerBindings_refusedWriteKeepsTheRead(t *testing.T) {
	tc, emu, _, _ := tenant(t)
	ctx := context.Background()
	a, err := tc.API.CreateAction(ctx, mgmt.ActionCreate{Name: "a", SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}}, Code: "x", Deploy: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.API.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.API.UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a.ID}, DisplayName: "a"}}); err != nil {
		t.Fatal(err)
	}
	emu.ResetStats()
	const route = "GET /api/v2/actions/triggers/{trigger}/bindings"
	read := func(want int) {
		t.Helper()
		got, err := tc.Bindings.Read(ctx, "post-login")
		if err != nil || len(got) != want {
			t.Fatalf("%v %v, want %d binding(s)", got, err, want)
		}
	}
	read(1)
	for range 3 {
		if err := tc.API.DeleteAction(ctx, a.ID, false); !mgmt.IsConflict(err) {
			t.Fatalf("the delete of a bound action: %v, want 409", err)
		}
		read(1)
	}
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("%d reads around 3 refused deletes, want 1", n)
	}
	if err := tc.API.DeleteAction(ctx, a.ID, true); err != nil {
		t.Fatal(err)
	}
	read(0)
	if n := emu.Stats().ByRoute[route]; n != 2 {
		t.Fatalf("%d reads, want 2: the forced delete drops the read", n)
	}
}
