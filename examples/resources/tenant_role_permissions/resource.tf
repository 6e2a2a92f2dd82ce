data "tenant_role" "support" {
  name = "support"
}

# Authoritative: the role ends up with exactly these permissions, keyed by
# the identifier of the API that defines them.
resource "tenant_role_permissions" "support" {
  role_id = data.tenant_role.support.id
  permissions = {
    "https://api.example.com/orders/" = ["read:orders", "create:orders"]
  }
}
