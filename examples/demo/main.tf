# The demo configuration `make demo` applies against the local emulator.
terraform {
  required_version = ">= 1.11"
  required_providers {
    tenant = {
      source = "tenant-iac/tenant"
    }
  }
}

variable "domain" {
  type = string
}

variable "client_id" {
  type = string
}

variable "client_secret" {
  type      = string
  sensitive = true
}

variable "action_id" {
  description = "A deployed action with the custom-token-exchange trigger."
  type        = string
}

variable "role_name" {
  type    = string
  default = "demo-role"
}

provider "tenant" {
  domain        = var.domain
  client_id     = var.client_id
  client_secret = var.client_secret
}

resource "tenant_resource_server" "orders" {
  identifier     = "https://api.example.com/orders/"
  name           = "Orders API"
  token_lifetime = 3600
  token_dialect  = "access_token_authz"

  scopes = [
    { value = "read:orders", description = "Read orders" },
    { value = "create:orders", description = "Place orders" },
    { value = "cancel:orders", description = "Cancel orders" },
  ]
}

data "tenant_role" "demo" {
  name = var.role_name
}

resource "tenant_role_permissions" "demo" {
  role_id = data.tenant_role.demo.id
  permissions = [
    for scope in tenant_resource_server.orders.scopes : {
      resource_server_identifier = tenant_resource_server.orders.identifier
      permission_name            = scope.value
    }
  ]
}

resource "tenant_token_exchange_profile" "legacy" {
  name               = "Legacy IdP tokens"
  subject_token_type = "urn:acme:legacy-idp-token"
  action_id          = var.action_id
}

data "tenant_phone_provider" "current" {}

output "resource_server_id" {
  value = tenant_resource_server.orders.id
}

output "role_permissions" {
  value = sort([for p in tenant_role_permissions.demo.permissions : p.permission_name])
}

output "token_exchange_profile_id" {
  value = tenant_token_exchange_profile.legacy.id
}

output "phone_provider_id" {
  value = data.tenant_phone_provider.current.id
}
