package emulator

import (
	"fmt"
	"testing"
)

// A profile on an action that does not exist, lacks the
// custom-token-exchange trigger or is not deployed is refused with 400
// (reference §1 [P]), and nothing is created.
func TestCreateProfile_refusesActionItCannotRun(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	undeployed := h.action(tok, "custom-token-exchange", false)
	other := h.action(tok, "post-login", true)
	for i, id := range []string{"00000000-0000-4000-8000-000000000000", undeployed, other} {
		body := fmt.Sprintf(`{"name":"p%d-name","subject_token_type":"urn:acme:t%d","action_id":%q,"type":"custom_authentication"}`, i, i, id)
		h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", body), 400)
	}
	h.expect(h.call(tok, "GET", "/api/v2/token-exchange-profiles", ""), 200, `{"token_exchange_profiles":[]}`)
}
