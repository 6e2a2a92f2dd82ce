package emulator

import (
	"net/url"
	"testing"
)

// TestSeed_systemAPI: the tenant's system API has the name, identifier and
// flag the API shows (reference §4).
func TestSeed_systemAPI(t *testing.T) {
	h := start(t, Options{})
	r := h.call(h.admin(), "GET", "/api/v2/resource-servers/"+url.PathEscape(h.s.Audience()), nil)
	h.expect(r, 200)
	m := r.json(t)
	if m["name"] != "Auth0 Management API" || m["identifier"] != h.s.Audience() || m["is_system"] != true {
		t.Fatalf("system API: name %v, identifier %v, is_system %v", m["name"], m["identifier"], m["is_system"])
	}
}
