package tokenexchangeprofile

import (
	"strings"
	"testing"
)

func TestParseImportID(t *testing.T) {
	for in, want := range map[string]importKind{
		"tep_YGHxatF4SVyjeMyp":       importByID,
		"https://acme.com/cis-token": importBySubjectTokenType,
		"urn:acme:token":             importBySubjectTokenType,
		"":                           importInvalid,
		"tep x":                      importInvalid,
	} {
		if got := parseImportID(in); got != want {
			t.Errorf("%q: got %v, want %v", in, got, want)
		}
	}
}

func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{"tep_1", "urn:a:b", "", " ", "https://x/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := parseImportID(s)
		if k == importByID && (s == "" || strings.Contains(s, ":")) {
			t.Fatalf("%q parsed as an id", s)
		}
	})
}
