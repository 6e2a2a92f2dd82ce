package tenantaction

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/testorder"
)

// TestProfilesUsing_waitsForProfileDeletesInFlight: the check of the
// profiles that use an action, made while the delete of one of them is in
// flight (a profile that names the action by its literal id is deleted in
// no order with it), waits for that delete and then finds none, from the
// run's list of profiles read before the delete. The delete is held by a
// proxy in front of the emulator, applied but unanswered, until the check
// waits: the order is the test's, not a timing.
func TestProfilesUsing_waitsForProfileDeletesInFlight(t *testing.T) {
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	hold := testorder.NewHold(t, emu.Domain(), func(r *http.Request) bool {
		return r.Method == http.MethodDelete && strings.Contains(r.URL.Path, "/token-exchange-profiles/")
	})
	tc, err := conns.New(mgmt.Config{Domain: hold.URL, ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret(), Audience: emu.Audience()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context() // ends before the cleanups: no call outlives the test
	a, err := tc.API.CreateAction(ctx, mgmt.ActionCreate{Name: "exchange", Code: "exports.onExecuteCustomTokenExchange = async () => {};",
		Deploy: true, SupportedTriggers: []mgmt.ActionTrigger{{ID: mgmt.TriggerCustomTokenExchange, Version: "v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.API.WaitForAction(ctx, a.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	p, err := tc.API.CreateTokenExchangeProfile(ctx, mgmt.TokenExchangeProfileCreate{Name: "uses-it", SubjectTokenType: "urn:acme:literal",
		ActionID: a.ID, Type: "custom_authentication"})
	if err != nil {
		t.Fatal(err)
	}
	r := &actionResource{framework.WithTenant{Tenant: tc}}
	if users, err := r.profilesUsing(ctx, a.ID); err != nil || len(users) != 1 {
		t.Fatalf("before the delete: %v %v, want the profile", users, err)
	}

	hold.Arm()
	deleted := make(chan error, 1)
	go func() { deleted <- tc.API.DeleteTokenExchangeProfile(ctx, p.ID) }()
	select { // applied by the tenant, its answer held
	case <-hold.Held:
	case err := <-deleted:
		t.Fatalf("the profile's delete ended (%v) without reaching the proxy", err)
	}
	wctx := testorder.NewContext(ctx)
	type answer struct {
		users []string
		err   error
	}
	checked := make(chan answer, 1)
	go func() {
		users, err := r.profilesUsing(wctx, a.ID)
		checked <- answer{users, err}
	}()
	// The check sends no request before its wait (the profiles' list is
	// the run's, read above): a token on Waiting is the wait.
	select {
	case <-wctx.Waiting:
	case got := <-checked:
		t.Fatalf("the check answered %v %v while the profile's delete was in flight, without waiting for it", got.users, got.err)
	}
	hold.Release()
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if got := <-checked; got.err != nil || len(got.users) != 0 {
		t.Fatalf("the check after the delete: %v %v, want no profile", got.users, got.err)
	}
}
