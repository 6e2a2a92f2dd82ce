// Package mgmtapi is the tenant's Management API v2 as the emulator serves
// it: each route under /api/v2, the checks of its bodies and its answers,
// the scopes a caller needs, and the bearer tokens it takes.
package mgmtapi

import (
	"crypto/rsa"
	"fmt"
	"net/http"
	"slices"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// Server answers the Management API routes for one tenant.
type Server struct {
	*tenant.Tenant
	runtime *actionruntime.Runtime
	key     *rsa.PublicKey // checks the bearer tokens
	routes  []string       // set before it serves, read only after
}

// Served are the routes it serves, as registered ("GET
// /api/v2/roles/{id}").
func (s *Server) Served() []string { return slices.Clone(s.routes) }

// New returns the routes of the tenant, whose bearer tokens key checks;
// deploys and deletions retire the actions' workers in rt.
func New(t *tenant.Tenant, rt *actionruntime.Runtime, key *rsa.PublicKey) *Server {
	return &Server{Tenant: t, runtime: rt, key: key}
}

// logf logs what the emulator did not do of a request it served, such as
// running an action's code.
func (s *Server) logf(r *http.Request, format string, args ...any) {
	s.Logf("%s %s: %s", r.Method, r.URL.EscapedPath(), fmt.Sprintf(format, args...))
}
