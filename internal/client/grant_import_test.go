package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/client"
)

// TestGrantImport_emptySide: an import ID with an empty side of "::" is
// refused before any request (the resource has no tenant to send one to),
// naming the forms it takes.
func TestGrantImport_emptySide(t *testing.T) {
	r := client.NewGrantResource().(resource.ResourceWithImportState)
	for id, want := range map[string]string{
		"::https://api.example.com": "has an empty client_id",
		"abc::":                     "has an empty audience",
		"::":                        "has an empty client_id",
	} {
		var resp resource.ImportStateResponse
		r.ImportState(context.Background(), resource.ImportStateRequest{ID: id}, &resp)
		if !resp.Diagnostics.HasError() {
			t.Errorf("%q: no error", id)
			continue
		}
		detail := resp.Diagnostics.Errors()[0].Detail()
		if !strings.Contains(detail, want) || !strings.Contains(detail, "the grant's id (cgr_...) or client_id::audience") {
			t.Errorf("%q: %s", id, detail)
		}
	}
}
