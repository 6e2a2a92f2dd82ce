data "tenant_role" "support" {
  name = "support" # exact, case-sensitive; or: id = "rol_..."
}

output "support_role_id" {
  value = data.tenant_role.support.id
}
