# Any API, system APIs included, by identifier or by id.
data "tenant_resource_server" "orders" {
  identifier = "https://api.example.com/orders/"
}

output "orders_scopes" {
  value = [for s in data.tenant_resource_server.orders.scopes : s.value]
}
