# A custom token exchange action: it checks the subject token (a JWT that a
# legacy identity provider signs with a shared key) and sets the user the
# tenant issues tokens for. The profile below sends that token type to it.
variable "legacy_signing_key" {
  description = "The key the legacy identity provider signs its tokens with (HS256)."
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "tenant_action" "token_exchange" {
  name = "Legacy IdP token exchange"

  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v1"
  }

  runtime = "node22"

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
        api.access.rejectInvalidSubjectToken("The subject token is not a valid legacy IdP token.");
        return;
      }
      api.authentication.setUserById(payload.sub);
    };
  EOT

  # Write-only (Terraform 1.11 or later): the key is in neither the plan nor
  # the state. Change secrets_wo_version to send it again, e.g. to rotate it.
  secrets_wo = [
    { name = "LEGACY_SIGNING_KEY", value = var.legacy_signing_key },
  ]
  secrets_wo_version = 1
}

# A profile needs a deployed action: with deploy = true (the default) the
# apply waits until the action is built and deployed before creating it.
resource "tenant_token_exchange_profile" "legacy" {
  name               = "Legacy IdP tokens"
  subject_token_type = "urn:acme:legacy-idp-token"
  action_id          = tenant_action.token_exchange.id
}
