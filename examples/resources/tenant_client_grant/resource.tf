resource "tenant_resource_server" "orders" {
  identifier = "https://api.example.com/orders"
  scopes = {
    "read:orders"  = "Read orders"
    "write:orders" = "Write orders"
  }
}

resource "tenant_client" "worker" {
  name        = "Orders worker"
  app_type    = "non_interactive"
  grant_types = ["client_credentials"]
}

# The worker gets tokens for the Orders API with these scopes; changing
# them updates the grant in place.
resource "tenant_client_grant" "worker_orders" {
  client_id = tenant_client.worker.client_id
  audience  = tenant_resource_server.orders.identifier
  scopes    = ["read:orders", "write:orders"]
}
