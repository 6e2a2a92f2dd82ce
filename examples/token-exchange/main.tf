# The whole token exchange chain in one configuration, the one `make demo`
# applies against the local emulator: the action's code, built and
# deployed; the API the exchanged tokens are for; a role with its
# permissions; the profile that sends a subject token type to the action;
# and the application allowed to run the exchange, with a client grant.
terraform {
  required_version = ">= 1.11"
  required_providers {
    tenant = {
      source = "tenant-iac/tenant"
    }
  }
}

variable "domain" {
  description = "The tenant's domain (the emulator's, in the demo); TENANT_DOMAIN when null."
  type        = string
  default     = null
}

variable "client_id" {
  description = "The provider's client; TENANT_CLIENT_ID when null."
  type        = string
  default     = null
}

variable "client_secret" {
  description = "The provider's client secret; TENANT_CLIENT_SECRET when null."
  type        = string
  sensitive   = true
  default     = null
}

variable "prefix" {
  description = "Prefix of every name, identifier and subject token type: empty for the deployed tenant, another for each test run."
  type        = string
  default     = ""
}

variable "legacy_signing_key" {
  description = "The key the legacy identity provider signs its tokens with (HS256)."
  type        = string
  sensitive   = true
  ephemeral   = true
}

provider "tenant" {
  domain        = var.domain
  client_id     = var.client_id
  client_secret = var.client_secret
}

# Checks the subject token (a JWT the legacy identity provider signs) and
# sets the user the tenant issues tokens for.
resource "tenant_action" "exchange" {
  name = "${var.prefix}Legacy IdP token exchange"

  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v1"
  }

  # npm packages, keyed by name.
  dependencies = {
    jose = { version = "5.9.6" }
  }

  code = <<-EOT
    const { jwtVerify } = require("jose");

    const ISSUER = "https://legacy-idp.example.com/";

    exports.onExecuteCustomTokenExchange = async (event, api) => {
      const key = new TextEncoder().encode(event.secrets.LEGACY_SIGNING_KEY);
      let payload;
      try {
        ({ payload } = await jwtVerify(event.transaction.subject_token, key, {
          issuer: ISSUER,
          algorithms: ["HS256"],
        }));
      } catch (err) {
        console.log("legacy token refused:", err.code || err.message);
        api.access.rejectInvalidSubjectToken("The subject token is not a valid legacy IdP token.");
        return;
      }
      // Delegation: a support agent acting for the user, named by an actor
      // token the legacy IdP signed; the tokens name the agent in their act
      // claim, and carry no refresh token.
      if (event.transaction.actor_token) {
        let actor;
        try {
          ({ payload: actor } = await jwtVerify(event.transaction.actor_token, key, {
            issuer: ISSUER,
            algorithms: ["HS256"],
          }));
        } catch (err) {
          api.access.deny("invalid_request", "The actor token is not a valid legacy IdP token.");
          return;
        }
        api.authentication.setActor({ sub: actor.sub });
      }
      // The legacy user, created in the tenant on its first exchange.
      api.authentication.setUserByConnection(
        "Username-Password-Authentication",
        { user_id: payload.sub, email: payload.email, email_verified: true },
        { creationBehavior: "create_if_not_exists", updateBehavior: "none" },
      );
    };
  EOT

  # Write-only: the key is in neither the plan nor the state.
  secrets_wo = [
    { name = "LEGACY_SIGNING_KEY", value = var.legacy_signing_key },
  ]
  secrets_wo_version = 1
}

# The exchanged tokens are for this API. Without RBAC (enforce_policies),
# a token carries the scopes asked for that the API defines; with it, only
# those the user's roles give, and a user the exchange has just created is
# in no role. An exchange has no user present to consent, so the API must
# let first-party applications skip consent: without it the tenant answers
# invalid_request, consent_required. It allows offline access, so that an
# exchange that asks for offline_access gets a refresh token (never one
# that a support agent makes for a user).
resource "tenant_resource_server" "orders" {
  identifier     = "https://api.example.com/${var.prefix}orders/"
  name           = "${var.prefix}Orders API"
  token_lifetime = 3600

  skip_consent_for_verifiable_first_party_clients = true
  allow_offline_access                            = true

  scopes = {
    "read:orders"   = "Read orders"
    "create:orders" = "Place orders"
    "cancel:orders" = "Cancel orders"
  }
}

resource "tenant_role" "support" {
  name        = "${var.prefix}support"
  description = "Support staff of the legacy IdP's users"
}

resource "tenant_role_permissions" "support" {
  role_id = tenant_role.support.id
  permissions = {
    (tenant_resource_server.orders.identifier) = keys(tenant_resource_server.orders.scopes)
  }
}

# Created once the action is built and deployed.
resource "tenant_token_exchange_profile" "legacy" {
  name               = "${var.prefix}Legacy IdP tokens"
  subject_token_type = "urn:acme:${var.prefix}legacy-idp-token"
  action_id          = tenant_action.exchange.id
}

# The application that exchanges legacy tokens. The tenant runs a custom
# token exchange only for a first-party, OIDC-conformant client whose
# token_exchange allows custom_authentication. Its secret stays out of the
# state (read it with the tenant_client_secret ephemeral resource).
resource "tenant_client" "bridge" {
  name            = "${var.prefix}Legacy IdP bridge"
  description     = "Exchanges legacy IdP tokens for Orders API tokens"
  app_type        = "regular_web"
  is_first_party  = true
  oidc_conformant = true
  callbacks       = ["https://bridge.example.com/callback"]

  token_exchange = {
    allow_any_profile_of_type = ["custom_authentication"]
  }
}

# The bridge also calls the Orders API on its own behalf (client
# credentials), with the scopes of this grant.
resource "tenant_client_grant" "bridge_orders" {
  client_id = tenant_client.bridge.client_id
  audience  = tenant_resource_server.orders.identifier
  scopes    = ["read:orders"]
}

output "action_id" {
  value = tenant_action.exchange.id
}

output "deployed_version" {
  value = tenant_action.exchange.deployed_version
}

output "resource_server_id" {
  value = tenant_resource_server.orders.id
}

output "role_permissions" {
  value = sort(flatten(values(tenant_role_permissions.support.permissions)))
}

output "token_exchange_profile_id" {
  value = tenant_token_exchange_profile.legacy.id
}

output "bridge_client_id" {
  value = tenant_client.bridge.client_id
}

output "subject_token_type" {
  value = tenant_token_exchange_profile.legacy.subject_token_type
}

output "orders_identifier" {
  value = tenant_resource_server.orders.identifier
}
