# A web application allowed to run custom token exchanges: first-party and
# OIDC-conformant, with custom_authentication in token_exchange.
resource "tenant_client" "exchange" {
  name            = "Orders web app"
  description     = "Exchanges partner tokens for tenant tokens"
  app_type        = "regular_web"
  is_first_party  = true
  oidc_conformant = true
  callbacks       = ["https://orders.example.com/callback"]
  grant_types     = ["authorization_code", "refresh_token"]

  token_exchange = {
    allow_any_profile_of_type = ["custom_authentication"]
  }

  refresh_token = {
    rotation_type   = "rotating"
    expiration_type = "expiring"
    token_lifetime  = 86400
  }

  client_metadata = {
    team = "orders"
  }
}

# A machine-to-machine client. Its secret stays out of the state; to
# rotate it, change client_secret_rotation (e.g. 1 -> 2) and apply.
resource "tenant_client" "worker" {
  name                   = "Orders worker"
  app_type               = "non_interactive"
  grant_types            = ["client_credentials"]
  client_secret_rotation = 1
}
