# By client id:
data "tenant_client" "by_id" {
  client_id = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"
}

# Or by its exact name (an error when several clients share it):
data "tenant_client" "by_name" {
  name = "Orders web app"
}

output "allowed_profile_types" {
  value = data.tenant_client.by_name.token_exchange
}
