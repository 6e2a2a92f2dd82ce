# By id:
terraform import tenant_token_exchange_profile.legacy tep_YGHxatF4SVyjeMyp

# Or by subject_token_type (unique in the tenant):
terraform import tenant_token_exchange_profile.legacy urn:acme:legacy-idp-token
