package conns_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// tenant starts an emulator with an API defining three scopes and a role,
// and returns a TenantClient for it.
func tenant(t *testing.T) (*conns.TenantClient, *emulator.Server, string, string) {
	t.Helper()
	return tenantWith(t, nil)
}

// tenantWith is tenant with the client's requests sent through hc.
func tenantWith(t *testing.T, hc *http.Client) (*conns.TenantClient, *emulator.Server, string, string) {
	t.Helper()
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	tc, err := conns.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret(), HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	scopes := []mgmt.ResourceServerScope{{Value: "a"}, {Value: "b"}, {Value: "c"}}
	if _, err := tc.API.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://api", Scopes: &scopes}); err != nil {
		t.Fatal(err)
	}
	role, err := tc.API.CreateRole(ctx, mgmt.Role{Name: "r"})
	if err != nil {
		t.Fatal(err)
	}
	return tc, emu, role.ID, "https://api"
}

func pair(name string) mgmt.Permission {
	return mgmt.Permission{ResourceServerIdentifier: "https://api", PermissionName: name}
}

func held(t *testing.T, tc *conns.TenantClient, roleID string) string {
	t.Helper()
	perms, err := tc.API.RolePermissions(context.Background(), roleID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range perms {
		names = append(names, p.PermissionName)
	}
	sort.Strings(names)
	return fmt.Sprint(names)
}

// TestRolePermissions_missingRoleReadOnce: the 404 of a role that does not
// exist is shared too, so the checks of many instances on a deleted role
// cost one read; an error other than 404 is not shared.
func TestRolePermissions_missingRoleReadOnce(t *testing.T) {
	tc, emu, _, _ := tenant(t)
	ctx := context.Background()
	emu.ResetStats()
	for range 5 {
		if _, err := tc.RolePermissions.Read(ctx, "rol_doesnotexist0000"); !mgmt.IsNotFound(err) {
			t.Fatalf("err = %v, want 404", err)
		}
	}
	route := "GET /api/v2/roles/{id}/permissions"
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("5 reads of a missing role cost %d reads, want 1", n)
	}
	emu.SetFaults(emulator.Faults{Routes: map[string]int{route: 403}})
	for range 2 {
		if _, err := tc.RolePermissions.Read(ctx, "rol_other0000000000"); err == nil || mgmt.IsNotFound(err) {
			t.Fatalf("err = %v, want 403", err)
		}
	}
	if n := emu.Stats().ByRoute[route]; n != 3 {
		t.Fatalf("%d reads, want a 403 read again", n)
	}
}

// TestRolePermissions_oneReadPerRolePerRun: many readers of one role's
// permissions share one read, and the run's own writes to the role update
// it instead of dropping it: a read after them shows them, and costs
// nothing.
func TestRolePermissions_oneReadPerRolePerRun(t *testing.T) {
	tc, emu, roleID, _ := tenant(t)
	ctx := context.Background()
	emu.ResetStats()
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tc.RolePermissions.Read(ctx, roleID); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	route := "GET /api/v2/roles/{id}/permissions"
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("50 reads of one role cost %d reads, want 1", n)
	}
	// A pair assigned outside RolePermissions, then one write that adds
	// two pairs and removes that one.
	if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("b"), pair("c")}, []mgmt.Permission{pair("a")}); err != nil {
		t.Fatal(err)
	}
	perms, err := tc.RolePermissions.Read(ctx, roleID)
	if err != nil || names(perms) != "[b c]" {
		t.Fatalf("a read after the writes gave %v %v, want [b c]", names(perms), err)
	}
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("%d reads, want 1: the writes update the read", n)
	}
	if got := held(t, tc, roleID); got != "[b c]" {
		t.Fatalf("the role holds %s, want [b c]", got)
	}
}

