package conns_test

import (
	"context"
	"fmt"
	"testing"

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

// TestTriggerBindings_secondActs: of the plan of a bound action's destroy
// and the plan of its trigger's bindings, the one that plans second sees
// the other, whatever the order, without waiting: a destroy after the
// bindings gets their list, bindings after destroys get the actions they
// drop that must be unbound first.
func TestTriggerBindings_secondActs(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings
	list := func(ids ...string) conns.PlannedBindings { return conns.PlannedBindings{IDs: ids, Complete: true} }

	// The bindings plan first: the destroy sees that they drop it.
	if c := b.Claim("post-login", list("a1"), []string{"a1", "a2"}); c.Claims != 1 || len(c.Unbind) != 0 || len(c.Listed) != 0 {
		t.Fatalf("a claim before any destroy: %+v", c)
	}
	if p, ok := b.Destroying("a2", "post-login"); !ok || p.Binds("a2") || !p.Binds("a1") {
		t.Fatalf("the destroy after the bindings: %v %v", p, ok)
	}

	// The destroys plan first: the bindings see the actions they drop, not
	// the one they keep, not one of another trigger, and not one they never
	// bound.
	for id, trigger := range map[string]string{"c1": "credentials-exchange", "c2": "credentials-exchange", "x1": "post-login", "c9": "credentials-exchange"} {
		if p, ok := b.Destroying(id, trigger); ok && trigger == "credentials-exchange" {
			t.Fatalf("a destroy before the bindings saw %v", p)
		}
	}
	c := b.Claim("credentials-exchange", list("c0"), []string{"c0", "c1", "c2", "x1"})
	if fmt.Sprint(c.Unbind) != "[c1 c2]" || len(c.Listed) != 0 {
		t.Fatalf("the bindings after the destroys: %+v", c)
	}

	// A list that still binds a destroyed action says so.
	if c := b.Claim("send-phone-message", list("c1"), nil); fmt.Sprint(c.Listed) != "[c1]" {
		t.Fatalf("a list binding a destroyed action: %+v", c)
	}

	// The same list twice (a replacement's two plans) is one claim;
	// another list is a second.
	if c := b.Claim("post-login", list("a1"), nil); c.Claims != 1 {
		t.Fatalf("the same list counted %d times", c.Claims)
	}
	if c := b.Claim("post-login", list("a1", "a3"), nil); c.Claims != 2 {
		t.Fatalf("two lists counted %d", c.Claims)
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

	// The release plans first: the claim sees it.
	if claimed := b.Release("post-login"); claimed {
		t.Fatal("a claim before any")
	}
	if p, ok := b.Destroying("a0", "post-login"); !ok || !p.Complete || len(p.IDs) != 0 {
		t.Fatalf("after the release alone: %v %v", p, ok)
	}
	c := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1"}, Complete: true}, nil)
	if c.Claims != 1 || !c.Released {
		t.Fatalf("after the release: %+v", c)
	}
	if p, ok := b.Destroying("a2", "post-login"); !ok || !p.Binds("a1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}

	// The claim plans first: the release sees it, and the list stays.
	if c := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}, nil); c.Claims != 1 || c.Released {
		t.Fatalf("a claim before the release: %+v", c)
	}
	if claimed := b.Release("credentials-exchange"); !claimed {
		t.Fatal("the release did not see the claim")
	}
	if p, ok := b.Destroying("c2", "credentials-exchange"); !ok || !p.Binds("c1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}
	if c := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}, nil); c.Claims != 1 {
		t.Fatalf("the release counted as a list: %d claims", c.Claims)
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
