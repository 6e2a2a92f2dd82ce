#!/usr/bin/env bash
# make demo: build the provider, start a fresh local emulator (nothing seeded),
# install the provider into a filesystem mirror so `terraform init` works
# offline, apply examples/token-exchange (an action built and deployed, an
# API, a role with its permissions, a token exchange profile on that
# action, and the client allowed to exchange with its grant), show that a
# second plan is empty, invoke the phone test action on
# Terraform 1.14 or newer, exchange a legacy token as the application does
# and print the issued tokens' claims, destroy, and stop the emulator.
# DEMO_KEEP=1 leaves the emulator and the working folder for inspection,
# and prints the commands to destroy and stop them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/tenant-demo.XXXXXX")
emulator_pid=""

# DEMO_KEEP=1 keeps the emulator of a demo that ran to its end (the commands
# it prints need it); a demo that failed stops it, and keeps the folder.
cleanup() {
  local status=$?
  if [[ -n "$emulator_pid" && ( "${DEMO_KEEP:-0}" != 1 || $status != 0 ) ]]; then
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  [[ "${DEMO_KEEP:-0}" == 1 ]] || rm -rf "$work"
}
trap cleanup EXIT

echo "==> Building the provider and the emulator"
install_mirror "$work" "$version"
go build -o "$work/tenant-emulator" ./internal/emulator/cmd/tenant-emulator

echo "==> Starting a fresh emulator on a free loopback port"
"$work/tenant-emulator" --listen 127.0.0.1:0 >"$work/emulator.json" 2>"$work/emulator.log" &
emulator_pid=$!
for _ in $(seq 1 100); do
  [[ -s "$work/emulator.json" ]] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; exit 1; }
  sleep 0.1
done
[[ -s "$work/emulator.json" ]] || { echo "the emulator did not start" >&2; exit 1; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/emulator.json" "$1"; }
domain=$(field domain)
echo "    emulator at $domain"

export TF_VAR_domain="$domain" TF_VAR_client_id="$(field client_id)" TF_VAR_client_secret="$(field client_secret)"
export TF_VAR_legacy_signing_key="demo-signing-key-$(date +%s)"

config="$work/config"
mkdir -p "$config"
cp examples/token-exchange/main.tf "$config/"
tf_version=$(terraform_version)
actions=0
if terraform_knows_actions; then
  cp examples/token-exchange/with-actions/*.tf "$config/"
  actions=1
fi

echo "==> terraform init (offline, from the filesystem mirror)"
terraform -chdir="$config" init -input=false -no-color >/dev/null
echo "==> terraform apply"
terraform -chdir="$config" apply -auto-approve -input=false -no-color | sed -n -e '/^tenant_.*complete/p' -e '/^Apply complete/,$p'
echo "==> terraform plan (must show no changes)"
terraform -chdir="$config" plan -detailed-exitcode -input=false -no-color >/dev/null && echo "    no changes"

if [[ $actions == 1 ]]; then
  echo "==> terraform apply -invoke=action.tenant_phone_provider_test.demo"
  terraform -chdir="$config" apply -auto-approve -input=false -no-color -invoke=action.tenant_phone_provider_test.demo | grep -E '^Action|Apply complete'
  echo "    emulator outbox: $(python3 -c 'import json,sys,urllib.request; print(json.dumps(json.load(urllib.request.urlopen(sys.argv[1] + "/__emulator/outbox"))))' "$domain")"
else
  echo "==> Skipping the phone test action: Terraform $tf_version cannot run actions (they need 1.14 or newer)"
fi

echo "==> A token exchange, as the bridge application sends it"
# A legacy IdP token for the user legacy-42, signed with the key the action
# checks; the emulator runs the action's code (jose included) in Node.js.
python3 - "$domain" "$TF_VAR_client_id" "$TF_VAR_client_secret" "$(terraform -chdir="$config" output -raw bridge_client_id)" \
  "$(terraform -chdir="$config" output -raw subject_token_type)" "$(terraform -chdir="$config" output -raw orders_identifier)" \
  "$TF_VAR_legacy_signing_key" <<'PY'
import base64, hashlib, hmac, json, sys, time, urllib.error, urllib.parse, urllib.request
domain, cid, secret, bridge, token_type, audience, key = sys.argv[1:8]
def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
def unb64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
def jwt(claims, key):
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
    return head + "." + b64(hmac.new(key.encode(), head.encode(), hashlib.sha256).digest())
def post(url, form=None, body=None, token=None):
    data = urllib.parse.urlencode(form).encode() if form else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/x-www-form-urlencoded" if form else "application/json"})
    try:
        return 200, json.load(urllib.request.urlopen(req))
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)
# The bridge's secret, as an operator reads it (read:client_keys).
_, mgmt = post(domain + "/oauth/token", form={"grant_type": "client_credentials", "client_id": cid, "client_secret": secret,
                                                "audience": "https://" + domain.split("://", 1)[1] + "/api/v2/"})
req = urllib.request.Request(domain + "/api/v2/clients/" + bridge, headers={"Authorization": "Bearer " + mgmt["access_token"]})
bridge_secret = json.load(urllib.request.urlopen(req))["client_secret"]
now = int(time.time())
claims = {"iss": "https://legacy-idp.example.com/", "sub": "legacy-42", "email": "ada@example.com", "iat": now, "exp": now + 300}
for label, signing_key in (("a legacy token", key), ("the same token signed with another key", "not-the-legacy-key")):
    status, answer = post(domain + "/oauth/token", form={
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": bridge, "client_secret": bridge_secret,
        "subject_token": jwt(claims, signing_key), "subject_token_type": token_type, "audience": audience,
        "scope": "openid email read:orders"})
    print("    %s: %d" % (label, status))
    if status != 200:
        print("      " + json.dumps(answer))
        continue
    for name in ("access_token", "id_token"):
        print("      %s claims: %s" % (name, json.dumps(json.loads(unb64(answer[name].split(".")[1])), sort_keys=True)))
PY

echo
if [[ "${DEMO_KEEP:-0}" == 1 ]]; then
  echo "Inspect the emulator:   curl -s $domain/__emulator/state | python3 -m json.tool"
  echo "Request counters:       curl -s $domain/__emulator/stats"
  # Everything the kept configuration needs, for the commands printed below.
  env_file="$work/demo.env"
  (
    umask 077
    for name in TF_CLI_CONFIG_FILE TF_VAR_domain TF_VAR_client_id TF_VAR_client_secret TF_VAR_legacy_signing_key; do
      printf 'export %s=%q\n' "$name" "${!name}"
    done
  ) >"$env_file"
  # The Terraform the demo ran, by its path: the configuration may hold
  # what an older one on PATH cannot read (actions).
  echo "Destroy:                (source $env_file && $(command -v terraform) -chdir=$config destroy -auto-approve)"
  echo "Stop the emulator:      kill $emulator_pid"
  echo "The emulator (pid $emulator_pid) and $work are kept."
else
  echo "==> terraform destroy"
  terraform -chdir="$config" destroy -auto-approve -input=false -no-color | tail -n 1
  echo "Stopping the emulator (run with DEMO_KEEP=1 to keep it and the working folder, and to see the commands that inspect them)."
fi
