variable "legacy_token" {
  description = "A subject token of the legacy identity provider, for a test user."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "client_id" {
  description = "The application that exchanges: first-party, OIDC-conformant, allowed custom_authentication."
  type        = string
}

# The application's secret, read for this run only.
ephemeral "tenant_client_secret" "app" {
  client_id = var.client_id
}

# Exchanges the legacy token as the application would, at every plan: the
# postcondition fails the plan when the tenant issues tokens for another
# user, or other scopes.
ephemeral "tenant_token_exchange" "legacy" {
  client_id          = var.client_id
  client_secret      = ephemeral.tenant_client_secret.app.client_secret
  subject_token_type = "urn:acme:legacy-idp-token"
  subject_token      = var.legacy_token
  audience           = "https://api.example.com/orders/"
  scopes             = ["openid", "read:orders"]

  lifecycle {
    postcondition {
      condition     = self.user_id == "auth0|legacy-42" && contains(self.claims.scope, "read:orders")
      error_message = "The legacy token was exchanged for another user or other scopes."
    }
  }
}

variable "agent_token" {
  description = "A support agent's token, for an exchange on behalf of the test user."
  type        = string
  sensitive   = true
  ephemeral   = true
}

# Delegation: a support agent acts on behalf of the user. The action reads
# event.transaction.actor_token and calls api.authentication.setActor, so
# the tokens carry an act claim naming the agent; with an actor the tenant
# issues no refresh token, even for offline_access.
ephemeral "tenant_token_exchange" "on_behalf" {
  client_id          = var.client_id
  client_secret      = ephemeral.tenant_client_secret.app.client_secret
  subject_token_type = "urn:acme:legacy-idp-token"
  subject_token      = var.legacy_token
  actor_token        = var.agent_token
  actor_token_type   = "urn:acme:support-agent-token"
  audience           = "https://api.example.com/orders/"
  scopes             = ["offline_access", "read:orders"]

  lifecycle {
    postcondition {
      condition     = self.user_id == "auth0|legacy-42" && try(jsondecode(self.act_json).sub, "") == "agent-7" && !self.refresh_token_issued
      error_message = "The exchange on behalf of the user does not name the agent as its actor, or issued a refresh token."
    }
  }
}