// TestRolePermissions_aWriteDuringTheReadPatchesIt: a write that ends while
// the role's read is in flight is applied to its answer when it comes,
// whether or not the answer already shows it; later readers share it.
func TestRolePermissions_aWriteDuringTheReadPatchesIt(t *testing.T) {
	// The write starts once the read's request is sent, not after a guess
	// at how long that takes.
	var armed atomic.Bool
	sent := make(chan struct{})
	var once sync.Once
	observe := roundTripper(func(r *http.Request) (*http.Response, error) {
		if armed.Load() && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/permissions") {
			once.Do(func() { close(sent) })
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	tc, emu, roleID, _ := tenantWith(t, &http.Client{Transport: observe})
	ctx := context.Background()
	if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("a")}); err != nil {
		t.Fatal(err)
	}
	emu.SetFaults(emulator.Faults{LatencyMS: 300})
	armed.Store(true)
	read := make(chan []mgmt.RolePermission, 1)
	go func() {
		perms, err := tc.RolePermissions.Read(ctx, roleID)
		if err != nil {
			t.Error(err)
		}
		read <- perms
	}()
	<-sent // the read is under way
	if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("b")}, []mgmt.Permission{pair("a")}); err != nil {
		t.Fatal(err)
	}
	emu.SetFaults(emulator.Faults{})
	<-read
	emu.ResetStats()
	perms, err := tc.RolePermissions.Read(ctx, roleID)
	if err != nil || names(perms) != "[b]" {
		t.Fatalf("the read after the write: %v %v, want [b]", names(perms), err)
	}
	if n := emu.Stats().ByRoute["GET /api/v2/roles/{id}/permissions"]; n != 0 {
		t.Fatalf("%d reads after the write, want the patched read shared", n)
	}
}

// TestRolePermissions_anAPIWriteOutdatesTheRolesHoldingWhatItRemoves:
// whether the tenant keeps a role's pair of a scope the API no longer
// defines is not known, so such a write makes the reads of the roles
// holding one out of date for that API, and only those: a reader of all
// the role's pairs reads it anew, a reader of another API's pairs does not.
func TestRolePermissions_anAPIWriteOutdatesTheRolesHoldingWhatItRemoves(t *testing.T) {
	tc, emu, roleID, ident := tenant(t)
	ctx := context.Background()
	other, err := tc.API.CreateRole(ctx, mgmt.Role{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	second := []mgmt.ResourceServerScope{{Value: "x"}}
	if _, err := tc.API.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://second", Scopes: &second}); err != nil {
		t.Fatal(err)
	}
	if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("a"), {ResourceServerIdentifier: "https://second", PermissionName: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := tc.API.AddRolePermissions(ctx, other.ID, []mgmt.Permission{pair("b")}); err != nil {
		t.Fatal(err)
	}
	holders, total, err := tc.RolePermissions.Holding(ctx, tc.Roles, "https://second", []string{"x"}, 100)
	if err != nil || total != 2 || len(holders["x"]) != 1 || holders["x"][0].ID != roleID {
		t.Fatalf("holders of x: %v of %d, %v", holders, total, err)
	}
	if _, err := tc.ResourceServers.Find(ctx, ident); err != nil {
		t.Fatal(err)
	}
	emu.ResetStats()
	scopes := []mgmt.ResourceServerScope{{Value: "b"}, {Value: "c"}}
	if _, err := tc.API.UpdateResourceServer(ctx, ident, mgmt.ResourceServerUpdate{Scopes: mgmt.Set(scopes)}); err != nil {
		t.Fatal(err)
	}
	route := "GET /api/v2/roles/{id}/permissions"
	if _, _, err := tc.RolePermissions.Holding(ctx, tc.Roles, "https://second", []string{"x"}, 100); err != nil {
		t.Fatal(err)
	}
	if n := emu.Stats().ByRoute[route]; n != 0 {
		t.Fatalf("the check of another API read %d roles again, want none", n)
	}
	for _, id := range []string{roleID, other.ID} {
		if _, err := tc.RolePermissions.Read(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if n := emu.Stats().ByRoute[route]; n != 1 {
		t.Fatalf("%d reads after the API dropped scope a; want 1 (the role holding a)", n)
	}
}

// TestRolePermissions_holdingRefusalIsSaidOnce: a client that may not read
// roles gets the refusal from the first check of the run, and the others
// stay quiet.
func TestRolePermissions_holdingRefusalIsSaidOnce(t *testing.T) {
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	emu.AddClient(emulator.Client{ID: "no-roles", Secret: "no-roles-secret-0123", Scopes: []string{"read:resource_servers"}})
	tc, err := conns.New(mgmt.Config{Domain: emu.Domain(), ClientID: "no-roles", ClientSecret: "no-roles-secret-0123"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := tc.RolePermissions.Holding(ctx, tc.Roles, "https://a", []string{"x"}, 100); !mgmt.IsForbidden(err) {
		t.Fatalf("first check: %v, want the 403", err)
	}
	if _, _, err := tc.RolePermissions.Holding(ctx, tc.Roles, "https://b", []string{"x"}, 100); !errors.Is(err, conns.ErrReported) {
		t.Fatalf("second check: %v, want ErrReported", err)
	}
}

func names(perms []mgmt.RolePermission) string {
	var out []string
	for _, p := range perms {
		out = append(out, p.PermissionName)
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}

// TestRolePermissions_removalKeepsWhatTheRunAssigned: when one apply both
// removes a pair and assigns it, the pair ends assigned, whichever runs
// first.
func TestRolePermissions_removalKeepsWhatTheRunAssigned(t *testing.T) {
	ctx := context.Background()
	t.Run("assigned, then removed", func(t *testing.T) {
		tc, _, roleID, _ := tenant(t)
		if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("a"), pair("b")}, nil); err != nil {
			t.Fatal(err)
		}
		kept, err := tc.RolePermissions.Change(ctx, roleID, nil, []mgmt.Permission{pair("a"), pair("c")})
		if err != nil || fmt.Sprint(kept) != fmt.Sprint([]mgmt.Permission{pair("a")}) {
			t.Fatalf("kept %v, %v", kept, err)
		}
		if got := held(t, tc, roleID); got != "[a b]" {
			t.Fatalf("role holds %s, want [a b]", got)
		}
	})
	t.Run("removed, then assigned", func(t *testing.T) {
		tc, _, roleID, _ := tenant(t)
		if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("a")}); err != nil {
			t.Fatal(err)
		}
		if kept, err := tc.RolePermissions.Change(ctx, roleID, nil, []mgmt.Permission{pair("a")}); err != nil || len(kept) != 0 {
			t.Fatalf("kept %v, %v", kept, err)
		}
		if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("a")}, nil); err != nil {
			t.Fatal(err)
		}
		if got := held(t, tc, roleID); got != "[a]" {
			t.Fatalf("role holds %s, want [a]", got)
		}
	})
	t.Run("held, converged to, then removed", func(t *testing.T) {
		// tenant_role_permission "a" destroyed and tenant_role_permissions
		// {a, b} created in one apply, the create first: the role already
		// holds a, so the create assigns only b, and a must stay.
		tc, _, roleID, _ := tenant(t)
		if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("a")}); err != nil {
			t.Fatal(err)
		}
		if _, _, _, _, err := tc.RolePermissions.Converge(ctx, roleID, []mgmt.Permission{pair("a"), pair("b")}); err != nil {
			t.Fatal(err)
		}
		kept, err := tc.RolePermissions.Change(ctx, roleID, nil, []mgmt.Permission{pair("a")})
		if err != nil || fmt.Sprint(kept) != fmt.Sprint([]mgmt.Permission{pair("a")}) {
			t.Fatalf("kept %v, %v", kept, err)
		}
		if got := held(t, tc, roleID); got != "[a b]" {
			t.Fatalf("role holds %s, want [a b]", got)
		}
	})
	t.Run("a new run removes it", func(t *testing.T) {
		tc, emu, roleID, _ := tenant(t)
		if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("a")}, nil); err != nil {
			t.Fatal(err)
		}
		next, err := conns.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := next.RolePermissions.Change(ctx, roleID, nil, []mgmt.Permission{pair("a")}); err != nil {
			t.Fatal(err)
		}
		if got := held(t, tc, roleID); got != "[]" {
			t.Fatalf("role holds %s, want []", got)
		}
	})
}

