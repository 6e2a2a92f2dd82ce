import {
  to       = tenant_client.exchange
  identity = { id = "AbCdEfGhIjKlMnOpQrStUvWxYz012345" }
}
