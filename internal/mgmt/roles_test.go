package mgmt_test

import (
	"context"
	"io"
	"net/http"
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
