package role_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/role"
)

const incumbent = "registry.terraform.io/auth0/auth0"

// TestMoveState_fromIncumbent takes over the incumbent's states (as it
// wrote them) of a role, its permissions as a set of blocks, and one
// permission, whose id has the same form as this provider's.
func TestMoveState_fromIncumbent(t *testing.T) {
	ctx := context.Background()
	t.Run("role", func(t *testing.T) {
		state, identity, moved, diags := acctest.MoveState(t, role.NewResource(), incumbent, "auth0_role",
			`{"description": "", "id": "rol_p6qnURSsbkKcj9u0", "name": "admin"}`)
		if diags.HasError() || !moved {
			t.Fatalf("moved %v: %v", moved, diags)
		}
		var name, description, id types.String
		state.GetAttribute(ctx, path.Root("name"), &name)
		state.GetAttribute(ctx, path.Root("description"), &description)
		identity.GetAttribute(ctx, path.Root("id"), &id)
		if name.ValueString() != "admin" || description.IsNull() || description.ValueString() != "" || id.ValueString() != "rol_p6qnURSsbkKcj9u0" {
			t.Fatalf("name %s, description %s, identity %s", name, description, id)
		}
	})
	t.Run("role permissions", func(t *testing.T) {
		state, identity, moved, diags := acctest.MoveState(t, role.NewPermissionsExclusiveResource(), incumbent, "auth0_role_permissions",
			`{"id": "rol_81ztT23mpTt0OiJk", "role_id": "rol_81ztT23mpTt0OiJk", "permissions": [
			  {"description": "Read orders", "name": "read:orders", "resource_server_identifier": "https://orders", "resource_server_name": "Orders"},
			  {"description": "", "name": "write:orders", "resource_server_identifier": "https://orders", "resource_server_name": "Orders"},
			  {"description": "", "name": "read:invoices", "resource_server_identifier": "https://billing", "resource_server_name": "Billing"}]}`)
		if diags.HasError() || !moved {
			t.Fatalf("moved %v: %v", moved, diags)
		}
		var perms map[string][]string
		if d := state.GetAttribute(ctx, path.Root("permissions"), &perms); d.HasError() {
			t.Fatal(d)
		}
		if len(perms) != 2 || len(perms["https://orders"]) != 2 || len(perms["https://billing"]) != 1 {
			t.Fatalf("permissions %v: want the pairs grouped by API", perms)
		}
		var roleID types.String
		identity.GetAttribute(ctx, path.Root("role_id"), &roleID)
		if roleID.ValueString() != "rol_81ztT23mpTt0OiJk" {
			t.Fatalf("identity role_id %s", roleID)
		}
	})
	t.Run("role permission", func(t *testing.T) {
		state, identity, moved, diags := acctest.MoveState(t, role.NewPermissionResource(), incumbent, "auth0_role_permission",
			`{"description": "Write orders", "id": "rol_p6qnURSsbkKcj9u0::https://orders::write:orders", "permission": "write:orders",
			  "resource_server_identifier": "https://orders", "resource_server_name": "Orders", "role_id": "rol_p6qnURSsbkKcj9u0"}`)
		if diags.HasError() || !moved {
			t.Fatalf("moved %v: %v", moved, diags)
		}
		var id, name, identName types.String
		state.GetAttribute(ctx, path.Root("id"), &id)
		state.GetAttribute(ctx, path.Root("permission_name"), &name)
		identity.GetAttribute(ctx, path.Root("permission_name"), &identName)
		if id.ValueString() != "rol_p6qnURSsbkKcj9u0::https://orders::write:orders" || name.ValueString() != "write:orders" || identName.ValueString() != "write:orders" {
			t.Fatalf("id %s, permission_name %s, identity %s", id, name, identName)
		}
	})
}
