# The grants for one API.
list "tenant_client_grant" "orders" {
  provider         = tenant
  include_resource = true
  config {
    audience = "https://api.example.com/orders"
  }
}
