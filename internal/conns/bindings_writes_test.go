package conns_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
	"github.com/tenant-iac/terraform-provider-tenant/internal/testorder"
)

// waitsAfterWrites starts AfterWrites of trigger and fails the test (saying
// it returned when) unless it waits; it returns what is closed when it
// returns.
func waitsAfterWrites(t *testing.T, tc *conns.TenantClient, trigger, when string) (returned chan struct{}) {
	t.Helper()
	wctx := testorder.NewContext(context.Background())
	returned = make(chan struct{})
	go func() {
		tc.Bindings.AfterWrites(wctx, trigger)
		close(returned)
	}()
	select {
	case <-wctx.Waiting:
	case <-returned:
		t.Fatalf("AfterWrites returned %s", when)
	}
	return returned
}

// TestTriggerBindings_afterWrites: AfterWrites returns only once the write
// of the trigger's bindings in flight has ended, and a Read after it shows
// what the write left (a bound action's refused delete relies on both), even
// when the trigger was read before the write.
func TestTriggerBindings_afterWrites(t *testing.T) {
	var (
		mu       sync.Mutex
		bindings = []mgmt.TriggerBinding{}
		arrived  = make(chan struct{})
		release  = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v2/actions/triggers/post-login/bindings" {
			http.NotFound(w, r)
			return
		}
		if r.Method == http.MethodPatch {
			close(arrived)
			<-release
			mu.Lock()
			bindings = []mgmt.TriggerBinding{{ID: "b1", TriggerID: "post-login", DisplayName: "a", Action: mgmt.Action{ID: "act1"}}}
			mu.Unlock()
		}
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"bindings": bindings})
	}))
	t.Cleanup(srv.Close)
	var releaseOnce sync.Once
	free := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(free) // before srv.Close, which waits for the held write
	tc, err := conns.New(mgmt.Config{Domain: srv.URL, APIToken: "token", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	if got, err := tc.Bindings.Read(ctx, "post-login"); err != nil || len(got) != 0 {
		t.Fatalf("before the write: %v %v", got, err)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := tc.API.UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: "act1"}, DisplayName: "a"}})
		wrote <- err
	}()
	<-arrived // the write is sent, and held by the tenant until release

	returned := waitsAfterWrites(t, tc, "post-login", "while the write of the trigger's bindings was in flight")
	free()
	<-returned
	got, err := tc.Bindings.Read(ctx, "post-login")
	if err != nil || len(got) != 1 || got[0].Action.ID != "act1" {
		t.Fatalf("a read after AfterWrites: %v %v, want the binding the write left", got, err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
}

// TestTriggerBindings_writing: a change of a trigger's bindings counted
// whole (Writing) holds AfterWrites between its requests, when none is in
// flight, and until its end; of two changes, the end of one, even counted
// twice, leaves AfterWrites waiting for the other; another trigger's
// changes do not hold it.
func TestTriggerBindings_writing(t *testing.T) {
	tc, err := conns.New(mgmt.Config{Domain: "http://127.0.0.1:1", APIToken: "token", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	other := tc.Bindings.Writing("credentials-exchange")
	defer other()
	tc.Bindings.AfterWrites(ctx, "post-login") // none of that trigger: returns at once

	first, second := tc.Bindings.Writing("post-login"), tc.Bindings.Writing("post-login")
	before := waitsAfterWrites(t, tc, "post-login", "while two changes of the trigger's bindings were under way")
	first()
	first()
	after := waitsAfterWrites(t, tc, "post-login", "while the second change was under way (the first's end counted twice)")
	second()
	<-before
	<-after
}
