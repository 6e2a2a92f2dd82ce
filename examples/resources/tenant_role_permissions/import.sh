# By the role's id:
terraform import tenant_role_permissions.support rol_k1SD22gLpZCOvGjd
