// Package role is the roles family: the tenant_role resource, data source
// and list resource, and a role's permissions, all of them
// (tenant_role_permissions, authoritative: permissionsExclusiveResource) or
// one pair each (tenant_role_permission: permissionResource).
package role
