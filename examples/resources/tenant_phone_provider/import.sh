# By id (data.tenant_phone_provider shows it). The tenant never returns the
# credentials: after importing a Twilio provider, write credentials_wo with
# its auth token and credentials_wo_version = 0 (what the import sets), and
# the next apply sends nothing.
terraform import tenant_phone_provider.sms pro_3UzyS4veHQLMTCt3EzXgTt
