#!/usr/bin/env bash
# Runs go-auth0 v1.46.0's own client, client grant and organization tests
# live against the emulator, each test on its own (one that panics ends
# only itself), and prints how many pass, fail and skip, with each
# failure's first lines. Arguments are passed to the emulator, e.g.
# --no-client-connections (the tenant the SDK's recordings come from).
# Needs the Go module proxy (go-auth0 and its test dependencies) once.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/tenant-sdk-tests.XXXXXX")
emulator_pid=
cleanup() {
	if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

sdk=$(go mod download -json github.com/auth0/go-auth0@v1.46.0 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
cp -r "$sdk" "$work/go-auth0"
chmod -R u+w "$work/go-auth0"
(cd "$work/go-auth0/management" && go test -c -o "$work/management.test" .)
go build -o "$work/tenant-emulator" ./internal/emulator/cmd/tenant-emulator

"$work/tenant-emulator" --listen 127.0.0.1:0 --tls --rate-limit-rps 0 "$@" >"$work/line" 2>"$work/emulator.log" &
emulator_pid=$!
for _ in $(seq 50); do [ -s "$work/line" ] && break; sleep 0.1; done
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/line" "$1"; }
domain=$(field domain)
export AUTH0_DOMAIN=${domain#https://} AUTH0_CLIENT_ID=$(field client_id) AUTH0_CLIENT_SECRET=$(field client_secret)
export SSL_CERT_FILE=$(field ca_file) AUTH0_HTTP_RECORDINGS=off

cd "$work/go-auth0/management"
pass=0 fail=0 skip=0
for t in $(sed -n 's/^func \(Test[A-Za-z0-9_]*\)(.*/\1/p' client_test.go client_grant_test.go organization_test.go); do
	out=$(timeout 120 "$work/management.test" -test.count=1 -test.v -test.run "^$t\$" 2>&1 || true)
	if grep -q -e '^--- FAIL' -e '^panic' -e '^FAIL' <<<"$out"; then
		fail=$((fail + 1))
		echo "FAIL $t"
		grep -m 3 -E 'Error:|Messages:|panic:' <<<"$out" | sed 's/^/    /'
	elif grep -q '^--- SKIP' <<<"$out"; then
		skip=$((skip + 1))
		echo "SKIP $t"
	else
		pass=$((pass + 1))
	fi
done
echo "pass=$pass fail=$fail skip=$skip"
echo "routes the emulator does not serve, as the tests asked for them:"
grep -o 'not served: [A-Z]* [^ ]*' "$work/emulator.log" | sed -E 's/[A-Za-z0-9_%]{16,}/{id}/g' | sort | uniq -c | sort -rn || true
