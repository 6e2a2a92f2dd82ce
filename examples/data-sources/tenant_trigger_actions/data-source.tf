data "tenant_trigger_actions" "post_login" {
  trigger = "post-login"
}

output "post_login_actions" {
  value = [for a in data.tenant_trigger_actions.post_login.actions : a.display_name]
}
