# The grant of a client for an API:
data "tenant_client_grant" "worker_orders" {
  client_id = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"
  audience  = "https://api.example.com/orders"
}

output "worker_scopes" {
  value = data.tenant_client_grant.worker_orders.scopes
}
