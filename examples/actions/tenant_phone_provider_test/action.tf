# Terraform 1.14 or newer.
data "tenant_phone_provider" "current" {}

action "tenant_phone_provider_test" "smoke" {
  config {
    provider_id     = data.tenant_phone_provider.current.id
    to              = "+15551234567"
    delivery_method = "text"
  }
}

# Run it on demand:
#   terraform apply -invoke=action.tenant_phone_provider_test.smoke
# or after a change, from a resource's lifecycle:
resource "terraform_data" "phone_config_version" {
  input = "v2"

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.tenant_phone_provider_test.smoke]
    }
  }
}
