package resourceserver_test

import (
	"os"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
)

func TestMain(m *testing.M) { os.Exit(acctest.Main(m)) }
