# Every custom API of the tenant, with its settings, for
# terraform query -generate-config-out=generated.tf
list "tenant_resource_server" "all" {
  provider         = tenant
  include_resource = true
}

# Two APIs, by identifier.
list "tenant_resource_server" "orders" {
  provider = tenant
  config {
    identifiers = ["https://api.example.com/orders/", "https://api.example.com/payments/"]
  }
}
