data "tenant_token_exchange_profile" "legacy" {
  subject_token_type = "urn:acme:legacy-idp-token"
}

output "legacy_profile_action" {
  value = data.tenant_token_exchange_profile.legacy.action_id
}
