data "tenant_role" "support" {
  name = "support"
}

# Authoritative: the role ends up with exactly these permissions.
resource "tenant_role_permissions" "support" {
  role_id = data.tenant_role.support.id
  permissions = [
    { resource_server_identifier = "https://api.example.com/orders/", permission_name = "read:orders" },
    { resource_server_identifier = "https://api.example.com/orders/", permission_name = "create:orders" },
  ]
}
