# Lists everything the provider can adopt. With main.tf beside it:
#   terraform query -generate-config-out=generated.tf
#   terraform apply      # imports only: 0 to add, 0 to change, 0 to destroy
#   terraform plan       # no changes
list "tenant_resource_server" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_token_exchange_profile" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_role" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_role_permissions" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_action" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_trigger_actions" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_phone_provider" "all" {
  provider         = tenant
  include_resource = true
}

# The clients and their grants. They include the client the provider signs
# in with and its grant for the Management API: keep them out of a
# configuration whose destroy would delete them.
list "tenant_client" "all" {
  provider         = tenant
  include_resource = true
}

list "tenant_client_grant" "all" {
  provider         = tenant
  include_resource = true
}
