package tenant

import (
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The tenant's system APIs (reference §4): the Management API, there from
// the start (seedSystem), and two that the tenant makes from a template when
// an API is created with their identifier: "Okta OIN Express Configuration
// API" (urn:auth0:express-configure) and "Auth0 My Account API"
// (https://<tenant>/me/).

const ExpressConfigureIdentifier = "urn:auth0:express-configure"

// SystemKind names which system API rs is ("" for an ordinary API).
type SystemKind string

const (
	NotSystem        SystemKind = ""
	ManagementAPI    SystemKind = "management"
	ExpressConfigure SystemKind = "express-configure"
	MyAccount        SystemKind = "my-account"
)

// MyAccountAudience is the identifier of this tenant's My Account API.
func (s *Tenant) MyAccountAudience() string { return "https://" + s.Host + "/me/" }

func (s *Tenant) SystemKindOf(rs *ResourceServer) SystemKind {
	switch {
	case !rs.IsSystem:
		return NotSystem
	case rs.Identifier == ExpressConfigureIdentifier:
		return ExpressConfigure
	case rs.Identifier == s.MyAccountAudience():
		return MyAccount
	default:
		return ManagementAPI
	}
}

func scope(value, description string) Scope {
	return Scope{Value: value, Description: &description}
}

// SystemTemplate is the system API the tenant makes when an API with
// identifier ident is created, or nil for an ordinary identifier. Every
// field comes from the template: the values of the create body are
// validated and then not used ("name forced", reference §4).
//
// The express-configuration API is as recorded
// (TestResourceServer_ExpressConfiguration.yaml: its create answer and its
// list item). The My Account API is as its list item was recorded in the
// same cassette (token lifetimes 600, reference §4); its create answer was
// not recorded, and is assumed to be that object.
func (s *Tenant) SystemTemplate(ident string) *ResourceServer {
	enforced := true
	name := func(n string) *string { return &n }
	switch ident {
	case ExpressConfigureIdentifier:
		return &ResourceServer{
			Name: name("Okta OIN Express Configuration API"), Identifier: ident, TokenLifetime: 300, TokenLifetimeForWeb: 7200, SigningAlg: "RS256",
			SubjectTypeAuthorization: &SubjectTypeAuthorization{Client: &Policy{"deny_all"}, User: &Policy{"allow_all"}},
			Scopes: &[]Scope{
				scope("express_configure:sso", "Ability to create SSO configurations"),
				scope("express_configure:scim", "Ability to create scim configurations"),
			},
			EnforcePolicies: &enforced, IsSystem: true,
		}
	case s.MyAccountAudience():
		return &ResourceServer{
			Name: name("Auth0 My Account API"), Identifier: ident, AllowOfflineAccess: true, TokenLifetime: 600, TokenLifetimeForWeb: 600, SigningAlg: "RS256",
			SubjectTypeAuthorization: &SubjectTypeAuthorization{Client: &Policy{"deny_all"}, User: &Policy{"require_client_grant"}},
			Scopes: &[]Scope{
				scope("read:me:authentication_methods", "Read Authentication Methods"),
				scope("delete:me:authentication_methods", "Delete Authentication Methods"),
				scope("update:me:authentication_methods", "Update Authentication Methods"),
				scope("read:me:factors", "Read Factors"),
				scope("create:me:authentication_methods", "Create Authentication Methods"),
			},
			IsSystem: true,
		}
	}
	return nil
}

// SystemPatch refuses the keys of a PATCH that a system API does not take.
//
// The Management API takes only systemPatchable: name is refused with
// "Additional properties not allowed: name" (reference §4, [R]). Any PATCH
// of the express-configuration API is refused with 400 (reference §4, [O];
// the recorded body was lost). Assumptions: the express-configuration API
// takes no key at all, so its 400 names the keys sent as additional
// properties, and an empty body is refused too, with "The system API
// urn:auth0:express-configure cannot be updated." (errorCode
// operation_not_supported); the My Account API takes what the Management
// API takes.
func SystemPatch(kind SystemKind, rs *ResourceServer, b wire.Body) *wire.Error {
	if kind != ExpressConfigure {
		return b.Only(systemPatchable...)
	}
	if e := b.Only(); e != nil {
		return e
	}
	return wire.NewErr(400, "The system API "+rs.Identifier+" cannot be updated.", "operation_not_supported")
}

// SystemDelete refuses to delete the Management API, which the tenant
// cannot be without (reference §4: the real answer is unknown, 400 or 403
// suggested). The express-configuration API is deleted (204, recorded).
// Assumption: the My Account API, made from a template like it, is
// deleted too.
func SystemDelete(kind SystemKind, rs *ResourceServer) *wire.Error {
	if kind == ManagementAPI {
		return wire.NewErr(400, "The system resource server "+rs.Identifier+" cannot be deleted.", "operation_not_supported")
	}
	return nil
}

// KeepSystemAPIs keeps, of a saved tenant's system APIs, the ones made
// from templates. The My Account API moves to this
// address (its identifier names the host), and the role permissions of it
// with it; the Management API is always this address's (seedSystem).
func (s *Tenant) KeepSystemAPIs(st *Store) {
	for id, rs := range st.ResourceServers {
		if !rs.IsSystem || rs.Identifier == ExpressConfigureIdentifier {
			continue
		}
		if !strings.HasSuffix(rs.Identifier, "/me/") {
			delete(st.ResourceServers, id)
			continue
		}
		old, now := rs.Identifier, s.MyAccountAudience()
		rs.Identifier = now
		for _, perms := range st.RolePerms {
			if scopes, ok := perms[old]; ok && old != now {
				perms[now] = scopes
				delete(perms, old)
			}
		}
	}
}

// systemPatchable are the only fields PATCH accepts on a system API.
var systemPatchable = []string{"token_lifetime", "skip_consent_for_verifiable_first_party_clients", "subject_type_authorization"}
