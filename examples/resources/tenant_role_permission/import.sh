# <role_id>::<resource_server_identifier>::<permission_name>
# (the identifier may contain "::"; the role id ends at the first "::" and the
# permission name starts after the last one):
terraform import tenant_role_permission.read_orders 'rol_k1SD22gLpZCOvGjd::https://api.example.com/orders/::read:orders'
