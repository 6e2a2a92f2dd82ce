# Copied into the demo only on Terraform 1.14 or newer, which knows actions.
action "tenant_phone_provider_test" "demo" {
  config {
    provider_id = data.tenant_phone_provider.current.id
    to          = "+15550100000"
  }
}
