# The action must support the custom-token-exchange trigger and be deployed.
resource "tenant_token_exchange_profile" "legacy" {
  name               = "Legacy IdP tokens"
  subject_token_type = "urn:acme:legacy-idp-token"
  action_id          = "5d110643-a54e-432b-a0b7-e58bbf1fae77"
}
