package tokenexchangeprofile_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tenant-iac/terraform-provider-tenant/internal/tokenexchangeprofile"
)

func TestSchema_validateImplementation(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	tokenexchangeprofile.NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	if d := rs.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	var ds datasource.SchemaResponse
	tokenexchangeprofile.NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &ds)
	if d := ds.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatal(d)
	}
	for name, a := range rs.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s has no description", name)
		}
	}
}

func TestParseImportID(t *testing.T) {
	for in, want := range map[string]tokenexchangeprofile.ImportKind{
		"tep_YGHxatF4SVyjeMyp":       tokenexchangeprofile.ImportByID,
		"https://acme.com/cis-token": tokenexchangeprofile.ImportBySubjectTokenType,
		"urn:acme:token":             tokenexchangeprofile.ImportBySubjectTokenType,
		"":                           tokenexchangeprofile.ImportInvalid,
		"tep x":                      tokenexchangeprofile.ImportInvalid,
	} {
		if got := tokenexchangeprofile.ParseImportID(in); got != want {
			t.Errorf("%q: got %v, want %v", in, got, want)
		}
	}
}

func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{"tep_1", "urn:a:b", "", " ", "https://x/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := tokenexchangeprofile.ParseImportID(s)
		if k == tokenexchangeprofile.ImportByID && (s == "" || len(s) > 0 && containsColon(s)) {
			t.Fatalf("%q parsed as an id", s)
		}
	})
}

func containsColon(s string) bool {
	for _, r := range s {
		if r == ':' {
			return true
		}
	}
	return false
}
