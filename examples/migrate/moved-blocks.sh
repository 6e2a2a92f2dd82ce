#!/usr/bin/env bash
# Prints a moved block for every resource in the state that this provider
# takes over from the auth0/auth0 provider: auth0_<type>.<name> moves to
# tenant_<type>.<name>, in modules too, for the types resource_server, role,
# role_permissions, role_permission, action and token_exchange_profile.
# Run it in the working folder, before the switch:
#
#   ./moved-blocks.sh > moved.tf
#
# TERRAFORM names the CLI (default terraform; tofu for OpenTofu).
set -euo pipefail
addresses=$("${TERRAFORM:-terraform}" state list)
types='resource_server|role|role_permissions|role_permission|action|token_exchange_profile'
# grep finds nothing in a state without such resources: no blocks, no error.
grep -E "^(module\.[^ ]+\.)?auth0_($types)\." <<<"$addresses" |
  sed -E 's/^(.*)auth0_([a-z_]+)\.(.*)$/moved {\n  from = \1auth0_\2.\3\n  to   = \1tenant_\2.\3\n}\n/' || true
