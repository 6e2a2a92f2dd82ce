package mgmt_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestFindResourceServer: GET by identifier; a 404 is none, and so is an
// answer for an API whose id, not identifier, is the value.
func TestFindResourceServer(t *testing.T) {
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch strings.TrimPrefix(r.URL.EscapedPath(), "/api/v2/resource-servers/") {
		case "https:%2F%2Fa":
			fmt.Fprint(w, `{"id":"000000000000000000000001","identifier":"https://a"}`)
		case "000000000000000000000002":
			fmt.Fprint(w, `{"id":"000000000000000000000002","identifier":"https://b"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"statusCode":404,"error":"Not Found","message":"The resource server does not exist"}`)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	if s, err := c.FindResourceServer(ctx, "https://a"); err != nil || s == nil || s.ID != "000000000000000000000001" {
		t.Fatalf("https://a: %v %v", s, err)
	}
	for _, v := range []string{"https://none", "000000000000000000000002"} {
		if s, err := c.FindResourceServer(ctx, v); err != nil || s != nil {
			t.Fatalf("%s: %v %v", v, s, err)
		}
	}
}
