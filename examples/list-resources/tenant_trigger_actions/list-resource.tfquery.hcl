# The triggers that run actions, each with its actions in execution order.
list "tenant_trigger_actions" "all" {
  provider         = tenant
  include_resource = true
}
