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
	got := exchangeRefusedDetail(x, &mgmt.OAuthError{StatusCode: 429, Code: "too_many_attempts"})
	if want := "client app: 429 too_many_attempts. This address"; !strings.Contains(got, want) {
		t.Errorf("without a description: detail\n%q\ndoes not hold\n%q", got, want)
	}
}

// A 5xx is the action's failure (or the tenant's), which the answer's
// description names, and no refusal a configuration could accept.
func TestExchangeRefusedDetail_failure(t *testing.T) {
	x := mgmt.TokenExchangeRequest{ClientID: "app", SubjectTokenType: "urn:acme:legacy"}
	for _, e := range []*mgmt.OAuthError{
		{StatusCode: 500, Code: "server_error", Description: "The custom token exchange action did not complete in time."},
		{StatusCode: 500, Code: "server_error", Description: "The custom token exchange action failed."},
		{StatusCode: 502, Code: "Bad Gateway"},
	} {
		got := exchangeRefusedDetail(x, e)
		for _, want := range []string{
			"failed in the tenant: " + refusalWords(e) + ". The profile's action crashed, threw or did not end within its time limit",
			"this is not a refusal",
			"tenant's logs",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%d %s: detail\n%q\ndoes not hold\n%q", e.StatusCode, e.Description, got, want)
			}
		}
		if strings.Contains(got, "accept_refusal") {
			t.Errorf("%d %s: detail\n%q\nadvises accept_refusal for a failure", e.StatusCode, e.Description, got)
		}
	}
}

// A throttled address gets what to do about the throttle, not the advice
// for a refusal a configuration checks.
func TestExchangeRefusedDetail_throttled(t *testing.T) {
	x := mgmt.TokenExchangeRequest{ClientID: "app", SubjectTokenType: "urn:acme:legacy"}
	got := exchangeRefusedDetail(x, &mgmt.OAuthError{StatusCode: 429, Code: "too_many_attempts",
		Description: "We have detected suspicious login behavior and further attempts will be blocked. Please contact the administrator."})
	for _, want := range []string{
		"client app: 429 too_many_attempts: We have detected suspicious login behavior and further attempts will be blocked. " +
			"Please contact the administrator. This address is throttled after repeated rejected subject tokens.\n\n",
		"pre-custom-token-exchange",
		"--no-exchange-throttle",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("detail\n%q\ndoes not hold\n%q", got, want)
		}
	}
	if strings.Contains(got, "accept_refusal") {
		t.Errorf("detail\n%q\nadvises accept_refusal for a throttled address", got)
	}
}
