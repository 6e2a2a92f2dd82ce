# By id:
terraform import tenant_role.support rol_k1SD22gLpZCOvGjd

# Or by exact name (case-sensitive); the state stores the id:
terraform import tenant_role.support support
