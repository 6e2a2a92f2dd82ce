package main

import (
	"flag"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "start the provider with support for debuggers like delve")
	flag.Parse()
	quietSDKLogs()

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	if err := tf6server.Serve("registry.terraform.io/tenant-iac/tenant", provider.NewServer(version), opts...); err != nil {
		log.Fatal(err)
	}
}

// quietSDKLogs turns the plugin SDK's own logs off when Terraform shows no
// provider logs (no TF_LOG* variable set). The SDK logs at trace level by
// default and Terraform drops those lines unread; formatting them costs a
// fifth of the memory a 1,000-object plan allocates. Any TF_LOG* variable
// leaves every logger as the SDK sets it.
func quietSDKLogs() {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		_ = os.Setenv(name, "off")
	}
}
