# By the grant's id:
terraform import tenant_client_grant.worker_orders cgr_0123456789abcdef

# Or by the client's id and the API's identifier, joined by "::":
terraform import tenant_client_grant.worker_orders AbCdEfGhIjKlMnOpQrStUvWxYz012345::https://api.example.com/orders
