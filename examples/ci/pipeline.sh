#!/usr/bin/env bash
# The pipeline's steps, the same in every CI system (run it with bash, so
# that it works as copied, executable bit or not):
#   bash pipeline.sh plan    plan into tfplan and plan.txt (pull requests, and
#                            the push to main whose plan the apply job applies)
#   bash pipeline.sh apply   apply that saved plan, exactly as approved
#   bash pipeline.sh drift   exit 0 when the tenant matches the configuration,
#                            2 when it drifted (nightly), 1 on an error
# The plan and drift steps read only: they run with the read-only client and
# read-only state credentials, and take no state lock. Only apply writes.
set -euo pipefail
: "${TENANT_DOMAIN:?set TENANT_DOMAIN}"
: "${TENANT_CLIENT_ID:?set TENANT_CLIENT_ID and TENANT_CLIENT_SECRET from the secret store}"
export TF_IN_AUTOMATION=1 TF_INPUT=0

# The committed .terraform.lock.hcl pins the provider's checksums.
terraform init -input=false -no-color -lockfile=readonly >/dev/null
case "${1:-}" in
plan)
  terraform plan -input=false -no-color -lock=false -out=tfplan
  terraform show -no-color tfplan >plan.txt
  ;;
apply)
  # Terraform refuses a saved plan when the state changed since it was made.
  terraform apply -input=false -no-color -lock-timeout=10m tfplan
  ;;
drift)
  set +e
  terraform plan -input=false -no-color -lock=false -detailed-exitcode >drift.txt
  code=$?
  set -e
  case $code in
  0) echo "no drift: the tenant matches the configuration" ;;
  2) echo "drift: the tenant differs from the configuration (see drift.txt)" ;;
  *) cat drift.txt >&2 ;;
  esac
  exit "$code"
  ;;
*)
  echo "usage: bash pipeline.sh plan|apply|drift" >&2
  exit 64
  ;;
esac
