#!/usr/bin/env bash
# The pipeline's steps, the same in every CI system:
#   pipeline.sh plan    plan into tfplan (a pull request; keep tfplan as an artifact)
#   pipeline.sh apply   apply that saved plan, exactly as reviewed (the merge)
#   pipeline.sh drift   exit 0 when the tenant matches the configuration,
#                       2 when it drifted (nightly), 1 on an error
# TENANT_DOMAIN, TENANT_CLIENT_ID and TENANT_CLIENT_SECRET come from the CI
# system's secret store.
set -euo pipefail
: "${TENANT_DOMAIN:?set TENANT_DOMAIN from the secret store}"
export TF_IN_AUTOMATION=1 TF_INPUT=0

terraform init -input=false -no-color >/dev/null
case "${1:-}" in
plan)
  terraform plan -input=false -no-color -lock-timeout=10m -out=tfplan
  terraform show -no-color tfplan >plan.txt
  ;;
apply)
  terraform apply -input=false -no-color -lock-timeout=10m tfplan
  ;;
drift)
  set +e
  terraform plan -input=false -no-color -lock-timeout=10m -detailed-exitcode >drift.txt
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
  echo "usage: $0 plan|apply|drift" >&2
  exit 64
  ;;
esac
