# Added to the demo on Terraform 1.14 or newer, which runs actions:
#   terraform apply -invoke=action.tenant_phone_provider_test.demo
# sends a test notification through the tenant's phone provider.
data "tenant_phone_provider" "current" {}

action "tenant_phone_provider_test" "demo" {
  config {
    provider_id = data.tenant_phone_provider.current.id
    to          = "+15550100000"
  }
}

output "phone_provider_id" {
  value = data.tenant_phone_provider.current.id
}
