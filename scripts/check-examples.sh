#!/usr/bin/env bash
# Checks every folder under examples/: terraform fmt, then terraform init
# (offline, from a filesystem mirror holding the locally built provider) and
# terraform validate. Action examples need Terraform 1.14 or newer and are
# skipped, with a message, below it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

version=0.0.1
work=$(mktemp -d "${TMPDIR:-/tmp}/tenant-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT

install_mirror "$work" "$version"
terraform fmt -check -recursive -diff examples
tf_version=$(terraform_version)
has_actions=0
terraform_knows_actions && has_actions=1

checked=0 skipped=0
while IFS= read -r dir; do
  if grep -qs '^action ' "$dir"/*.tf && [[ $has_actions == 0 ]]; then
    echo "skip  $dir: Terraform $tf_version cannot validate actions (they need 1.14 or newer)"
    skipped=$((skipped + 1))
    continue
  fi
  tmp="$work/config-$checked"
  mkdir -p "$tmp"
  cp "$dir"/*.tf "$tmp/"
  if ! grep -qs 'required_providers' "$tmp"/*.tf; then
    printf 'terraform {\n  required_providers {\n    tenant = { source = "tenant-iac/tenant", version = "%s" }\n  }\n}\n' "$version" >"$tmp/versions_check.tf"
  fi
  terraform -chdir="$tmp" init -input=false -no-color -backend=false >"$tmp/init.log" 2>&1 || { cat "$tmp/init.log" >&2; echo "FAIL  $dir: init" >&2; exit 1; }
  if ! out=$(terraform -chdir="$tmp" validate -no-color 2>&1); then
    echo "$out" >&2
    echo "FAIL  $dir: validate" >&2
    exit 1
  fi
  echo "ok    $dir"
  checked=$((checked + 1))
done < <(find examples -name '*.tf' -exec dirname {} \; | sort -u)
echo "examples: $checked validated, $skipped skipped"
