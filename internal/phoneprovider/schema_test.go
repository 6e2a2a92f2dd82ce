package phoneprovider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/phoneprovider"
)

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	phoneprovider.NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	phoneprovider.NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	for name, a := range rs.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s has no description", name)
		}
	}
	// The data source is the resource's schema without the write-only
	// credentials and their version, every attribute computed.
	for name := range rs.Schema.Attributes {
		a, ok := ds.Schema.Attributes[name]
		switch {
		case name == "credentials_wo" || name == "credentials_wo_version":
			if ok {
				t.Errorf("the data source has %s", name)
			}
		case !ok || !a.IsComputed():
			t.Errorf("the data source's %s: %v", name, a)
		}
	}
}

func TestMoveState_fromIncumbent(t *testing.T) {
	for _, tc := range []struct {
		state, name, version string
	}{
		{`{"id": "pro_3UzyS4veHQLMTCt3EzXgTt", "name": "twilio", "disabled": true, "channel": "phone", "tenant": "acme",
		   "credentials": [{"auth_token": "incumbent-token"}],
		   "configuration": [{"delivery_methods": ["voice", "text"], "sid": "AC1", "default_from": "+15550001111", "mssid": ""}]}`, "twilio", "0"},
		{`{"id": "pro_3UzyS4veHQLMTCt3EzXgTt", "name": "custom", "disabled": false, "channel": "phone", "tenant": "acme",
		   "credentials": [{"auth_token": ""}], "configuration": [{"delivery_methods": ["text"], "sid": "", "default_from": "", "mssid": ""}]}`, "custom", "<null>"},
	} {
		state, identity, moved, diags := acctest.MoveState(t, phoneprovider.NewResource(), "registry.terraform.io/auth0/auth0", "auth0_phone_provider", tc.state)
		if diags.HasError() || !moved {
			t.Fatalf("moved %v: %v", moved, diags)
		}
		raw := state.Raw.String()
		for _, want := range []string{`"name":tftypes.String<"` + tc.name + `">`, `"credentials_wo_version":tftypes.Number<"` + tc.version + `">`} {
			if tc.version == "<null>" {
				want = `"credentials_wo_version":tftypes.Number<null>`
			}
			if !strings.Contains(raw, want) {
				t.Errorf("%s: state %s lacks %s", tc.name, raw, want)
			}
		}
		if strings.Contains(raw, "incumbent-token") {
			t.Errorf("the incumbent's auth token was kept: %s", raw)
		}
		var id string
		identity.GetAttribute(context.Background(), path.Root("id"), &id)
		if id != "pro_3UzyS4veHQLMTCt3EzXgTt" {
			t.Errorf("identity %q", id)
		}
	}
}
