package oauth

import (
	"encoding/json"
	"fmt"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// Organizations in a custom token exchange (token-exchange-flow.md §5: the
// newer pages take an organization parameter, an id or a name, and the
// action's api.authentication.setOrganization; the older early-access text
// that refused the parameter no longer stands). The organization's id is
// the org_id claim of the issued tokens (the platform's SDKs document it in
// the access token [R]).
//
// Assumptions (the documentation is silent): an organization that does not
// exist is 400 invalid_request; setOrganization wins over the parameter;
// the user must be a member of the organization, or come from a connection
// enabled for it with assign_membership_on_login, which makes the user a
// member when the exchange succeeds (as an organization login does);
// otherwise 403 access_denied. The tokens carry no org_name: the platform
// adds it only under a tenant setting the emulator does not model.

// namedOrganization is the organization v names by id or name (the
// request's parameter, or setOrganization's argument), nil when v is
// empty. The answer to a name of none leaves the name to the log, as the
// token endpoint's other refusals do (§5: errors "reveal less details").
func (s *Server) namedOrganization(v string) (*tenant.Organization, *exchangeFailure) {
	if v == "" {
		return nil, nil
	}
	o := s.OrganizationByIDOrName(v)
	if o == nil {
		f := refuse(400, "invalid_request", "The organization does not exist.")
		f.detail = fmt.Sprintf("no organization has the id or name %q", v)
		return nil, f
	}
	return o, nil
}

// organizationEvent is event.organization (§3).
func organizationEvent(o *tenant.Organization) map[string]any {
	ev := map[string]any{"id": o.ID, "name": o.Name, "display_name": o.DisplayName, "metadata": map[string]any{}}
	if raw, ok := o.Rest["metadata"]; ok {
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			ev["metadata"] = m
		}
	}
	return ev
}

// setOrganization settles the exchange's organization once the user is
// known: the one setOrganization named (by id or name), else the
// parameter's; out.joinOrganization when the user becomes a member.
func (s *Server) setOrganization(req *exchangeRequest, out *outcome, named string) *exchangeFailure {
	o := req.org
	if named != "" {
		var f *exchangeFailure
		if o, f = s.namedOrganization(named); f != nil {
			return f
		}
	}
	out.organization, out.joinOrganization = o, false
	if o == nil {
		return nil
	}
	if _, member := o.Members[out.user.UserID]; member {
		return nil
	}
	if c := s.ConnectionByName(out.user.ConnectionName()); c != nil {
		if oc := o.EnabledConnection(c.ID); oc != nil && oc.AssignMembershipOnLogin {
			out.joinOrganization = true
			return nil
		}
	}
	s.Logf("fecte: the user %s is not a member of the organization %s", out.user.UserID, o.ID)
	return refuse(403, "access_denied", "The user is not a member of the organization.")
}

// orgIDClaim is the org_id claim of the organization's tokens, nil
// without an organization.
func orgIDClaim(o *tenant.Organization) json.RawMessage {
	if o == nil {
		return nil
	}
	id, _ := json.Marshal(o.ID)
	return id
}

// postLoginConnection is a post-login action's event.connection: the
// user's connection, {id, name, strategy} (the post-login event object
// [R]; the emulator keeps no connection metadata there).
func (s *Server) postLoginConnection(u *tenant.User) map[string]any {
	c := s.ConnectionByName(u.ConnectionName())
	if c == nil { // deleted while the exchange ran
		return map[string]any{"name": u.ConnectionName()}
	}
	return map[string]any{"id": c.ID, "name": c.Name, "strategy": c.Strategy}
}
