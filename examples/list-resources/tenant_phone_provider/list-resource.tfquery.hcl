# The tenant's phone provider (a tenant has at most one).
list "tenant_phone_provider" "current" {
  provider         = tenant
  include_resource = true
}
