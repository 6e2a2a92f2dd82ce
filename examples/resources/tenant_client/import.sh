# By the client's id (its client_id):
terraform import tenant_client.exchange AbCdEfGhIjKlMnOpQrStUvWxYz012345
