#!/usr/bin/env bash
# Checks every folder under examples/: terraform fmt, then terraform init
# (offline, from a filesystem mirror holding the locally built provider) and
# terraform validate. Action examples need Terraform 1.14 or newer and are
# skipped, with a message, below it; an import-by-identity.tf (an import
# block by identity) needs 1.12 and is left out below it, with a message. A with-actions/ folder extends its
# parent (its files refer to the parent's): it is validated together with
# the parent when Terraform runs actions, never alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
shopt -s nullglob

version=0.1.0
work=$(mktemp -d "${TMPDIR:-/tmp}/tenant-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT

install_mirror "$work" "$version"
terraform fmt -check -recursive -diff examples
tf_version=$(terraform_version)
has_actions=0
terraform_knows_actions && has_actions=1
has_identity_import=0
terraform_knows_identity_import && has_identity_import=1

checked=0 skipped=0 skips=()
# skip prints why an example is left out, and keeps it for the summary.
skip() {
  echo "skip  $1"
  skips+=("$1")
  skipped=$((skipped + 1))
}
while IFS= read -r dir; do
  [[ $(basename "$dir") == with-actions ]] && continue
  files=()
  for f in "$dir"/*.tf; do
    if [[ $(basename "$f") == import-by-identity.tf && $has_identity_import == 0 ]]; then
      skip "$f: Terraform $tf_version cannot import by identity (it needs 1.12 or newer)"
      continue
    fi
    files+=("$f")
  done
  validate_args=()
  if [[ -d $dir/with-actions ]]; then
    if [[ $has_actions == 1 ]]; then
      files+=("$dir"/with-actions/*.tf)
    else
      skip "$dir/with-actions: Terraform $tf_version cannot validate actions (they need 1.14 or newer)"
    fi
  fi
  if compgen -G "$dir/*.tfquery.hcl" >/dev/null; then
    if [[ $has_actions == 0 ]]; then
      skip "$dir: Terraform $tf_version cannot validate queries (they need 1.14 or newer)"
      continue
    fi
    files+=("$dir"/*.tfquery.hcl)
    validate_args=(-query)
  fi
  if grep -qs '^action ' "${files[@]}" /dev/null && [[ $has_actions == 0 ]]; then
    skip "$dir: Terraform $tf_version cannot validate actions (they need 1.14 or newer)"
    continue
  fi
  tmp="$work/config-$checked"
  mkdir -p "$tmp"
  cp "${files[@]}" "$tmp/"
  if ! grep -qs 'required_providers' "$tmp"/*.tf /dev/null; then
    printf 'terraform {\n  required_providers {\n    tenant = { source = "tenant-iac/tenant", version = "%s" }\n  }\n}\n' "$version" >"$tmp/versions_check.tf"
  fi
  terraform -chdir="$tmp" init -input=false -no-color -backend=false >"$tmp/init.log" 2>&1 || { cat "$tmp/init.log" >&2; echo "FAIL  $dir: init" >&2; exit 1; }
  if ! out=$(terraform -chdir="$tmp" validate -no-color "${validate_args[@]}" 2>&1); then
    echo "$out" >&2
    echo "FAIL  $dir: validate" >&2
    exit 1
  fi
  echo "ok    $dir"
  checked=$((checked + 1))
done < <(find examples \( -name '*.tf' -o -name '*.tfquery.hcl' \) -exec dirname {} \; | sort -u)
echo "examples: $checked validated, $skipped skipped"
for s in "${skips[@]}"; do
  echo "  skipped $s"
done
