# Terraform 1.14 or newer.
resource "tenant_phone_provider" "sms" {
  name          = "custom"
  configuration = { delivery_methods = ["text", "voice"] }
}

action "tenant_phone_provider_test" "smoke" {
  config {
    provider_id     = tenant_phone_provider.sms.id
    to              = "+15551234567"
    delivery_method = "text"
  }
}

# Run it on demand:
#   terraform apply -invoke=action.tenant_phone_provider_test.smoke
# or whenever the provider changes, from its own lifecycle:
resource "terraform_data" "phone_provider_version" {
  input = tenant_phone_provider.sms.updated_at

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.tenant_phone_provider_test.smoke]
    }
  }
}