// TestRolePermissions_converge: the role ends with exactly what is wanted,
// read as it is now, not as the run's shared read saw it.
func TestRolePermissions_converge(t *testing.T) {
	tc, _, roleID, _ := tenant(t)
	ctx := context.Background()
	if _, err := tc.RolePermissions.Read(ctx, roleID); err != nil {
		t.Fatal(err)
	}
	if err := tc.API.AddRolePermissions(ctx, roleID, []mgmt.Permission{pair("c")}); err != nil {
		t.Fatal(err)
	}
	heldBefore, added, removed, kept, err := tc.RolePermissions.Converge(ctx, roleID, []mgmt.Permission{pair("a"), pair("b")})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(heldBefore) != fmt.Sprint([]mgmt.Permission{pair("c")}) || len(added) != 2 || fmt.Sprint(removed) != fmt.Sprint([]mgmt.Permission{pair("c")}) || kept != nil {
		t.Fatalf("held %v added %v removed %v kept %v", heldBefore, added, removed, kept)
	}
	if got := held(t, tc, roleID); got != "[a b]" {
		t.Fatalf("role holds %s, want [a b]", got)
	}
}

func TestRolePermissions_claims(t *testing.T) {
	tc := conns.Unconfigured()
	p := tc.RolePermissions
	if n, mixed := p.ClaimExclusive("rol_1", "{a}"); n != 1 || mixed {
		t.Fatalf("first exclusive claim: %d %v", n, mixed)
	}
	// The same set again (one instance planned twice, as in a
	// replacement) counts once; another set counts.
	if n, _ := p.ClaimExclusive("rol_1", "{a}"); n != 1 {
		t.Fatalf("the same set claimed twice counts %d", n)
	}
	if n, mixed := p.ClaimExclusive("rol_1", "{b}"); n != 2 || mixed {
		t.Fatalf("second exclusive claim of one role: %d %v", n, mixed)
	}
	if n, mixed := p.ClaimPair("rol_1", pair("a")); n != 1 || !mixed {
		t.Fatalf("a pair beside an exclusive claim: %d %v, want mixed", n, mixed)
	}
	if n, mixed := p.ClaimPair("rol_1", pair("a")); n != 2 || mixed {
		t.Fatalf("the same pair again: %d %v (mixed is reported once)", n, mixed)
	}
	if n, mixed := p.ClaimPair("rol_2", pair("a")); n != 1 || mixed {
		t.Fatalf("another role: %d %v", n, mixed)
	}
}

