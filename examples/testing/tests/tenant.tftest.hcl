# terraform test runs these against the tenant the provider is configured
# for (the emulator in CI), applying and destroying for real. Each run gives
# its own prefix (terraform test -var "prefix=tftest-"): a prefix set here,
# in a variables block, would win over -var and make every run the same.

run "creates_the_api_role_and_permissions" {
  assert {
    condition     = tenant_resource_server.orders.identifier == "https://api.example.com/${var.prefix}orders"
    error_message = "The API's identifier does not take the prefix."
  }
  assert {
    condition     = tenant_resource_server.orders.token_lifetime_for_web == 3600
    error_message = "The web token lifetime is not the token lifetime (the tenant's default when it is shorter than 7200)."
  }
  assert {
    condition     = toset(tenant_role_permissions.support.permissions[tenant_resource_server.orders.identifier]) == toset(["read:orders", "cancel:orders"])
    error_message = "The role does not hold exactly the API's scopes."
  }
  assert {
    condition     = startswith(tenant_role.support.id, "rol_")
    error_message = "The role has no id from the tenant."
  }
}

run "changes_a_value_in_place" {
  variables {
    support_description = "Support and billing staff"
  }
  assert {
    condition     = tenant_role.support.description == "Support and billing staff"
    error_message = "The description was not updated."
  }
  assert {
    condition     = tenant_role.support.name == "${var.prefix}support"
    error_message = "The role's name changed."
  }
}
