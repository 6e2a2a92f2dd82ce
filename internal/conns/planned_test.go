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
	p.ScopesUnknown("https://b")
	if scopes, ok := p.Scopes("https://b"); !ok || scopes != nil {
		t.Fatalf("scopes unknown until apply: %v %v", scopes, ok)
	}
	if missing := p.DefineScopes("https://c", nil); len(missing) != 0 {
		t.Fatalf("missing %v", missing)
	}
	if scopes, ok := p.Scopes("https://c"); !ok || scopes == nil || len(scopes) != 0 {
		t.Fatalf("an API that will define no scope: %v %v", scopes, ok)
	}
	if p.Deploys("act") {
		t.Fatal("deploys before Deploy")
	}
	p.Deploy("act")
	if !p.Deploys("act") {
		t.Fatal("Deploy not recorded")
	}
}

// TestPlanned_mayDefine: a scope may come from the run only from an API
// whose resource plans it, plans scopes unknown until apply, or from any API
// once a resource plans an identifier unknown until apply.
func TestPlanned_mayDefine(t *testing.T) {
	p := newPlanned()
	p.DefineScopes("https://a", []string{"read"})
	p.ScopesUnknown("https://b")
	for _, tc := range []struct {
		ident, scope string
		want         bool
	}{{"https://a", "read", true}, {"https://a", "write", false}, {"https://b", "any", true}, {"https://outside", "read", false}} {
		if got := p.MayDefine(tc.ident, tc.scope); got != tc.want {
			t.Errorf("MayDefine(%s, %s) = %v, want %v", tc.ident, tc.scope, got, tc.want)
		}
	}
	p.IdentifierUnknown()
	if !p.MayDefine("https://outside", "read") || p.MayDefine("https://a", "write") {
		t.Error("an identifier unknown until apply: any API not planned may be it; a planned one keeps its scopes")
	}
}
