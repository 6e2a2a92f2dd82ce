data "tenant_role" "support" {
  name = "support"
}

# Authoritative: the role ends up with exactly these permissions.
resource "tenant_role_permissions" "support" {
  role_id = data.tenant_role.support.id
  permissions = [
    for scope in tenant_resource_server.orders.scopes : {
      resource_server_identifier = tenant_resource_server.orders.identifier
      permission_name            = scope.value
    }
  ]
}
