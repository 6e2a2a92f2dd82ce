# The tenant's configuration, planned and applied by the pipeline in
# docs/guides/ci.md. Credentials come from the environment (TENANT_DOMAIN,
# TENANT_CLIENT_ID, TENANT_CLIENT_SECRET), never from this file.
terraform {
  required_version = ">= 1.11"
  required_providers {
    tenant = {
      source = "tenant-iac/tenant"
    }
  }
  # Keep state in a shared backend with locking, e.g.
  # backend "s3" { bucket = "acme-terraform" key = "tenant/prod.tfstate" region = "eu-west-1" use_lockfile = true }
}

provider "tenant" {}

resource "tenant_resource_server" "orders" {
  identifier     = "https://api.example.com/orders/"
  name           = "Orders API"
  token_lifetime = 3600
  scopes = {
    "read:orders"   = "Read orders"
    "create:orders" = "Place orders"
  }
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
