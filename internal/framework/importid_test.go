package framework_test

import (
	"slices"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework"
)

func TestImportIDParts(t *testing.T) {
	names3 := []string{"role id", "identifier", "permission name"}
	for _, tc := range []struct {
		id      string
		free    int
		names   []string
		want    []string
		problem string
	}{
		{"rol_1::https://api/::read:x", 1, names3, []string{"rol_1", "https://api/", "read:x"}, ""},
		{"rol_1::urn:a::b::read:x", 1, names3, []string{"rol_1", "urn:a::b", "read:x"}, ""},
		{"rol_1::https://[::1]/::read:x", 1, names3, []string{"rol_1", "https://[::1]/", "read:x"}, ""},
		{"rol_1::https://api/", 1, names3, nil, `does not have three parts separated by "::"`},
		{"::https://api/::read:x", 1, names3, nil, "has an empty role id"},
		{"rol_1::::read:x", 1, names3, nil, "has an empty identifier"},
		{"rol_1::https://api/::", 1, names3, nil, "has an empty permission name"},
		{"abc::urn:a::b", 1, []string{"client id", "audience"}, []string{"abc", "urn:a::b"}, ""},
		{"abc::urn:a::b", -1, []string{"client id", "audience"}, nil, `does not have two parts separated by "::"`},
		{"abc::def", -1, []string{"client id", "audience"}, []string{"abc", "def"}, ""},
		{"abc", 1, []string{"client id", "audience"}, nil, `does not have two parts separated by "::"`},
	} {
		got, problem := framework.ImportIDParts(tc.id, tc.free, tc.names...)
		if problem != tc.problem || !slices.Equal(got, tc.want) {
			t.Errorf("ImportIDParts(%q, %d) = %q, %q; want %q, %q", tc.id, tc.free, got, problem, tc.want, tc.problem)
		}
	}
}
