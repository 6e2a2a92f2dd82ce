# The tenant's custom token exchange actions.
list "tenant_action" "token_exchange" {
  provider         = tenant
  include_resource = true
  config {
    trigger = "custom-token-exchange"
  }
}
