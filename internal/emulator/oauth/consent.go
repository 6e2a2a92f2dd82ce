package oauth

import "github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"

// consentRequired refuses an exchange for an API that does not let
// first-party clients skip the user's consent: a token exchange has no
// user present to consent (token-exchange-flow.md §5 [R], the CTE
// troubleshooting: "invalid_request" with "consent_required" means the
// API's "Allow Skipping User Consent",
// skip_consent_for_verifiable_first_party_clients, must be on). The
// exchange's clients are first-party, so the API's setting decides.
//
// Assumptions [?]: the description is "consent_required" as the
// troubleshooting quotes it; the refusal comes before the action runs
// (the API's setting is known then), so no action runs and no user is
// made; a consent the user gave in an interactive login is not looked for
// (the emulator has no interactive logins).
func consentRequired(rs *tenant.ResourceServer) *exchangeFailure {
	if rs.SkipConsent {
		return nil
	}
	return refuse(400, "invalid_request", "consent_required")
}
