package emulator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// The token endpoint's refusals of a user hold no stored user data (the
// user's email, the connection): the answer is short, and the detail goes
// to the emulator's log, on the exchange's fecte line.
func TestExchange_errorsHoldNoUserData(t *testing.T) {
	log := &emutest.Log{}
	x := newExchangeTenant(t, Options{Log: log}, `
  const [id, email, replace] = event.transaction.subject_token.split(",");
  api.authentication.setUserByConnection("Username-Password-Authentication", { user_id: id, email },
    { creationBehavior: "create_if_not_exists", updateBehavior: replace ? "replace" : "none" });`, "", "")
	if status, out := x.exchange("ada,ada.lovelace@example.com"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	for _, tc := range []struct{ subject, desc, detail string }{
		{"ada,grace.hopper@example.com,replace", "email cannot be changed by a replace.", `the user's is "ada.lovelace@example.com"`},
		{"other,ada.lovelace@example.com", "The user already exists.", "has the email ada.lovelace@example.com"},
	} {
		status, out := x.exchange(tc.subject)
		desc := fmt.Sprint(out["error_description"])
		if status != 400 || desc != tc.desc || strings.Contains(desc, "@") || strings.Contains(desc, "Username-Password-Authentication") {
			t.Fatalf("%s: %d %v", tc.subject, status, out)
		}
		waitFor(t, func() bool {
			for _, l := range strings.Split(log.String(), "\n") {
				if strings.Contains(l, "fecte:") && strings.Contains(l, tc.desc) && strings.Contains(l, tc.detail) {
					return true
				}
			}
			return false
		}, "the detail in the log: "+log.String())
	}
}
