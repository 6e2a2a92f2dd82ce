package framework_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

var api = framework.Object{TypeName: "tenant_resource_server", Summary: "resource server", Noun: "API"}

// idState is a state of a schema with an id and a name, holding id.
func idState(id string) tfsdk.State {
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true},
		"name": schema.StringAttribute{Optional: true},
	}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "name": tftypes.String}}
	return tfsdk.State{Schema: s, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"id":   tftypes.NewValue(tftypes.String, id),
		"name": tftypes.NewValue(tftypes.String, nil),
	})}
}

// oneDiag is the only diagnostic as "summary: detail", "" for none.
func oneDiag(t *testing.T, diags diag.Diagnostics) string {
	t.Helper()
	switch len(diags) {
	case 0:
		return ""
	case 1:
		return diags[0].Summary() + ": " + diags[0].Detail()
	}
	t.Fatalf("%d diagnostics: %v", len(diags), diags)
	return ""
}

func TestObject_Delete(t *testing.T) {
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"deleted": {nil, ""},
		"failed":  {&mgmt.APIError{StatusCode: http.StatusForbidden, Err: "Forbidden", Message: "no"}, `Unable to delete resource server: Deleting the API "0123" failed.`},
	} {
		t.Run(name, func(t *testing.T) {
			var asked string
			resp := resource.DeleteResponse{}
			api.Delete(context.Background(), resource.DeleteRequest{State: idState("0123")}, &resp, func(_ context.Context, id string) error {
				asked = id
				return c.err
			})
			if asked != "0123" {
				t.Errorf("deleted %q, want the state's id", asked)
			}
			if got := oneDiag(t, resp.Diagnostics); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
				t.Errorf("diagnostics %q, want %q", got, c.want)
			}
		})
	}
}

func TestReadImported(t *testing.T) {
	type found struct{ ID string }
	const accepted = "the API's id"
	for name, c := range map[string]struct {
		id   string
		err  error
		read bool
		want string
	}{
		"found":     {"0123", nil, true, ""},
		"not found": {"0123", &mgmt.APIError{StatusCode: http.StatusNotFound}, true, `Unable to import resource server: No API in the tenant matches the import ID "0123". Use the API's id.`},
		"failed":    {"0123", errors.New("boom"), true, `Unable to import resource server: Reading the API "0123" failed.`},
		"invalid":   {"..", nil, false, `Invalid import ID: The import ID ".." for tenant_resource_server`},
	} {
		t.Run(name, func(t *testing.T) {
			var asked string
			resp := resource.ImportStateResponse{}
			got := framework.ReadImported(context.Background(), resource.ImportStateRequest{ID: c.id}, &resp, api, accepted,
				func(_ context.Context, id string) (*found, error) {
					asked = id
					if c.err != nil {
						return nil, c.err
					}
					return &found{ID: id}, nil
				})
			if (asked != "") != c.read || c.read && asked != c.id {
				t.Errorf("read %q, want a read of %q: %v", asked, c.id, c.read)
			}
			if (got != nil) != (c.want == "") {
				t.Errorf("got %v with diagnostics %v", got, resp.Diagnostics)
			}
			if d := oneDiag(t, resp.Diagnostics); !strings.HasPrefix(d, c.want) || (c.want == "") != (d == "") {
				t.Errorf("diagnostics %q, want %q", d, c.want)
			}
		})
	}
}
