# The tenant's machine-to-machine clients.
list "tenant_client" "workers" {
  provider         = tenant
  include_resource = true
  config {
    app_types = ["non_interactive"]
  }
}
