data "tenant_phone_provider" "current" {}

output "phone_provider" {
  value = {
    id               = data.tenant_phone_provider.current.id
    name             = data.tenant_phone_provider.current.name
    delivery_methods = data.tenant_phone_provider.current.configuration.delivery_methods
  }
}
