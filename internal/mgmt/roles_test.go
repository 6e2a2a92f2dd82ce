package mgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestUpdateRole_sendsOnlyTheFieldsSet(t *testing.T) {
	var bodies []string
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch || r.URL.EscapedPath() != "/api/v2/roles/rol_1" {
			t.Errorf("unexpected %s %s", r.Method, r.URL.EscapedPath())
		}
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		jsonReply(w, 200, `{"id":"rol_1","name":"n","description":""}`)
	})
	c := f.client(t)
	ctx := context.Background()
	for _, in := range []mgmt.RoleUpdate{
		{Name: mgmt.Set("n")},
		{Description: mgmt.Set("")},
		{Description: mgmt.Null[string]()},
		{Name: mgmt.Set("n"), Description: mgmt.Set("d")},
	} {
		r, err := c.UpdateRole(ctx, "rol_1", in)
		if err != nil || r.ID != "rol_1" {
			t.Fatalf("%v %v", r, err)
		}
	}
	want := []string{`{"name":"n"}`, `{"description":""}`, `{"description":null}`, `{"name":"n","description":"d"}`}
	for i := range want {
		if bodies[i] != want[i] {
			t.Errorf("body %d = %s, want %s", i, bodies[i], want[i])
		}
	}
}

func TestDiffPermissions(t *testing.T) {
	p := func(n string) mgmt.Permission {
		return mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: n}
	}
	added, removed := mgmt.DiffPermissions([]mgmt.Permission{p("b"), p("c"), p("a")}, []mgmt.Permission{p("c"), p("d")})
	if fmt.Sprint(added) != fmt.Sprint([]mgmt.Permission{p("a"), p("b")}) || fmt.Sprint(removed) != fmt.Sprint([]mgmt.Permission{p("d")}) {
		t.Fatalf("added %v removed %v", added, removed)
	}
	if a, r := mgmt.DiffPermissions([]mgmt.Permission{p("x")}, []mgmt.Permission{p("x")}); a != nil || r != nil {
		t.Fatalf("no change: %v %v", a, r)
	}
}

// TestRemoveRolePermissions_404: a 404 to a removal is success only when
// the role is gone or no longer holds the pairs; a 404 about something else
// (an API that does not exist) while the role still holds a pair is an
// error that names the pairs.
func TestRemoveRolePermissions_404(t *testing.T) {
	for name, tc := range map[string]struct {
		roleStatus int
		held       string
		wantHeld   int // -1: no error
	}{
		"the role is gone":            {404, "", -1},
		"the pairs are gone":          {200, `{"permissions":[],"start":0,"limit":100,"total":0}`, -1},
		"the role still holds a pair": {200, `{"permissions":[{"permission_name":"p","resource_server_identifier":"https://gone"}],"start":0,"limit":100,"total":1}`, 1},
	} {
		t.Run(name, func(t *testing.T) {
			var deletes int
			f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodDelete && r.URL.Path == "/api/v2/roles/rol_1/permissions":
					deletes++
					jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"The resource server does not exist: 'https://gone'"}`)
				case r.Method == http.MethodGet && r.URL.Path == "/api/v2/roles/rol_1" && tc.roleStatus == 200:
					jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
				case r.Method == http.MethodGet && r.URL.Path == "/api/v2/roles/rol_1":
					jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"The role does not exist."}`)
				case r.Method == http.MethodGet && r.URL.Path == "/api/v2/roles/rol_1/permissions" && tc.held != "":
					jsonReply(w, 200, tc.held)
				default:
					t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
				}
			})
			err := f.client(t).RemoveRolePermissions(context.Background(), "rol_1", []mgmt.Permission{{ResourceServerIdentifier: "https://gone", PermissionName: "p"}})
			var still *mgmt.StillAssignedError
			switch {
			case tc.wantHeld < 0 && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tc.wantHeld >= 0 && (!errors.As(err, &still) || len(still.Held) != tc.wantHeld || !mgmt.IsNotFound(err)):
				t.Fatalf("err = %v, want the 404 with %d pair(s) still held", err, tc.wantHeld)
			}
			if deletes != 1 {
				t.Fatalf("%d DELETEs", deletes)
			}
		})
	}
}

