# By id:
terraform import tenant_resource_server.orders 670d1dfd9cc46957f2ac3cbf

# Or by identifier (audience); the state stores the canonical id:
terraform import tenant_resource_server.orders https://api.example.com/orders/