// TestTenantClient_writesUpdateSharedReads: a write through the API client
// updates what the run read of its type (the object it created, changed or
// deleted) instead of dropping it: reads and finds after it see the tenant
// as it now is, without reading the list again.
func TestTenantClient_writesUpdateSharedReads(t *testing.T) {
	tc, emu, _, _ := tenant(t)
	ctx := context.Background()
	var ids []string
	for i := range 5 {
		rs, err := tc.API.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: fmt.Sprintf("https://api/%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rs.ID)
	}
	for _, id := range ids {
		if _, err := tc.ResourceServers.Read(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	emu.ResetStats()
	name := "renamed"
	if _, err := tc.API.UpdateResourceServer(ctx, ids[4], mgmt.ResourceServerUpdate{Name: mgmt.Set(name)}); err != nil {
		t.Fatal(err)
	}
	if err := tc.API.DeleteResourceServer(ctx, ids[3]); err != nil {
		t.Fatal(err)
	}
	created, err := tc.API.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://api/new"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := tc.ResourceServers.Read(ctx, ids[4])
	if err != nil || rs.Name == nil || *rs.Name != name {
		t.Fatalf("read after the write: %+v %v", rs, err)
	}
	for ident, want := range map[string]string{"https://api/new": created.ID, "https://api/3": "", "https://api/2": ids[2]} {
		found, err := tc.ResourceServers.Find(ctx, ident)
		switch {
		case err != nil:
			t.Fatal(err)
		case want == "" && found != nil, want != "" && (found == nil || found.ID != want):
			t.Fatalf("find %s: %+v, want %q", ident, found, want)
		}
	}
	if _, err := tc.ResourceServers.Read(ctx, ids[3]); !mgmt.IsNotFound(err) {
		t.Fatalf("read of the deleted API: %v, want its 404", err)
	}
	// The first two finds of a run look up directly; the third, the read
	// and the deleted API's 404 read nothing but that 404.
	st := emu.Stats().ByRoute
	if st["GET /api/v2/resource-servers"] != 0 || st["GET /api/v2/resource-servers/{id}"] != 3 {
		t.Fatalf("reads after the writes: %v; want no page, two direct finds and the deleted API's 404", st)
	}
}

func TestUnconfigured_failsSayingSo(t *testing.T) {
	tc := conns.Unconfigured()
	if tc.Configured() {
		t.Fatal("Unconfigured reports configured")
	}
	if _, err := tc.ResourceServers.Read(context.Background(), "x"); err == nil {
		t.Fatal("a read through an unconfigured client succeeded")
	}
	if _, err := tc.RolePermissions.Read(context.Background(), "rol_1"); err == nil {
		t.Fatal("a read through an unconfigured client succeeded")
	}
}

// TestRolePermissions_aCancelledReaderDoesNotFailTheOthers: the shared read
// runs on the first reader's context; when that reader gives up, the others
// read anew instead of taking its cancellation.
func TestRolePermissions_aCancelledReaderDoesNotFailTheOthers(t *testing.T) {
	// The first read's request is answered only when its context ends: it
	// can end no other way than by the cancellation, however slow the
	// machine.
	var armed atomic.Bool
	sent := make(chan struct{})
	var once sync.Once
	hold := roundTripper(func(r *http.Request) (*http.Response, error) {
		first := false
		if armed.Load() && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/permissions") {
			once.Do(func() { first = true; close(sent) })
		}
		if first {
			<-r.Context().Done()
			return nil, r.Context().Err()
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	tc, _, roleID, _ := tenantWith(t, &http.Client{Transport: hold})
	armed.Store(true)
	first, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := tc.RolePermissions.Read(first, roleID)
		errs <- err
	}()
	<-sent // the first read is under way
	done := make(chan error, 1)
	go func() {
		_, err := tc.RolePermissions.Read(context.Background(), roleID)
		done <- err
	}()
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled reader got %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the other reader got %v, want its own read", err)
	}
}

// TestRolePermissions_assignmentWaitsForTheScopeWrite: within one apply, an
// assignment that runs before the write of the scope it names (no order
// between the two in Terraform) waits for that write and succeeds, however
// late the write starts within the wait; one whose scope nothing in the run
// writes fails after the wait, and one whose API's resource planned without
// the scope fails at once.
func TestRolePermissions_assignmentWaitsForTheScopeWrite(t *testing.T) {
	ctx := context.Background()
	// The client marks the API's write in flight (mgmt.Config.OnWrite).
	writeScopes := func(tc *conns.TenantClient, ident string, delay time.Duration) {
		time.Sleep(delay)
		scopes := []mgmt.ResourceServerScope{{Value: "a"}, {Value: "b"}, {Value: "c"}, {Value: "new"}}
		if _, err := tc.API.UpdateResourceServer(ctx, ident, mgmt.ResourceServerUpdate{Scopes: mgmt.Set(scopes)}); err != nil {
			t.Error(err)
		}
	}
	for _, planned := range []bool{false, true} {
		t.Run(fmt.Sprintf("the run writes the scope (planned in this process: %v)", planned), func(t *testing.T) {
			tc, _, roleID, ident := tenant(t)
			if planned {
				tc.Planned.DefineScopes(ident, []string{"a", "b", "c", "new"})
			}
			start := time.Now() // before the writer starts its wait
			go writeScopes(tc, ident, 300*time.Millisecond)
			if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("new")}, nil); err != nil {
				t.Fatalf("the assignment did not wait for the scope: %v", err)
			}
			if time.Since(start) < 300*time.Millisecond {
				t.Fatal("the assignment succeeded before the scope existed")
			}
			if got := held(t, tc, roleID); got != "[new]" {
				t.Fatalf("role holds %s", got)
			}
		})
	}
	// The scope's write commits between the tenant's refusal and the
	// assignment's look at the API; the writer ends it at once, or later
	// (it still sets its state).
	for _, endAfter := range []time.Duration{0, 200 * time.Millisecond} {
		t.Run(fmt.Sprintf("the write commits between the refusal and the look at the API (ends after %s)", endAfter), func(t *testing.T) {
			var (
				tc            *conns.TenantClient
				roleID, ident string
				once          sync.Once
			)
			commit := func() {
				end := tc.Scopes.Begin()
				scopes := []mgmt.ResourceServerScope{{Value: "a"}, {Value: "b"}, {Value: "c"}, {Value: "new"}}
				if _, err := tc.API.UpdateResourceServer(ctx, ident, mgmt.ResourceServerUpdate{Scopes: mgmt.Set(scopes)}); err != nil {
					t.Error(err)
				}
				time.AfterFunc(endAfter, end)
			}
			refuse := roundTripper(func(r *http.Request) (*http.Response, error) {
				resp, err := http.DefaultTransport.RoundTrip(r)
				if err == nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/permissions") && resp.StatusCode == http.StatusBadRequest {
					once.Do(commit)
				}
				return resp, err
			})
			tc, _, roleID, ident = tenantWith(t, &http.Client{Transport: refuse})
			if _, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("new")}, nil); err != nil {
				t.Fatalf("the assignment did not try again after the scope write: %v", err)
			}
			if got := held(t, tc, roleID); got != "[new]" {
				t.Fatalf("role holds %s", got)
			}
		})
	}
	t.Run("nothing writes it", func(t *testing.T) {
		tc, _, roleID, _ := tenant(t)
		tc.Scopes.Wait = 200 * time.Millisecond
		start := time.Now()
		_, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("undefined")}, nil)
		if !mgmt.IsBadRequest(err) {
			t.Fatalf("err = %v, want the tenant's refusal", err)
		}
		if d := time.Since(start); d < tc.Scopes.Wait {
			t.Fatalf("failed after %s, want after the wait (%s)", d, tc.Scopes.Wait)
		}
	})
	t.Run("the API's resource planned without it", func(t *testing.T) {
		tc, _, roleID, ident := tenant(t)
		tc.Planned.DefineScopes(ident, []string{"a", "b", "c"})
		start := time.Now()
		_, err := tc.RolePermissions.Change(ctx, roleID, []mgmt.Permission{pair("undefined")}, nil)
		if !mgmt.IsBadRequest(err) {
			t.Fatalf("err = %v, want the tenant's refusal", err)
		}
		if d := time.Since(start); d >= tc.Scopes.Wait {
			t.Fatalf("failed after %s, want at once: no write of the run adds the scope", d)
		}
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
