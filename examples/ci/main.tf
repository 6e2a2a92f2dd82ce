# The tenant's configuration, planned and applied by the pipeline in
# docs/guides/ci.md. Credentials and the state backend come from the
# environment (TENANT_*, TF_HTTP_*), never from this file; the secrets the
# tenant holds are write-only, so no plan file or state ever holds them.
terraform {
  required_version = ">= 1.11"
  required_providers {
    tenant = {
      source  = "tenant-iac/tenant"
      version = "~> 0.1"
    }
  }
  # State in a backend with locking, shared by every job. The http backend
  # takes its address and credentials from TF_HTTP_ADDRESS,
  # TF_HTTP_LOCK_ADDRESS, TF_HTTP_UNLOCK_ADDRESS, TF_HTTP_USERNAME and
  # TF_HTTP_PASSWORD; s3 (use_lockfile = true), gcs or azurerm work the
  # same way.
  backend "http" {}
}

provider "tenant" {}

# Write-only inputs: the apply job gives the real values; the plan jobs,
# which run code from pull requests, give placeholders (a write-only value
# is sent only when its version changes, at apply).
variable "orders_signing_secret" {
  description = "HS256 secret of the orders API (at least 16 characters)."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "orders_signing_secret_version" {
  description = "Increase to send orders_signing_secret again (rotation)."
  type        = number
  default     = 1
}

variable "audit_webhook_token" {
  description = "Token the audit action sends to the webhook."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "audit_webhook_token_version" {
  description = "Increase to send audit_webhook_token again (rotation)."
  type        = number
  default     = 1
}

resource "tenant_resource_server" "orders" {
  identifier     = "https://api.example.com/orders/"
  name           = "Orders API"
  token_lifetime = 3600
  scopes = {
    "read:orders"   = "Read orders"
    "create:orders" = "Place orders"
  }
  signing_alg               = "HS256"
  signing_secret_wo         = var.orders_signing_secret
  signing_secret_wo_version = var.orders_signing_secret_version
}

resource "tenant_role" "support" {
  name        = "support"
  description = "Support staff"
}

resource "tenant_role_permissions" "support" {
  role_id = tenant_role.support.id
  permissions = {
    (tenant_resource_server.orders.identifier) = keys(tenant_resource_server.orders.scopes)
  }
}

resource "tenant_action" "audit" {
  name               = "audit-logins"
  code               = "exports.onExecutePostLogin = async (event) => { /* event.secrets.WEBHOOK_TOKEN */ };"
  supported_triggers = { id = "post-login", version = "v3" }
  secrets_wo         = [{ name = "WEBHOOK_TOKEN", value = var.audit_webhook_token }]
  secrets_wo_version = var.audit_webhook_token_version
}
