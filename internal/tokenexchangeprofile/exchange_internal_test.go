package tokenexchangeprofile

import (
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The tenant's descriptions end with a period, or do not: the detail ends
// the sentence once either way.
func TestExchangeRefusedDetail_onePeriod(t *testing.T) {
	x := mgmt.TokenExchangeRequest{ClientID: "app", SubjectTokenType: "urn:acme:legacy"}
	for _, desc := range []string{"The subject token is not a good one.", "The subject token is not a good one"} {
		got := exchangeRefusedDetail(x, &mgmt.OAuthError{StatusCode: 400, Code: "invalid_request", Description: desc})
		want := `The tenant refused the exchange of a "urn:acme:legacy" subject token for client app: ` +
			"400 invalid_request: The subject token is not a good one.\n\n"
		if !strings.HasPrefix(got, want) {
			t.Errorf("description %q: detail\n%q\ndoes not start with\n%q", desc, got, want)
		}
	}
	got := exchangeRefusedDetail(x, &mgmt.OAuthError{StatusCode: 502, Code: "Bad Gateway"})
	if want := "client app: 502 Bad Gateway.\n\n"; !strings.Contains(got, want) {
		t.Errorf("without a description: detail\n%q\ndoes not hold\n%q", got, want)
	}
}

