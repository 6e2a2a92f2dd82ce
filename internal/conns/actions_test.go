package conns_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/conns"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestActionReads_failedReadKeepsANewerOne: a read that fails after a write
// of its action made a newer read start does not drop the newer one, which
// the next reader shares instead of sending a request of its own.
func TestActionReads_failedReadKeepsANewerOne(t *testing.T) {
	ctx := context.Background()
	var (
		gets             atomic.Int32
		started1, first  = make(chan struct{}), make(chan struct{})
		started2, second = make(chan struct{}), make(chan struct{})
		actionID         atomic.Value
		tc               *conns.TenantClient
		forbidden        = `{"statusCode":403,"error":"Forbidden","message":"Insufficient scope"}`
	)
	actionID.Store("")
	gate := roundTripper(func(r *http.Request) (*http.Response, error) {
		id, _ := actionID.Load().(string)
		if r.Method != http.MethodGet || id == "" || !strings.HasSuffix(r.URL.Path, "/actions/actions/"+id) {
			return http.DefaultTransport.RoundTrip(r)
		}
		switch gets.Add(1) {
		case 1: // the first read fails, once the second has started
			close(started1)
			<-first
			return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(forbidden)), Request: r}, nil
		case 2:
			close(started2)
			<-second
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	tc, _, _, _ = tenantWith(t, &http.Client{Transport: gate})
	a, err := tc.API.CreateAction(ctx, mgmt.ActionCreate{Name: "a", SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}}, Code: "x"})
	if err != nil {
		t.Fatal(err)
	}
	actionID.Store(a.ID)

	failed := make(chan error)
	go func() {
		_, err := tc.Actions.Read(ctx, a.ID)
		failed <- err
	}()
	<-started1
	// A write of the action: the next read reads it anew.
	if _, err := tc.API.UpdateAction(ctx, a.ID, mgmt.ActionUpdate{Name: mgmt.Set("b")}); err != nil {
		t.Fatal(err)
	}
	newer := make(chan error)
	go func() {
		_, err := tc.Actions.Read(ctx, a.ID)
		newer <- err
	}()
	<-started2
	close(first)
	if err := <-failed; err == nil {
		t.Fatal("the first read did not fail")
	}
	close(second)
	if err := <-newer; err != nil {
		t.Fatal(err)
	}
	got, err := tc.Actions.Read(ctx, a.ID)
	if err != nil || got.Name != "b" {
		t.Fatalf("%v %v", got, err)
	}
	if n := gets.Load(); n != 2 {
		t.Fatalf("%d reads of the action, want 2: the failed read dropped the newer one", n)
	}
}
