# The permission sets of every role that holds any.
list "tenant_role_permissions" "all" {
  provider         = tenant
  include_resource = true
}
