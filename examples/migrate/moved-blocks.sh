#!/usr/bin/env bash
# Writes a moved block for every resource in the state that this provider
# takes over from the auth0/auth0 provider: auth0_<type>.<name> moves to
# tenant_<type>.<name>, one block per resource (all its for_each or count
# instances), in modules too, for the types resource_server, role,
# role_permissions, role_permission, action, token_exchange_profile,
# trigger_actions, phone_provider, client and client_grant.
# Run it in the working folder, before the switch:
#
#   ./moved-blocks.sh moved.tf     (or with no argument: to standard output)
#
# TERRAFORM names the CLI (default terraform; TERRAFORM=tofu for OpenTofu).
# The file is written only once the state was read.
set -euo pipefail
addresses=$("${TERRAFORM:-terraform}" state list)

types='resource_server|role|role_permissions|role_permission|action|token_exchange_profile|trigger_actions|phone_provider|client|client_grant'
# A module path (module.<name> or module.<name>[<key>], repeated), the type,
# the name, and an instance key that is dropped: the block moves the whole
# resource. Data sources never match (their addresses hold "data.").
resource="^((module\.[A-Za-z0-9_-]+(\[[^]]*\])?\.)*)auth0_($types)\.([A-Za-z0-9_-]+)(\[.*\])?\$"
blocks=""
while IFS= read -r address; do
  [[ $address =~ $resource ]] || continue
  module=${BASH_REMATCH[1]} type=${BASH_REMATCH[4]} name=${BASH_REMATCH[5]}
  block=$(printf 'moved {\n  from = %sauth0_%s.%s\n  to   = %stenant_%s.%s\n}\n' "$module" "$type" "$name" "$module" "$type" "$name")
  # One block per resource, however many instances it has.
  [[ $blocks == *"$block"* ]] || blocks+="$block"$'\n\n'
done <<<"$addresses"

if [[ $# -eq 0 ]]; then
  printf '%s' "$blocks"
else
  printf '%s' "$blocks" >"$1.tmp"
  mv "$1.tmp" "$1"
fi
