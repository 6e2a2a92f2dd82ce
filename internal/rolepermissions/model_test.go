package rolepermissions

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestDiff(t *testing.T) {
	p := func(n string) mgmt.Permission {
		return mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: n}
	}
	added, removed := diff([]mgmt.Permission{p("b"), p("c"), p("a")}, []mgmt.Permission{p("c"), p("d")})
	if fmt.Sprint(added) != fmt.Sprint([]mgmt.Permission{p("a"), p("b")}) || fmt.Sprint(removed) != fmt.Sprint([]mgmt.Permission{p("d")}) {
		t.Fatalf("added %v removed %v", added, removed)
	}
	if a, r := diff([]mgmt.Permission{p("x")}, []mgmt.Permission{p("x")}); a != nil || r != nil {
		t.Fatalf("no change: %v %v", a, r)
	}
}

func TestPermissionsModel_roundTrip(t *testing.T) {
	var m permissionsModel
	in := []mgmt.RolePermission{{Permission: mgmt.Permission{ResourceServerIdentifier: "https://a", PermissionName: "read:a"}, Description: "d"}}
	if d := m.fromAPI("rol_1", in); d.HasError() {
		t.Fatal(d)
	}
	pairs, d := m.pairs(context.Background())
	if d.HasError() || len(pairs) != 1 || pairs[0] != in[0].Permission || m.ID.ValueString() != "rol_1" {
		t.Fatalf("%v %v %v", pairs, d, m)
	}
}

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	NewRoleDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
}
