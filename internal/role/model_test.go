package role

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestPermissionsModel_roundTrip(t *testing.T) {
	var m permissionsExclusiveModel
	in := []mgmt.RolePermission{{Permission: mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: "read:a"}, Description: "d"}}
	if d := m.fromAPI("rol_1", in); d.HasError() {
		t.Fatal(d)
	}
	pairs, known := m.pairs()
	if !known || len(pairs) != 1 || pairs[0] != in[0].Permission || m.ID.ValueString() != "rol_1" {
		t.Fatalf("%v %v", pairs, m)
	}
}

// TestPermissionsModel_groupsByAPI: pairs of several APIs become one set of
// names per API identifier, and come back as the same pairs, sorted.
func TestPermissionsModel_groupsByAPI(t *testing.T) {
	p := func(ident, name string) mgmt.Permission {
		return mgmt.Permission{ResourceServerIdentifier: ident, PermissionName: name}
	}
	in := []mgmt.Permission{p("https://b", "write"), p("https://a", "read"), p("https://b", "read"), p("urn:a::b", "x")}
	var m permissionsExclusiveModel
	if d := m.fromPairs("rol_1", in); d.HasError() {
		t.Fatal(d)
	}
	elems := m.Permissions.Elements()
	if len(elems) != 3 || len(elems["https://b"].(framework.UnorderedList).Elements()) != 2 {
		t.Fatalf("grouped as %v", m.Permissions)
	}
	want := []mgmt.Permission{p("https://a", "read"), p("https://b", "read"), p("https://b", "write"), p("urn:a::b", "x")}
	if got, known := m.pairs(); !known || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
}

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	for _, r := range []resource.Resource{NewPermissionsExclusiveResource(), NewResource(), NewPermissionResource()} {
		var rs resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &rs)
		if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Fatal(d)
		}
		for name, a := range rs.Schema.Attributes {
			if d := a.GetMarkdownDescription(); d == "" || !strings.HasSuffix(d, ".") {
				t.Errorf("%T %s: description %q is not a sentence", r, name, d)
			}
		}
	}
	var ds datasource.SchemaResponse
	NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
}

func TestRoleModel_toUpdateSendsOnlyWhatChanged(t *testing.T) {
	state := roleModel{ID: types.StringValue("rol_1"), Name: types.StringValue("a"), Description: types.StringValue("d")}
	for _, tc := range []struct {
		name, description string
		want              string
	}{
		{"a", "d", `{}`},
		{"b", "d", `{"name":"b"}`},
		{"a", "e", `{"description":"e"}`},
		{"a", "", `{"description":""}`}, // removed: back to the default
		{"b", "", `{"name":"b","description":""}`},
	} {
		plan := roleModel{ID: state.ID, Name: types.StringValue(tc.name), Description: types.StringValue(tc.description)}
		b, err := json.Marshal(plan.toUpdate(state))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%q/%q: got %s, want %s", tc.name, tc.description, b, tc.want)
		}
	}
}

func TestRoleModel_createAndFromAPI(t *testing.T) {
	b, err := json.Marshal(roleModel{Name: types.StringValue("a"), Description: types.StringValue("")}.toCreate())
	if err != nil || string(b) != `{"name":"a"}` {
		t.Fatalf("create body without description: %s %v", b, err)
	}
	b, _ = json.Marshal(roleModel{Name: types.StringValue("a"), Description: types.StringValue("d")}.toCreate())
	if string(b) != `{"name":"a","description":"d"}` {
		t.Fatalf("create body: %s", b)
	}
	var m roleModel
	m.fromAPI(&mgmt.Role{ID: "rol_1", Name: "a"}) // the POST reply omits a description never sent
	if m.ID.ValueString() != "rol_1" || m.Name.ValueString() != "a" || m.Description.IsNull() || m.Description.ValueString() != "" {
		t.Fatalf("%+v", m)
	}
}

