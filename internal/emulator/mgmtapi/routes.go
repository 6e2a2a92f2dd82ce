package mgmtapi

import (
	"net/http"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

type handlerFunc func(w http.ResponseWriter, r *http.Request, c *caller) *wire.Error

// handle registers an API route that needs scope; the caller was
// authenticated before routing. The handler runs holding the store lock,
// and an *apiErr it returns becomes the error answer.
func (s *Server) handle(mux *http.ServeMux, pattern, scope string, h handlerFunc) {
	s.routes = append(s.routes, pattern)
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(callerKey{}).(*caller)
		e := c.may(scope)
		if e == nil {
			// Unlocked also when h panics, so that one failing request
			// does not stop every later one.
			func() {
				s.Lock()
				defer s.Unlock()
				e = h(w, r, c)
				s.RetireWorkers()
			}()
		}
		if e != nil {
			wire.WriteErr(w, e)
		}
	})
}

// Routes registers the API's routes.
func (s *Server) Routes(mux *http.ServeMux) {
	const tep = "/api/v2/token-exchange-profiles"
	s.handle(mux, "POST "+tep, "create:token_exchange_profiles", s.createProfile)
	s.handle(mux, "GET "+tep, "read:token_exchange_profiles", s.listProfiles)
	s.handle(mux, "GET "+tep+"/{id}", "read:token_exchange_profiles", s.getProfile)
	s.handle(mux, "PATCH "+tep+"/{id}", "update:token_exchange_profiles", s.updateProfile)
	s.handle(mux, "DELETE "+tep+"/{id}", "delete:token_exchange_profiles", s.deleteProfile)

	const act = "/api/v2/actions/actions"
	s.handle(mux, "POST "+act, "create:actions", s.createAction)
	s.handle(mux, "GET "+act, "read:actions", s.listActions)
	s.handle(mux, "GET "+act+"/{id}", "read:actions", s.getAction)
	s.handle(mux, "PATCH "+act+"/{id}", "update:actions", s.updateAction)
	s.handle(mux, "DELETE "+act+"/{id}", "delete:actions", s.deleteAction)
	// Deploying needs create:actions, as the published specification's
	// post_deploy_action lists (not in the reference; the [P] source of §2).
	s.handle(mux, "POST "+act+"/{id}/deploy", "create:actions", s.deployAction)
	s.handle(mux, "GET "+act+"/{id}/versions", "read:actions", s.listActionVersions)
	s.handle(mux, "GET "+act+"/{id}/versions/{versionId}", "read:actions", s.getActionVersion)
	s.handle(mux, "POST "+act+"/{id}/versions/{versionId}/deploy", "create:actions", s.rollBackAction)
	s.handle(mux, "POST "+act+"/{id}/test", "create:actions", s.testAction)
	s.handle(mux, "GET /api/v2/actions/triggers", "read:actions", s.listTriggers)
	s.handle(mux, "GET /api/v2/actions/triggers/{trigger}/bindings", "read:actions", s.triggerBindings)
	s.handle(mux, "PATCH /api/v2/actions/triggers/{trigger}/bindings", "update:actions", s.updateTriggerBindings)

	const roles = "/api/v2/roles"
	s.handle(mux, "POST "+roles, "create:roles", s.createRole)
	s.handle(mux, "GET "+roles, "read:roles", s.listRoles)
	s.handle(mux, "GET "+roles+"/{id}", "read:roles", s.getRole)
	s.handle(mux, "PATCH "+roles+"/{id}", "update:roles", s.updateRole)
	s.handle(mux, "DELETE "+roles+"/{id}", "delete:roles", s.deleteRole)
	s.handle(mux, "GET "+roles+"/{id}/users", "read:roles", s.roleUsers)
	s.handle(mux, "POST "+roles+"/{id}/users", "update:roles", s.assignRoleUsers)
	s.handle(mux, "GET "+roles+"/{id}/permissions", "read:roles", s.listRolePermissions)
	s.handle(mux, "POST "+roles+"/{id}/permissions", "update:roles", s.addRolePermissions)
	s.handle(mux, "DELETE "+roles+"/{id}/permissions", "update:roles", s.removeRolePermissions)

	const rs = "/api/v2/resource-servers"
	s.handle(mux, "POST "+rs, "create:resource_servers", s.createResourceServer)
	s.handle(mux, "GET "+rs, "read:resource_servers", s.listResourceServers)
	s.handle(mux, "GET "+rs+"/{id}", "read:resource_servers", s.getResourceServer)
	s.handle(mux, "PATCH "+rs+"/{id}", "update:resource_servers", s.updateResourceServer)
	s.handle(mux, "DELETE "+rs+"/{id}", "delete:resource_servers", s.deleteResourceServer)

	const users = "/api/v2/users"
	s.handle(mux, "POST "+users, "create:users", s.createUser)
	s.handle(mux, "GET "+users, "read:users", s.listUsers)
	s.handle(mux, "GET "+users+"/{id}", "read:users", s.getUser)
	s.handle(mux, "PATCH "+users+"/{id}", "update:users", s.updateUser)
	s.handle(mux, "DELETE "+users+"/{id}", "delete:users", s.deleteUser)

	const phone = "/api/v2/branding/phone/providers"
	s.handle(mux, "GET "+phone, "read:phone_providers", s.listPhoneProviders)
	s.handle(mux, "POST "+phone, "create:phone_providers", s.createPhoneProvider)
	s.handle(mux, "GET "+phone+"/{id}", "read:phone_providers", s.getPhoneProvider)
	s.handle(mux, "PATCH "+phone+"/{id}", "update:phone_providers", s.updatePhoneProvider)
	s.handle(mux, "DELETE "+phone+"/{id}", "delete:phone_providers", s.deletePhoneProvider)
	s.handle(mux, "POST "+phone+"/{id}/try", "create:phone_providers", s.tryPhoneProvider)

	// Reading a client needs read:clients or read:client_keys (the
	// handlers check); only the latter shows its secret.
	const clients = "/api/v2/clients"
	s.handle(mux, "POST "+clients, "create:clients", s.createClient)
	s.handle(mux, "GET "+clients, "", s.listClients)
	s.handle(mux, "GET "+clients+"/{id}", "", s.getClient)
	s.handle(mux, "PATCH "+clients+"/{id}", "update:clients", s.updateClient)
	s.handle(mux, "DELETE "+clients+"/{id}", "delete:clients", s.deleteClient)
	s.handle(mux, "POST "+clients+"/{id}/rotate-secret", "update:client_keys", s.rotateSecret)
	s.handle(mux, "GET "+clients+"/{id}/connections", "read:connections", s.clientConnections)

	const conns = "/api/v2/connections"
	s.handle(mux, "POST "+conns, "create:connections", s.createConnection)
	s.handle(mux, "GET "+conns, "read:connections", s.listConnections)
	s.handle(mux, "GET "+conns+"/{id}", "read:connections", s.getConnection)
	s.handle(mux, "PATCH "+conns+"/{id}", "update:connections", s.updateConnection)
	s.handle(mux, "DELETE "+conns+"/{id}", "delete:connections", s.deleteConnection)
	s.handle(mux, "GET "+conns+"/{id}/clients", "read:connections", s.connectionClients)
	s.handle(mux, "PATCH "+conns+"/{id}/clients", "update:connections", s.updateConnectionClients)

	const orgs = "/api/v2/organizations"
	s.handle(mux, "POST "+orgs, "create:organizations", s.createOrganization)
	s.handle(mux, "GET "+orgs, "read:organizations", s.listOrganizations)
	s.handle(mux, "GET "+orgs+"/{id}", "read:organizations", s.getOrganization)
	s.handle(mux, "PATCH "+orgs+"/{id}", "update:organizations", s.updateOrganization)
	s.handle(mux, "DELETE "+orgs+"/{id}", "delete:organizations", s.deleteOrganization)
	// GET /organizations/name/{name} and GET /organizations/{id}/members
	// (or enabled_connections) overlap as patterns: one route reads both.
	s.handle(mux, "GET "+orgs+"/{id}/{part}", "", s.organizationPart)
	s.handle(mux, "POST "+orgs+"/{id}/members", "create:organization_members", s.addMembers)
	s.handle(mux, "DELETE "+orgs+"/{id}/members", "delete:organization_members", s.removeMembers)
	s.handle(mux, "POST "+orgs+"/{id}/enabled_connections", "create:organization_connections", s.addOrgConnection)
	s.handle(mux, "GET "+orgs+"/{id}/enabled_connections/{connectionId}", "read:organization_connections", s.getOrgConnection)
	s.handle(mux, "PATCH "+orgs+"/{id}/enabled_connections/{connectionId}", "update:organization_connections", s.updateOrgConnection)
	s.handle(mux, "DELETE "+orgs+"/{id}/enabled_connections/{connectionId}", "delete:organization_connections", s.deleteOrgConnection)
	s.handle(mux, "GET "+orgs+"/{id}/members/{userId}/roles", "read:organization_member_roles", s.listMemberRoles)
	s.handle(mux, "POST "+orgs+"/{id}/members/{userId}/roles", "create:organization_member_roles", s.assignMemberRoles)
	s.handle(mux, "DELETE "+orgs+"/{id}/members/{userId}/roles", "delete:organization_member_roles", s.removeMemberRoles)
	s.handle(mux, "POST "+orgs+"/{id}/client-grants", "create:organization_client_grants", s.associateGrant)
	s.handle(mux, "DELETE "+orgs+"/{id}/client-grants/{grantId}", "delete:organization_client_grants", s.dissociateGrant)
	s.handle(mux, "GET /api/v2/client-grants/{id}/organizations", "read:organization_client_grants", s.grantOrganizations)

	const grants = "/api/v2/client-grants"
	s.handle(mux, "POST "+grants, "create:client_grants", s.createGrant)
	s.handle(mux, "GET "+grants, "read:client_grants", s.listGrants)
	s.handle(mux, "GET "+grants+"/{id}", "read:client_grants", s.getGrant)
	s.handle(mux, "PATCH "+grants+"/{id}", "update:client_grants", s.updateGrant)
	s.handle(mux, "DELETE "+grants+"/{id}", "delete:client_grants", s.deleteGrant)

	s.handle(mux, "GET /api/v2/tenants/settings", "read:tenant_settings", s.getTenantSettings)
	s.handle(mux, "PATCH /api/v2/tenants/settings", "update:tenant_settings", s.updateTenantSettings)

	const sit = "/api/v2/attack-protection/suspicious-ip-throttling"
	s.handle(mux, "GET "+sit, "read:attack_protection", s.getIPThrottling)
	s.handle(mux, "PATCH "+sit, "update:attack_protection", s.updateIPThrottling)
}

// capReached reports whether the store already holds the cap of a type.
func (s *Server) capReached(n int) *wire.Error {
	if s.Cap > 0 && n >= s.Cap {
		return wire.NewErr(403, "You reached the limit of entities of this type for this tenant.", "")
	}
	return nil
}
