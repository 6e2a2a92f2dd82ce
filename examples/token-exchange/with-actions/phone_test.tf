# Added to the demo on Terraform 1.14 or newer, which runs actions: the
# tenant's phone provider, and the action that sends a test notification
# through it:
#   terraform apply -invoke=action.tenant_phone_provider_test.demo
resource "tenant_phone_provider" "demo" {
  name          = "custom"
  configuration = { delivery_methods = ["text", "voice"] }
}

action "tenant_phone_provider_test" "demo" {
  config {
    provider_id = tenant_phone_provider.demo.id
    to          = "+15550100000"
  }
}

output "phone_provider_id" {
  value = tenant_phone_provider.demo.id
}
