# Any API, system APIs included, by identifier or by id.
data "tenant_resource_server" "orders" {
  identifier = "https://api.example.com/orders/"
}

output "orders_scopes" {
  value = keys(data.tenant_resource_server.orders.scopes)
}
