package conns_test

import (
	"context"
	"fmt"
	"strings"
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
	if c := b.Claim("post-login", list("a1"), []string{"a1", "a2"}, true); c.Twice || len(c.Unbind) != 0 || len(c.Listed) != 0 {
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
	c := b.Claim("credentials-exchange", list("c0"), []string{"c0", "c1", "c2", "x1"}, true)
	if fmt.Sprint(c.Unbind) != "[c1 c2]" || len(c.Listed) != 0 {
		t.Fatalf("the bindings after the destroys: %+v", c)
	}

	// A list that still binds a destroyed action says so.
	if c := b.Claim("send-phone-message", list("c1"), nil, false); fmt.Sprint(c.Listed) != "[c1]" {
		t.Fatalf("a list binding a destroyed action: %+v", c)
	}

	// A list unknown as a whole binds no action this plan destroys: the
	// destroy after it unbinds its action, and bindings after destroys
	// unbind them.
	if c := b.Claim("post-user-registration", conns.PlannedBindings{}, nil, true); c.Twice {
		t.Fatalf("an unknown list: %+v", c)
	}
	if p, ok := b.Destroying("u1", "post-user-registration"); !ok || p.Binds("u1") {
		t.Fatalf("the destroy after an unknown list: %v %v", p, ok)
	}
	b.Destroying("u2", "pre-user-registration")
	if c := b.Claim("pre-user-registration", conns.PlannedBindings{}, []string{"u2"}, true); fmt.Sprint(c.Unbind) != "[u2]" {
		t.Fatalf("an unknown list after the destroy: %+v", c)
	}
}

// TestTriggerBindings_twice: a replaced instance claims its trigger twice,
// as an update and as a create, which is one claim; two resources are two,
// whether their lists differ or not, both new or both in the state.
func TestTriggerBindings_twice(t *testing.T) {
	list := conns.PlannedBindings{IDs: []string{"a1"}, Complete: true}
	for _, c := range []struct {
		name  string
		claim []bool // existing, in order
		other []string
		twice bool
	}{
		{"a replacement", []bool{true, false}, nil, false},
		{"two in the state", []bool{true, true}, nil, true},
		{"two creates", []bool{false, false}, nil, true},
		{"two lists", []bool{true, false}, []string{"a2"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc, _, _, _ := tenant(t)
			b := tc.Bindings
			first := b.Claim("post-login", list, nil, c.claim[0])
			second := list
			if c.other != nil {
				second = conns.PlannedBindings{IDs: c.other, Complete: true}
			}
			if got := b.Claim("post-login", second, nil, c.claim[1]); first.Twice || got.Twice != c.twice {
				t.Fatalf("first %+v, second %+v; want the second's Twice %v", first, got, c.twice)
			}
		})
	}
}

// TestTriggerBindings_released: a trigger given up by one resource's
// destroy and claimed by another's create (a rename without a moved block)
// is seen by exactly one side, the one that plans second; the release is
// no second list, and the plan of an action's destroy sees the claimed
// list, or an empty one when only the release planned.
func TestTriggerBindings_released(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings

	// The release plans first: the claim sees it.
	if superseded, handedOver := b.Release("post-login"); superseded || handedOver {
		t.Fatalf("a release before any claim: superseded %v, handed over %v", superseded, handedOver)
	}
	if p, ok := b.Destroying("a0", "post-login"); !ok || !p.Complete || len(p.IDs) != 0 {
		t.Fatalf("after the release alone: %v %v", p, ok)
	}
	c := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1"}, Complete: true}, nil, false)
	if c.Twice || !c.HandedOver || c.Rewrite {
		t.Fatalf("after the release: %+v", c)
	}
	if p, ok := b.Destroying("a2", "post-login"); !ok || !p.Binds("a1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}

	// The claim plans first: the release sees it, and the list stays.
	if c := b.Claim("credentials-exchange", conns.PlannedBindings{IDs: []string{"c1"}, Complete: true}, nil, false); c.Twice || c.HandedOver {
		t.Fatalf("a claim before the release: %+v", c)
	}
	if superseded, handedOver := b.Release("credentials-exchange"); superseded || !handedOver {
		t.Fatalf("the release after a create's claim: superseded %v, handed over %v", superseded, handedOver)
	}
	if p, ok := b.Destroying("c2", "credentials-exchange"); !ok || !p.Binds("c1") {
		t.Fatalf("the claimed list after a release: %v %v", p, ok)
	}
}

// TestTriggerBindings_superseded: the destroy of another object of a
// trigger that an object in the state claims (a deposed object, left by an
// interrupted create_before_destroy replacement, or a second resource
// removed from the configuration) leaves the trigger to the live object,
// whatever the order: the other object's refresh after the claim marks it
// superseded (the mark is in its refreshed state, which the destroy that
// Terraform plans again during the apply starts from); the claim after the
// other object's refresh or destroy plans an update (Rewrite), which the
// apply runs before that destroy, which then finds the trigger written.
// Without refresh, a destroy planned after the claim learns it in its own
// plan, which reaches the delete of a second resource (not a deposed
// object's, planned again during the apply: see TriggerBindings).
func TestTriggerBindings_superseded(t *testing.T) {
	list := conns.PlannedBindings{IDs: []string{"a1"}, Complete: true}
	// Each step is one of: l (the live object's refresh), c (its claim),
	// r (the other object's refresh), d (the other object's destroy);
	// an object is refreshed before it plans.
	for _, order := range []string{"lcrd", "lrcd", "lrdc", "rlcd", "rldc", "rdlc", "cd", "dc"} {
		t.Run(order, func(t *testing.T) {
			tc, _, _, _ := tenant(t)
			b := tc.Bindings
			var refreshMark, planMark, rewrite bool
			for _, step := range order {
				switch step {
				case 'l':
					if b.Refreshed("post-login") {
						t.Fatal("the live object's refresh took it for superseded")
					}
				case 'r':
					refreshMark = b.Refreshed("post-login")
				case 'c':
					c := b.Claim("post-login", list, []string{"a1"}, true)
					if c.Twice || c.HandedOver {
						t.Fatalf("the live object's claim: %+v", c)
					}
					rewrite = c.Rewrite
				case 'd':
					superseded, handedOver := b.Release("post-login")
					if handedOver {
						t.Fatal("the other object's destroy took the live one for a create")
					}
					planMark = superseded
				}
			}
			switch {
			case strings.Contains(order, "r") && refreshMark == rewrite:
				t.Fatalf("refreshed: the refresh's mark %v and the rewrite %v, want exactly one", refreshMark, rewrite)
			case order == "cd" && (!planMark || rewrite):
				t.Fatalf("not refreshed, the destroy after the claim: its mark %v, rewrite %v", planMark, rewrite)
			case order == "dc" && !rewrite:
				t.Fatal("not refreshed, the claim after the destroy did not plan the rewrite")
			}
			if !rewrite {
				return
			}
			// The apply, a run of its own: the live object's update writes
			// first, then the other object's destroy, planned again, is
			// superseded.
			apply := conns.Unconfigured().Bindings
			if c := apply.Claim("post-login", list, []string{"a1"}, true); c.Rewrite || c.HandedOver || c.Twice {
				t.Fatalf("the update's claim during the apply: %+v", c)
			}
			apply.Wrote("post-login")
			if superseded, handedOver := apply.Release("post-login"); !superseded || handedOver {
				t.Fatalf("the destroy after the update: superseded %v, handed over %v", superseded, handedOver)
			}
		})
	}
}

// TestTriggerBindings_writtenSupersedes: during a create_before_destroy
// replacement's apply, the create's claim and write come before the old
// object's destroy, which Terraform plans again then: it is superseded,
// not a rename.
func TestTriggerBindings_writtenSupersedes(t *testing.T) {
	tc, _, _, _ := tenant(t)
	b := tc.Bindings
	if c := b.Claim("post-login", conns.PlannedBindings{IDs: []string{"a1"}, Complete: true}, nil, false); c.HandedOver || c.Twice {
		t.Fatalf("the create's claim: %+v", c)
	}
	if b.Written("post-login") {
		t.Fatal("written before the write")
	}
	b.Wrote("post-login")
	if superseded, handedOver := b.Release("post-login"); !superseded || handedOver {
		t.Fatalf("the old object's destroy: superseded %v, handed over %v", superseded, handedOver)
	}
	if b.Written("credentials-exchange") {
		t.Fatal("another trigger written")
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
