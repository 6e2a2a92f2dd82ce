list "tenant_token_exchange_profile" "all" {
  provider         = tenant
  include_resource = true
}
