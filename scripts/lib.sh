# Sourced by the scripts here; nothing in it runs on its own.

# install_mirror DIR VERSION: build the provider into a filesystem mirror
# under DIR and point TF_CLI_CONFIG_FILE at a CLI config that installs
# tenant-iac/tenant from it, so `terraform init` needs no registry.
install_mirror() {
  local dir=$1 version=$2
  local bin="$dir/mirror/registry.terraform.io/tenant-iac/tenant/$version/$(go env GOOS)_$(go env GOARCH)"
  mkdir -p "$bin"
  go build -trimpath -ldflags "-X main.version=$version" -o "$bin/terraform-provider-tenant_v$version" .
  cat >"$dir/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$dir/mirror"
    include = ["tenant-iac/tenant"]
  }
  direct {
    exclude = ["tenant-iac/tenant"]
  }
}
RC
  export TF_CLI_CONFIG_FILE="$dir/terraformrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
}

# terraform_version prints the installed Terraform's version.
terraform_version() {
  terraform version -json | python3 -c 'import json,sys; print(json.load(sys.stdin)["terraform_version"])'
}

# terraform_knows_identity_import: whether the installed Terraform imports
# by resource identity (import { identity = ... }, 1.12+).
terraform_knows_identity_import() {
  python3 -c 'import sys; v=tuple(int(x) for x in sys.argv[1].split("-")[0].split(".")[:2]); sys.exit(0 if v >= (1,12) else 1)' "$(terraform_version)"
}

# terraform_knows_actions: whether the installed Terraform runs actions (1.14+).
terraform_knows_actions() {
  python3 -c 'import sys; v=tuple(int(x) for x in sys.argv[1].split("-")[0].split(".")[:2]); sys.exit(0 if v >= (1,14) else 1)' "$(terraform_version)"
}
