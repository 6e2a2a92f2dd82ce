resource "tenant_action" "add_roles" {
  name               = "Add roles to tokens"
  code               = "exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim(\"roles\", event.authorization?.roles ?? []); };"
  supported_triggers = { id = "post-login", version = "v3" }
}

resource "tenant_action" "audit" {
  name               = "Audit logins"
  code               = "exports.onExecutePostLogin = async (event) => { console.log(event.user.user_id); };"
  supported_triggers = { id = "post-login", version = "v3" }
}

# The post-login flow runs exactly these actions, in this order. Removing an
# action from the list and its tenant_action in one apply unbinds and deletes
# it; reordering the list is one in-place update.
resource "tenant_trigger_actions" "post_login" {
  trigger = "post-login"
  actions = [
    { id = tenant_action.audit.id, display_name = tenant_action.audit.name },
    { id = tenant_action.add_roles.id, display_name = tenant_action.add_roles.name },
  ]
}
