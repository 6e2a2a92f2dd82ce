# A test helper, not a configuration to apply: exchanges one subject token
# as the application would (POST /oauth/token, the token-exchange grant)
# and checks the tenant's answer in postconditions. Nothing of it is in a
# state: the subject token, the client secret and the tokens are
# ephemeral. tests/exchange.tftest.hcl runs it with command = plan, once per
# subject token.
terraform {
  required_version = ">= 1.11"
  required_providers {
    tenant = {
      source  = "tenant-iac/tenant"
      version = "~> 0.1"
    }
  }
}

# Credentials from TENANT_DOMAIN, TENANT_CLIENT_ID, TENANT_CLIENT_SECRET.
provider "tenant" {}

variable "client_id" {
  description = "The application that exchanges."
  type        = string
}

variable "subject_token_type" {
  type = string
}

variable "subject_token" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "audience" {
  type = string
}

variable "actor_token" {
  description = "An acting party's token, for an exchange on its behalf; null for none."
  type        = string
  sensitive   = true
  ephemeral   = true
  default     = null
}

variable "actor_token_type" {
  type    = string
  default = null
}

variable "scopes" {
  type    = set(string)
  default = null
}

variable "expected_user_id" {
  description = "The user the tokens must be for; null to leave unchecked."
  type        = string
  default     = null
}

variable "expected_scopes" {
  description = "The scopes the access token must hold, exactly; null to leave unchecked."
  type        = set(string)
  default     = null
}

variable "expected_actor" {
  description = "The acting party the tokens' act claim must name (its sub); null to leave unchecked."
  type        = string
  default     = null
}

variable "expected_error" {
  description = "The OAuth error the exchange must be refused with; null when it must succeed."
  type        = string
  default     = null
}

variable "expected_error_description" {
  description = "The refusal's reason, exactly; null to leave unchecked."
  type        = string
  default     = null
}

# The application's secret, for this run only.
ephemeral "tenant_client_secret" "app" {
  client_id = var.client_id
}

ephemeral "tenant_token_exchange" "this" {
  client_id          = var.client_id
  client_secret      = ephemeral.tenant_client_secret.app.client_secret
  subject_token_type = var.subject_token_type
  subject_token      = var.subject_token
  actor_token        = var.actor_token
  actor_token_type   = var.actor_token_type
  audience           = var.audience
  scopes             = var.scopes
  accept_refusal     = var.expected_error != null

  # An error message cannot show the claims (they are ephemeral): each
  # postcondition checks one thing, and its message names it.
  lifecycle {
    postcondition {
      condition     = var.expected_error != null || self.error == null
      error_message = "The tenant refused the exchange, which should have succeeded."
    }
    postcondition {
      condition     = var.expected_user_id == null || try(self.user_id == var.expected_user_id, false)
      error_message = "The tokens are not for expected_user_id."
    }
    postcondition {
      condition     = var.expected_scopes == null || try(toset(self.claims.scope) == var.expected_scopes, false)
      error_message = "The access token's scopes are not expected_scopes."
    }
    postcondition {
      condition     = var.expected_error != null || try(contains(self.claims.aud, var.audience) && self.claims.exp > self.claims.iat, false)
      error_message = "The access token is not for the audience, or expires before it was issued."
    }
    postcondition {
      condition     = var.expected_actor == null || try(jsondecode(self.act_json).sub == var.expected_actor && !self.refresh_token_issued, false)
      error_message = "The tokens do not name expected_actor in their act claim, or came with a refresh token."
    }
    postcondition {
      condition     = var.expected_error == null || self.error == var.expected_error
      error_message = "The exchange was not refused with expected_error."
    }
    postcondition {
      condition     = var.expected_error_description == null || self.error_description == var.expected_error_description
      error_message = "The refusal's reason is not expected_error_description."
    }
  }
}
