# The provider for terraform query; credentials come from TENANT_DOMAIN,
# TENANT_CLIENT_ID and TENANT_CLIENT_SECRET.
terraform {
  required_version = ">= 1.14"
  required_providers {
    tenant = {
      source = "tenant-iac/tenant"
    }
  }
}

provider "tenant" {}
