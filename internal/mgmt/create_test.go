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
	for _, tc := range []struct {
		name        string
		creates     []error // answers of successive creates
		found       *obj    // what lookup returns
		wantOutcome mgmt.CreateOutcome
		wantErr     string
		wantCreates int
	}{
		{"plain success", []error{nil}, nil, mgmt.Created, "", 1},
		{"lost answer, applied, same", []error{lost}, &obj{"k", "v"}, mgmt.Adopted, "", 1},
		{"lost answer, applied, different", []error{lost}, &obj{"k", "other"}, mgmt.Created, "differs", 1},
		{"lost answer, not applied: retried", []error{lost, nil}, nil, mgmt.Created, "", 2},
		{"409 same", []error{conflict}, &obj{"k", "v"}, mgmt.Adopted, "", 1},
		{"409 different", []error{conflict}, &obj{"k", "x"}, mgmt.Created, "differs", 1},
		{"409 not found", []error{conflict}, nil, mgmt.Created, "409", 1},
		{"400 not looked up", []error{mgmt.ParseAPIError("POST", "/x", 400, nil)}, &obj{"k", "v"}, mgmt.Created, "400", 1},
		{"always lost", []error{lost, lost, lost}, nil, mgmt.Created, "unexpected EOF", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			got, outcome, err := mgmt.SafeCreate(context.Background(), 3,
				func() (*obj, error) {
					e := tc.creates[n]
					n++
					if e != nil {
						return nil, e
					}
					return &obj{"k", "v"}, nil
				},
				func() (*obj, error) { return tc.found, nil },
				func(o *obj) bool { return o.Val == "v" })
			if n != tc.wantCreates || outcome != tc.wantOutcome {
				t.Fatalf("creates %d outcome %v", n, outcome)
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
