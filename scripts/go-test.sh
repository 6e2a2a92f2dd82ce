#!/usr/bin/env bash
# go test with its arguments, through `go test -json`: one line per package
# as it ends, the whole output of each test that fails, and at the end every
# test that skipped, with its reason (a Terraform too old for the feature,
# a tool that is missing), and the counts. The JSON stays in the file
# GO_TEST_JSON names (.tmp/go-test.json by default). Exits as go test does.
set -uo pipefail
cd "$(dirname "$0")/.."
json=${GO_TEST_JSON:-.tmp/go-test.json}
mkdir -p "$(dirname "$json")"
go test -json "$@" 2>&1 | tee "$json" | python3 scripts/go-test-summary.py
exit "${PIPESTATUS[0]}"
