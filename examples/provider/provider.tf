terraform {
  required_providers {
    tenant = {
      source = "tenant-iac/tenant"
    }
  }
}

# Client credentials of a machine-to-machine application granted the
# Management API. Each argument falls back to its TENANT_* variable.
provider "tenant" {
  domain        = "acme.eu.example.com" # TENANT_DOMAIN
  client_id     = var.client_id         # TENANT_CLIENT_ID
  client_secret = var.client_secret     # TENANT_CLIENT_SECRET
}

variable "client_id" {
  type = string
}

variable "client_secret" {
  type      = string
  sensitive = true
}
