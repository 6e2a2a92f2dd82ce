package trigger

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/testorder"
)

// TestUnbindOnly_actionGoneAlready: the destroy of a replacement writes the
// bindings of its state without the actions it unbinds; another action of
// that list that this apply deleted already (with the tenant unbinding it)
// makes the tenant refuse the list (404, or 400: the reference does not
// say), and the write is sent again with what the trigger still binds. The
// kept action stays bound, the unbound one is unbound, and nothing else is
// sent. While it reads the trigger between its two writes, a refused
// delete's AfterWrites waits for it (the read is held by a proxy in front
// of the emulator). A refusal that the trigger's bindings do not explain is
// returned after one read.
func TestUnbindOnly_actionGoneAlready(t *testing.T) {
	for mode, status := range map[string]string{"not_found": "404", "invalid": "400"} {
		t.Run(mode, func(t *testing.T) {
			emu, err := emulator.Start(emulator.Options{Assume: emulator.Assumptions{BindMissingAction: mode}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = emu.Close() })
			// A proxy in front of the emulator holds the read between the
			// unbinding's two writes, once.
			hold := testorder.NewHold(t, emu.Domain(), func(r *http.Request) bool {
				return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/bindings")
			})
			tc, err := conns.New(mgmt.Config{Domain: hold.URL, ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret(), Audience: emu.Audience()})
			if err != nil {
				t.Fatal(err)
			}
			ctx := t.Context() // ends before the cleanups: no call outlives the test
			var ids []string
			var all []mgmt.BindingUpdate
			for i := range 3 {
				a, err := tc.API.CreateAction(ctx, mgmt.ActionCreate{Name: fmt.Sprintf("a%d", i), Code: "x", Deploy: true,
					SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}}})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tc.API.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, a.ID)
				all = append(all, mgmt.BindingUpdate{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a.ID}, DisplayName: a.Name})
			}
			if _, err := tc.API.UpdateTriggerBindings(ctx, "post-login", all); err != nil {
				t.Fatal(err)
			}
			// a2's destroy planned after the bindings: its delete unbinds it (force).
			if err := tc.API.DeleteAction(ctx, ids[2], true); err != nil {
				t.Fatal(err)
			}
			emu.ResetStats()
			r := &bindingsResource{framework.WithTenant{Tenant: tc}}
			// The replacement's destroy unbinds a1: it keeps a0 and a2, as the
			// state has them. While it reads the trigger between its two
			// writes, a refused delete's AfterWrites waits for the whole of it.
			hold.Arm()
			unbound := make(chan error, 1)
			go func() { unbound <- r.unbindOnly(ctx, "post-login", []mgmt.BindingUpdate{all[0], all[2]}) }()
			select {
			case <-hold.Held:
			case err := <-unbound:
				t.Fatalf("the unbinding ended (%v) without reading the trigger between two writes", err)
			}
			wctx := testorder.NewContext(ctx)
			after := make(chan struct{})
			go func() {
				tc.Bindings.AfterWrites(wctx, "post-login")
				close(after)
			}()
			select {
			case <-wctx.Waiting:
			case <-after:
				t.Fatal("AfterWrites returned between the unbinding's two writes")
			}
			hold.Release()
			if err := <-unbound; err != nil {
				t.Fatal(err)
			}
			<-after
			const patch, read = "PATCH /api/v2/actions/triggers/{trigger}/bindings", "GET /api/v2/actions/triggers/{trigger}/bindings"
			if s := emu.Stats(); s.ByRoute[patch] != 2 || s.ByRoute[read] != 1 || s.ByStatus[status] != 1 {
				t.Fatalf("requests %v by status %v: want the refused write (%s), one read, the write again", s.ByRoute, s.ByStatus, status)
			}
			got, err := tc.API.TriggerBindings(ctx, "post-login")
			if err != nil {
				t.Fatal(err)
			}
			var bound []string
			for _, b := range got {
				bound = append(bound, b.Action.ID)
			}
			if !slices.Equal(bound, ids[:1]) {
				t.Fatalf("the trigger binds %v, want only %s", bound, ids[0])
			}

			// A refusal for another cause (a0 twice: 400, every action of
			// the list still bound) is returned after one read, not sent again.
			emu.ResetStats()
			err = r.unbindOnly(ctx, "post-login", []mgmt.BindingUpdate{all[0], all[0]})
			if !mgmt.IsBadRequest(err) {
				t.Fatalf("a list naming an action twice: %v", err)
			}
			if s := emu.Stats(); s.ByRoute[patch] != 1 || s.ByRoute[read] != 1 {
				t.Fatalf("requests %v: want the refused write and one read", s.ByRoute)
			}
		})
	}
}
