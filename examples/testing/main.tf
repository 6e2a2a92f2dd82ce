# A tenant configuration with its own tests (tests/*.tftest.hcl), run with
# `terraform test` against the emulator or a development tenant; see
# docs/guides/testing.md. Every name takes var.prefix, so a test can run
# beside a deployed copy of the same configuration in the same tenant.
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

variable "prefix" {
  description = "Prefix of every name and identifier: an empty string for the deployed tenant, another for each test run."
  type        = string
  default     = ""
}

variable "support_description" {
  type    = string
  default = "Support staff"
}

resource "tenant_resource_server" "orders" {
  identifier     = "https://api.example.com/${var.prefix}orders"
  name           = "${var.prefix}Orders API"
  token_lifetime = 3600
  scopes = {
    "read:orders"   = "Read orders"
    "cancel:orders" = "Cancel orders"
  }
}

resource "tenant_role" "support" {
  name        = "${var.prefix}support"
  description = var.support_description
}

resource "tenant_role_permissions" "support" {
  role_id = tenant_role.support.id
  permissions = {
    (tenant_resource_server.orders.identifier) = keys(tenant_resource_server.orders.scopes)
  }
}

output "orders_identifier" {
  value = tenant_resource_server.orders.identifier
}
