package framework

import "testing"

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"The profile's name. Updated in place.":                          "The profile's name.",
		"A URI (e.g. `urn:a`) of 8 characters. Changing it replaces it.": "A URI (e.g. `urn:a`) of 8 characters.",
		"One sentence without a period":                                  "One sentence without a period",
		"Seconds, i.e. a number. Defaults to `3.5`.":                     "Seconds, i.e. a number.",
		"Ends with a value `v1.2`. Then more.":                           "Ends with a value `v1.2`.",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
