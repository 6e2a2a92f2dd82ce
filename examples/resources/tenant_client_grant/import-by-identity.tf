import {
  to       = tenant_client_grant.worker_orders
  identity = { id = "cgr_0123456789abcdef" }
}
