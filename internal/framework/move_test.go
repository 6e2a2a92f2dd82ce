package framework_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

func TestFromIncumbent(t *testing.T) {
	type src struct {
		ID string `json:"id"`
	}
	var got []string
	mover := framework.FromIncumbent("auth0_role", func(_ context.Context, s src, _ *resource.MoveStateResponse) {
		got = append(got, s.ID)
	})
	move := func(provider, typ string, version int64, state string) *resource.MoveStateResponse {
		var resp resource.MoveStateResponse
		mover.StateMover(context.Background(), resource.MoveStateRequest{
			SourceProviderAddress: provider, SourceTypeName: typ, SourceSchemaVersion: version,
			SourceRawState: &tfprotov6.RawState{JSON: []byte(state)},
		}, &resp)
		return &resp
	}
	// From either registry; and as Terraform names the source of a second
	// instance of a resource (for_each, count) moved by its own block: the
	// provider the resource already moved to.
	for _, provider := range []string{"registry.terraform.io/auth0/auth0", "registry.opentofu.org/auth0/auth0", "registry.terraform.io/tenant-iac/tenant"} {
		if resp := move(provider, "auth0_role", 0, `{"id":"rol_1"}`); resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
	}
	if strings.Join(got, ",") != "rol_1,rol_1,rol_1" {
		t.Fatalf("moved %v, want the role from each", got)
	}
	// Another type or provider is left alone: no diagnostics, no move.
	for _, tc := range [][2]string{{"registry.terraform.io/auth0/auth0", "auth0_client"}, {"registry.terraform.io/hashicorp/auth0", "auth0_role"}, {"auth0/auth0", "auth0_role"}} {
		if resp := move(tc[0], tc[1], 0, `{"id":"rol_2"}`); resp.Diagnostics.HasError() || len(got) != 3 {
			t.Fatalf("%v: %v, moved %v", tc, resp.Diagnostics, got)
		}
	}
	for name, tc := range map[string]struct {
		version int64
		state   string
		want    string
	}{
		"an older schema version":  {1, `{"id":"rol_3"}`, "is at schema version 1; a move takes version 0"},
		"a state that is not JSON": {0, `{"id":`, "could not be read"},
	} {
		resp := move("registry.terraform.io/auth0/auth0", "auth0_role", tc.version, tc.state)
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), tc.want) || len(got) != 3 {
			t.Errorf("%s: %v, want an error saying %q", name, resp.Diagnostics, tc.want)
		}
	}
}
