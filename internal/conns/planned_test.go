package conns

import (
	"fmt"
	"testing"
)

// TestPlanned: whichever of an API and a role permission plans second sees
// the other: a permission that planned first is returned to the API when
// the API will not define its scope; an API that planned first answers the
// permission's lookup.
func TestPlanned(t *testing.T) {
	p := newPlanned()
	p.NeedScope("https://a", "read", "rol_1")
	p.NeedScope("https://a", "write", "rol_1")
	p.NeedScope("https://a", "write", "rol_2")
	missing := p.DefineScopes("https://a", []string{"read"})
	if fmt.Sprint(missing) != "map[write:[rol_1 rol_2]]" {
		t.Fatalf("missing %v", missing)
	}
	if scopes, ok := p.Scopes("https://a"); !ok || !scopes["read"] || scopes["write"] {
		t.Fatalf("scopes %v %v", scopes, ok)
	}
	if _, ok := p.Scopes("https://b"); ok {
		t.Fatal("an API that did not plan has scopes")
	}
	p.Own("identifier", "https://a", "id-1")
	if !p.Owns("identifier", "https://a", "id-1") || p.Owns("identifier", "https://a", "id-2") || p.Owns("role name", "https://a", "id-1") {
		t.Fatal("ownership is by kind, key and id")
	}
	if p.Deploys("act") {
		t.Fatal("deploys before Deploy")
	}
	p.Deploy("act")
	if !p.Deploys("act") {
		t.Fatal("Deploy not recorded")
	}
}
