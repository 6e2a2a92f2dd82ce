resource "tenant_resource_server" "orders" {
  identifier             = "https://api.example.com/orders/"
  name                   = "Orders API"
  signing_alg            = "RS256"
  token_lifetime         = 3600
  token_lifetime_for_web = 600
  allow_offline_access   = true
  enforce_policies       = true
  token_dialect          = "access_token_authz"

  scopes = [
    { value = "read:orders", description = "Read orders" },
    { value = "create:orders", description = "Place orders" },
  ]
}
