package mgmt_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestIsUncertain(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		want bool
	}{
		"500":      {mgmt.ParseAPIError("POST", "/x", 500, nil), true},
		"502":      {mgmt.ParseAPIError("POST", "/x", 502, nil), true},
		"503":      {mgmt.ParseAPIError("POST", "/x", 503, nil), true},
		"redirect": {&mgmt.RedirectError{Status: 307}, false},
		"path":     {&mgmt.PathError{Path: "/roles/.."}, false},
		"409":      {mgmt.ParseAPIError("POST", "/x", 409, nil), false},
		"400":      {mgmt.ParseAPIError("POST", "/x", 400, nil), false},
		"eof":      {fmt.Errorf("post: %w", io.ErrUnexpectedEOF), true},
		"dial":     {&net.OpError{Op: "dial", Err: errors.New("refused")}, false},
		"token":    {&mgmt.TokenError{StatusCode: 401}, false},
		"canceled": {context.Canceled, false},
		"nil":      {nil, false},
	} {
		if got := mgmt.IsUncertain(tc.err); got != tc.want {
			t.Errorf("%s: got %v", name, got)
		}
	}
}

type obj struct{ Key, Val string }

func TestSafeCreate(t *testing.T) {
	lost := fmt.Errorf("post: %w", io.ErrUnexpectedEOF)
	conflict := mgmt.ParseAPIError("POST", "/x", 409, []byte(`{"message":"exists"}`))
	unavailable := mgmt.ParseAPIError("POST", "/x", 503, nil)
	same, other := &obj{"k", "v"}, &obj{"k", "other"}
	for _, tc := range []struct {
		name        string
		creates     []error // answers of successive creates
		lookups     []*obj  // what successive lookups return
		wantOutcome mgmt.CreateOutcome
		wantErr     string
		wantCreates int
	}{
		{"plain success", []error{nil}, nil, mgmt.Created, "", 1},
		{"lost answer, applied, same", []error{lost}, []*obj{same}, mgmt.Adopted, "", 1},
		{"lost answer, applied, different", []error{lost}, []*obj{other}, mgmt.Created, "differs", 1},
		{"lost answer, not applied: retried", []error{lost, nil}, []*obj{nil}, mgmt.Created, "", 2},
		{"503 looked up, not applied: retried", []error{unavailable, nil}, []*obj{nil}, mgmt.Created, "", 2},
		{"lost, then 409 for this create's object: adopted", []error{lost, conflict}, []*obj{nil, same}, mgmt.Adopted, "", 2},
		{"lost, then 409 for another object", []error{lost, conflict}, []*obj{nil, other}, mgmt.Created, "differs", 2},
		{"first 409, equal object: not adopted", []error{conflict}, []*obj{same}, mgmt.Created, "already exists", 1},
		{"first 409, different object", []error{conflict}, []*obj{other}, mgmt.Created, "already exists", 1},
		{"first 409, object not found", []error{conflict}, []*obj{nil}, mgmt.Created, "already exists", 1},
		{"400 not looked up", []error{mgmt.ParseAPIError("POST", "/x", 400, nil)}, nil, mgmt.Created, "400", 1},
		{"always lost", []error{lost, lost, lost}, []*obj{nil, nil, nil}, mgmt.Created, "unexpected EOF", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, l := 0, 0
			got, outcome, err := mgmt.SafeCreate(context.Background(), 3,
				func() (*obj, error) {
					e := tc.creates[n]
					n++
					if e != nil {
						return nil, e
					}
					return &obj{"k", "v"}, nil
				},
				func() (*obj, error) {
					f := tc.lookups[l]
					l++
					return f, nil
				},
				func(o *obj) bool { return o.Val == "v" })
			if n != tc.wantCreates || outcome != tc.wantOutcome || l != len(tc.lookups) {
				t.Fatalf("creates %d lookups %d outcome %v", n, l, outcome)
			}
			if tc.wantErr == "" && (err != nil || got == nil) || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("got %v err %v", got, err)
			}
		})
	}
}

func TestTokenCache_shortLivedTokensReusedAndExpiredRefetched(t *testing.T) {
	var expired atomic.Bool
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if expired.CompareAndSwap(true, false) {
			jsonReply(w, 401, `{"statusCode":401,"error":"Unauthorized","message":"Expired token received for JSON Web Token validation"}`)
			return
		}
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	for range 5 {
		if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.tokens.Load(); n != 1 {
		t.Fatalf("token fetches = %d, want 1 (a 24h token is reused)", n)
	}
	expired.Store(true)
	if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
		t.Fatalf("an expired token must be refetched and the call repeated: %v", err)
	}
	if n := f.tokens.Load(); n != 2 {
		t.Fatalf("token fetches = %d, want 2", n)
	}
}

func TestClient_permissionPOSTRetriedAfterLostAnswer(t *testing.T) {
	calls := atomic.Int64{}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			jsonReply(w, 500, `{}`)
		case 2:
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		default:
			jsonReply(w, 201, `{}`)
		}
	})
	err := f.client(t).AddRolePermissions(context.Background(), "rol_1", []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "p"}})
	if err != nil || calls.Load() != 3 {
		t.Fatalf("err %v after %d calls", err, calls.Load())
	}
}
