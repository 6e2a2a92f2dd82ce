resource "tenant_role" "support" {
  name        = "support"
  description = "Answers customer tickets"
}