func TestParsePairID(t *testing.T) {
	for _, tc := range []struct {
		id, role, ident, name, problem string
	}{
		{"rol_1::https://api.example.com/orders/::read:orders", "rol_1", "https://api.example.com/orders/", "read:orders", ""},
		{"rol_1::urn:acme::orders::read", "rol_1", "urn:acme::orders", "read", ""},
		{"rol_1::https://[::1]/api::write:all", "rol_1", "https://[::1]/api", "write:all", ""},
		{"rol_1::urn:x::::p", "rol_1", "urn:x::", "p", ""},
		{"rol_1", "", "", "", "three parts"},
		{"rol_1::https://a", "", "", "", "three parts"},
		{":::", "", "", "", "three parts"},
		{"::https://a::p", "", "", "", "empty role id"},
		{"..::https://a::p", "", "", "", "not one (rol_ followed by letters and digits)"},
		{"rol_x/../y::https://a::p", "", "", "", "not one (rol_ followed by letters and digits)"},
		{"rol_1::::p", "", "", "", "empty resource server identifier"},
		{"rol_1::https://a::", "", "", "", "empty permission name"},
	} {
		role, p, problem := parsePairID(tc.id)
		if tc.problem != "" {
			if !strings.Contains(problem, tc.problem) {
				t.Errorf("%q: problem %q, want %q", tc.id, problem, tc.problem)
			}
			continue
		}
		if problem != "" || role != tc.role || p.ResourceServerIdentifier != tc.ident || p.PermissionName != tc.name {
			t.Errorf("%q: got %q %+v %q", tc.id, role, p, problem)
		}
		if back := pairID(role, p); back != tc.id {
			t.Errorf("%q: pairID gives %q", tc.id, back)
		}
	}
}

// TestIdentityProblem: each identity value must name exactly the part of its
// name; a hostile value that would move into another part, or change the
// route, is refused.
func TestIdentityProblem(t *testing.T) {
	for _, tc := range []struct {
		role, ident, name, problem string
	}{
		{"rol_1", "https://a", "read", ""},
		{"rol_1", "urn:a::b", "read", ""},
		{"rol_1::urn:adv", "split", "read", "not a role id"},
		{"rol_x::zzz", "https://a", "read", "not a role id"},
		{"rol_1", "", "read", "cannot name an API"},
		{"rol_1", "..", "read", "cannot name an API"},
		{"rol_1", "https://a", "", "cannot name a permission"},
		{"rol_1", "https://a", "read all", "cannot name a permission"},
	} {
		got := identityProblem(tc.role, mgmt.Permission{ResourceServerIdentifier: tc.ident, PermissionName: tc.name})
		if (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
			t.Errorf("%q %q %q: problem %q, want %q", tc.role, tc.ident, tc.name, got, tc.problem)
		}
	}
}

func FuzzParsePairID(f *testing.F) {
	for _, s := range []string{"rol_1::https://a::p", "a::b", "::::", "rol::urn:a::b::c", "x::y::z::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		role, p, problem := parsePairID(id)
		if problem != "" {
			return
		}
		if role == "" || p.ResourceServerIdentifier == "" || p.PermissionName == "" || strings.Contains(role, framework.ImportSep) || strings.Contains(p.PermissionName, framework.ImportSep) {
			t.Fatalf("%q parsed as %q %+v", id, role, p)
		}
		if pairID(role, p) != id {
			t.Fatalf("%q does not round-trip: %q", id, pairID(role, p))
		}
	})
}

func TestPickRole(t *testing.T) {
	if _, problem := pickRole("a", nil); !strings.Contains(problem, `No role is named exactly "a"`) {
		t.Fatal(problem)
	}
	if r, problem := pickRole("a", []mgmt.Role{{ID: "rol_1", Name: "a"}}); problem != "" || r.ID != "rol_1" {
		t.Fatal(problem)
	}
	if _, problem := pickRole("a", []mgmt.Role{{ID: "rol_1", Name: "a"}, {ID: "rol_2", Name: "a"}}); !strings.Contains(problem, "2 roles are named \"a\" (ids rol_1, rol_2)") {
		t.Fatal(problem)
	}
}
