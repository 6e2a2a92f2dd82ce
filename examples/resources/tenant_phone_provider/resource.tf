variable "twilio_auth_token" {
  type      = string
  sensitive = true
  ephemeral = true
}

# The tenant's one phone provider. The auth token is write-only: it is kept
# in neither the plan nor the state, and is sent again when
# credentials_wo_version changes (to rotate it, change both).
resource "tenant_phone_provider" "sms" {
  name = "twilio"
  configuration = {
    sid              = "AC00000000000000000000000000000000"
    default_from     = "+15550001111"
    delivery_methods = ["text", "voice"]
  }
  credentials_wo         = { auth_token = var.twilio_auth_token }
  credentials_wo_version = 1
}
