resource "tenant_resource_server" "orders" {
  identifier             = "https://api.example.com/orders/"
  name                   = "Orders API"
  signing_alg            = "RS256"
  token_lifetime         = 3600
  token_lifetime_for_web = 600
  allow_offline_access   = true
  enforce_policies       = true
  token_dialect          = "access_token_authz"

  # Keyed by the scope's value; each value is its description ("" for none).
  scopes = {
    "read:orders"   = "Read orders"
    "create:orders" = "Place orders"
  }
}

# An API for payments: sender-constrained (DPoP) tokens for every client,
# encrypted access tokens, rich authorization requests, and users who may
# only get tokens through applications granted the API.
resource "tenant_resource_server" "payments" {
  identifier          = "https://api.example.com/payments/"
  name                = "Payments API"
  allow_online_access = true
  consent_policy      = "transactional-authorization-with-mfa"

  subject_type_authorization = {
    user   = { policy = "require_client_grant" }
    client = { policy = "require_client_grant" }
  }

  authorization_details = [{ type = "payment_initiation" }]

  proof_of_possession = {
    mechanism    = "dpop"
    required     = true
    required_for = "all_clients"
  }

  token_encryption = {
    format = "compact-nested-jwe"
    encryption_key = {
      name = "payments-2026"
      alg  = "RSA-OAEP-256"
      kid  = "payments-2026"
      pem  = var.payments_token_key_pem # the public key, PEM-encoded
    }
  }
}

variable "payments_token_key_pem" {
  description = "The RSA public key (PEM) that access tokens for the payments API are encrypted with."
  type        = string
}
