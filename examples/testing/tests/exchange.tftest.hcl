# terraform test -filter=tests/exchange.tftest.hcl -var "prefix=tftest-":
# deploys the configuration in token-exchange/ (examples/token-exchange:
# the action, its profile, the API, the client), then proves its
# exchange: a valid legacy token gives tokens for the right user with the
# right scopes, a support agent acting for the user is named in the
# tokens' act claim, a forged one is refused with the action's reason.
# Token exchange profiles can only be created by the tenant's global
# client: run it with that client's credentials. The prefix comes from
# -var: set here, it would win over it.
variables {
  legacy_signing_key = "tftest-legacy-signing-key"
}

run "deploy" {
  module {
    source = "./token-exchange"
  }
}

# A legacy token signed with the key, for the legacy user legacy-42
# (ada@example.com), valid until 2100.
run "a_valid_legacy_token_is_exchanged" {
  command = plan
  module {
    source = "./tests/exchange"
  }
  variables {
    client_id          = run.deploy.bridge_client_id
    subject_token_type = run.deploy.subject_token_type
    audience           = run.deploy.orders_identifier
    scopes             = ["read:orders"]
    subject_token      = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xlZ2FjeS1pZHAuZXhhbXBsZS5jb20vIiwic3ViIjoibGVnYWN5LTQyIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6NDEwMjQ0NDgwMH0.JmZ5CsxZrVSmZNe-GeC47vnRVn3Awthut2DC93_UxA8"
    expected_user_id   = "auth0|legacy-42"
    expected_scopes    = ["read:orders"]
  }
}

# The support agent agent-7, with an actor token the legacy IdP signed, acts
# for legacy-42: the tokens are the user's and name the agent in their act
# claim.
run "an_agent_acts_for_the_user" {
  command = plan
  module {
    source = "./tests/exchange"
  }
  variables {
    client_id          = run.deploy.bridge_client_id
    subject_token_type = run.deploy.subject_token_type
    audience           = run.deploy.orders_identifier
    scopes             = ["offline_access", "read:orders"]
    subject_token      = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xlZ2FjeS1pZHAuZXhhbXBsZS5jb20vIiwic3ViIjoibGVnYWN5LTQyIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6NDEwMjQ0NDgwMH0.JmZ5CsxZrVSmZNe-GeC47vnRVn3Awthut2DC93_UxA8"
    actor_token        = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xlZ2FjeS1pZHAuZXhhbXBsZS5jb20vIiwic3ViIjoiYWdlbnQtNyIsImlhdCI6MTc2NzIyNTYwMCwiZXhwIjo0MTAyNDQ0ODAwfQ.vH06ydvU3YxK7tukpAHeuMGirsXlk6qCv0tChSHYwV4"
    actor_token_type   = "urn:acme:support-agent-token"
    expected_user_id   = "auth0|legacy-42"
    expected_actor     = "agent-7"
  }
}

# The same claims, signed with another key.
run "a_forged_token_is_refused" {
  command = plan
  module {
    source = "./tests/exchange"
  }
  variables {
    client_id                  = run.deploy.bridge_client_id
    subject_token_type         = run.deploy.subject_token_type
    audience                   = run.deploy.orders_identifier
    subject_token              = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xlZ2FjeS1pZHAuZXhhbXBsZS5jb20vIiwic3ViIjoibGVnYWN5LTQyIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6NDEwMjQ0NDgwMH0.R3l_VXsmps8ODXbYtC_hPHNQB4Zd2OVLR-0JikPQCvs"
    expected_error             = "invalid_request"
    expected_error_description = "The subject token is not a valid legacy IdP token."
  }
}