// TestFindRole: one role of the name, none, or two (an error naming them);
// a role whose name only contains the filter is not a match.
func TestFindRole(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("name_filter") {
		case "one":
			fmt.Fprint(w, `{"roles":[{"id":"rol_1","name":"one"},{"id":"rol_9","name":"one more"}],"total":2,"start":0,"limit":100}`)
		case "two":
			fmt.Fprint(w, `{"roles":[{"id":"rol_1","name":"two"},{"id":"rol_2","name":"two"}],"total":2,"start":0,"limit":100}`)
		default:
			fmt.Fprint(w, `{"roles":[],"total":0,"start":0,"limit":100}`)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	if r, err := c.FindRole(ctx, "one"); err != nil || r == nil || r.ID != "rol_1" {
		t.Fatalf("one: %v %v", r, err)
	}
	if r, err := c.FindRole(ctx, "none"); err != nil || r != nil {
		t.Fatalf("none: %v %v", r, err)
	}
	if _, err := c.FindRole(ctx, "two"); err == nil || !strings.Contains(err.Error(), `2 roles are named "two" (rol_1, rol_2)`) {
		t.Fatalf("two: %v", err)
	}
}

// TestAddRolePermissions_heldPair: whether the tenant answers 201 or 409 to
// a pair the role already holds is not known (reference §3, §8). Either
// way the assignment succeeds and the role ends holding every pair: after a
// 409 the role's permissions are read once and the pairs it lacks are sent
// again.
func TestAddRolePermissions_heldPair(t *testing.T) {
	for _, conflict := range []bool{false, true} {
		t.Run(fmt.Sprintf("409 %t", conflict), func(t *testing.T) {
			var mu sync.Mutex
			held := map[string]bool{"held": true}
			var posts, reads int
			f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				switch {
				case r.Method == http.MethodPost && r.URL.Path == "/api/v2/roles/rol_1/permissions":
					posts++
					var body struct{ Permissions []mgmt.Permission }
					_ = json.NewDecoder(r.Body).Decode(&body)
					for _, p := range body.Permissions {
						if held[p.PermissionName] && conflict {
							jsonReply(w, 409, `{"statusCode":409,"error":"Conflict","message":"The role already has the permission '`+p.PermissionName+`'."}`)
							return
						}
					}
					for _, p := range body.Permissions {
						held[p.PermissionName] = true
					}
					jsonReply(w, 201, `{}`)
				case r.Method == http.MethodGet && r.URL.Path == "/api/v2/roles/rol_1/permissions":
					reads++
					var items []string
					for n := range held {
						items = append(items, `{"permission_name":"`+n+`","resource_server_identifier":"https://a"}`)
					}
					jsonReply(w, 200, fmt.Sprintf(`{"permissions":[%s],"start":0,"limit":100,"total":%d}`, strings.Join(items, ","), len(items)))
				default:
					t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
				}
			})
			err := f.client(t).AddRolePermissions(context.Background(), "rol_1", []mgmt.Permission{
				{ResourceServerIdentifier: "https://a", PermissionName: "held"},
				{ResourceServerIdentifier: "https://a", PermissionName: "new"},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !held["held"] || !held["new"] {
				t.Fatalf("the role holds %v", held)
			}
			want := map[bool][2]int{false: {1, 0}, true: {2, 1}}[conflict]
			if [2]int{posts, reads} != want {
				t.Fatalf("%d POSTs and %d reads, want %v", posts, reads, want)
			}
		})
	}
}

// TestAddRolePermissions_conflictNotAboutHeldPairs: a 409 after which the
// role still lacks a pair, the second time too, is the tenant's error.
func TestAddRolePermissions_conflictNotAboutHeldPairs(t *testing.T) {
	var posts int
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			posts++
			jsonReply(w, 409, `{"statusCode":409,"error":"Conflict","message":"Something else."}`)
		case r.Method == http.MethodGet:
			jsonReply(w, 200, `{"permissions":[],"start":0,"limit":100,"total":0}`)
		}
	})
	err := f.client(t).AddRolePermissions(context.Background(), "rol_1", []mgmt.Permission{{ResourceServerIdentifier: "https://a", PermissionName: "p"}})
	if !mgmt.IsConflict(err) || !strings.Contains(err.Error(), "Something else.") || posts != 2 {
		t.Fatalf("err = %v after %d POSTs, want the 409 after 2", err, posts)
	}
}

// TestFindRolesByPrefix: how name_filter matches is not documented
// (reference §3); the prefix is found whichever way it does, here a tenant
// whose filter matches whole names only.
func TestFindRolesByPrefix(t *testing.T) {
	roles := []string{"tf-acc-a", "other", "tf-acc-b", "x-tf-acc-c"}
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		var items []string
		for i, n := range roles {
			if filter := r.URL.Query().Get("name_filter"); filter == "" || strings.EqualFold(filter, n) {
				items = append(items, fmt.Sprintf(`{"id":"rol_%d","name":%q}`, i, n))
			}
		}
		jsonReply(w, 200, fmt.Sprintf(`{"roles":[%s],"total":%d,"start":0,"limit":100}`, strings.Join(items, ","), len(items)))
	})
	got, err := f.client(t).FindRolesByPrefix(context.Background(), "tf-acc-")
	if err != nil || len(got) != 2 || got[0].Name != "tf-acc-a" || got[1].Name != "tf-acc-b" {
		t.Fatalf("%v %v, want tf-acc-a and tf-acc-b", got, err)
	}
}
