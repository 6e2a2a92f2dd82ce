resource "tenant_role" "support" {
  name = "support"
}

# One pair each; the role's other permissions are left alone.
# Do not combine with tenant_role_permissions on the same role.
resource "tenant_role_permission" "read_orders" {
  role_id                    = tenant_role.support.id
  resource_server_identifier = "https://api.example.com/orders/"
  permission_name            = "read:orders"
}

resource "tenant_role_permission" "refund_orders" {
  role_id                    = tenant_role.support.id
  resource_server_identifier = "https://api.example.com/orders/"
  permission_name            = "refund:orders"
}
