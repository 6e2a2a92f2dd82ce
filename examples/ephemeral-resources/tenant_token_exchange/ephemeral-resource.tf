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
