package framework_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestCreation_result(t *testing.T) {
	c := framework.Creation{TypeName: "tenant_resource_server", Summary: "resource server", Noun: "API", Key: "identifier", Value: "https://a"}
	found := &framework.Found{ID: "0123", Description: `name "N"`}
	for name, tc := range map[string]struct {
		outcome mgmt.CreateOutcome
		err     error
		ok      bool
		want    string
	}{
		"created":  {mgmt.Created, nil, true, ""},
		"adopted":  {mgmt.Adopted, nil, true, "Resource server created after a lost answer: The answer to creating the API with identifier \"https://a\" was lost"},
		"existed":  {mgmt.Created, errors.Join(mgmt.ErrExists, errors.New("409")), false, "An API with identifier \"https://a\" already exists in the tenant (id 0123, name \"N\")"},
		"differs":  {mgmt.Created, errors.Join(mgmt.ErrDifferent, errors.New("5xx")), false, "terraform import tenant_resource_server.<name> 0123"},
		"an error": {mgmt.Created, errors.New("boom"), false, "Unable to create resource server: other: boom"},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			ok := c.Result(found, tc.outcome, tc.err, func(err error) string { return "other: " + err.Error() }, &diags)
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary()+": "+d.Detail())
			}
			if ok != tc.ok || (tc.want == "") != (len(diags) == 0) || !strings.Contains(strings.Join(got, "\n"), tc.want) {
				t.Fatalf("ok %v, diagnostics %q; want ok %v and %q", ok, got, tc.ok, tc.want)
			}
		})
	}
}

// TestCreation_notUnique: a lost answer whose create found objects under a
// key that is not unique names them and adopts none; a 409 is the API's.
func TestCreation_notUnique(t *testing.T) {
	c := framework.Creation{TypeName: "tenant_client", Summary: "client", Noun: "client", Key: "name", Value: "web", NotUnique: true}
	found := &framework.Found{ID: "new", Description: "and old"}
	for name, tc := range map[string]struct {
		err  error
		want string
	}{
		"lost": {errors.Join(mgmt.ErrDifferent, errors.New("5xx")), "The answer to creating the client with name \"web\" was lost, and " +
			"the tenant now holds the client new, and old of that name. The name is not unique, so none was adopted.\n\n" +
			"If one is this apply's, import it:\n  terraform import tenant_client.<name> new\notherwise apply again."},
		"409": {errors.Join(mgmt.ErrExists, errors.New("409")), "other: "},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			if c.Result(found, mgmt.Created, tc.err, func(err error) string { return "other: " + err.Error() }, &diags) {
				t.Fatal("reported created")
			}
			if len(diags) != 1 || !strings.Contains(diags[0].Detail(), tc.want) {
				t.Fatalf("%v, want %q", diags, tc.want)
			}
		})
	}
}

// TestCreation_nothingFound: a 409 whose lookup found nothing still gives an
// import command that works: by the key where the import takes it.
func TestCreation_nothingFound(t *testing.T) {
	exists := errors.Join(mgmt.ErrExists, errors.New("409"))
	for _, tc := range []struct {
		c    framework.Creation
		want string
	}{
		{framework.Creation{TypeName: "tenant_role", Summary: "role", Noun: "role", Key: "name", Value: "support", ImportByKey: true},
			"terraform import tenant_role.<name> support"},
		{framework.Creation{TypeName: "tenant_action", Summary: "action", Noun: "action", Key: "name", Value: "x"},
			"terraform import tenant_action.<name> <the id of the existing action>"},
	} {
		var diags diag.Diagnostics
		tc.c.Result(nil, mgmt.Created, exists, nil, &diags)
		if len(diags) != 1 || !strings.Contains(diags[0].Detail(), tc.want) {
			t.Fatalf("%s: %v, want %q", tc.c.TypeName, diags, tc.want)
		}
	}
}
