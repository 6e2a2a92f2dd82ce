# By id (a UUID). The tenant never returns secret values: after an import the
# next apply sends them from secrets, or from secrets_wo with its version.
terraform import tenant_action.token_exchange 5d110643-a54e-432b-a0b7-e58bbf1fae77
