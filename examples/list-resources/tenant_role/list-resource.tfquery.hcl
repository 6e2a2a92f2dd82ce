# The roles whose name contains "support" (as the tenant matches names).
list "tenant_role" "support" {
  provider         = tenant
  include_resource = true
  config {
    name_filter = "support"
  }
}
