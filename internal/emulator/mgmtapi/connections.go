package mgmtapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Connections (/connections), and the clients each is enabled for in both
// directions the API has (/connections/{id}/clients, GET
// /clients/{id}/connections). Shapes as recorded [O: go-auth0 v1.46.0
// TestConnectionManager_*.yaml, TestClientManager_ReadEnabledConnections.yaml].
// Options are kept as sent and not checked against the strategy.

// connectionStrategies are the strategies a connection may have (go-auth0
// v1.46.0 management/connection.go, Connection.Strategy [S], with apple,
// oidc and okta, which it also models).
var connectionStrategies = []string{
	"ad", "adfs", "amazon", "apple", "dropbox", "bitbucket", "aol", "auth0-adldap", "auth0-oidc", "auth0", "baidu", "bitly", "box",
	"custom", "daccount", "dwolla", "email", "evernote-sandbox", "evernote", "exact", "facebook", "fitbit", "flickr", "github",
	"google-apps", "google-oauth2", "guardian", "instagram", "ip", "linkedin", "miicard", "oauth1", "oauth2", "office365", "oidc",
	"okta", "paypal", "paypal-sandbox", "pingfederate", "planningcenter", "renren", "salesforce-community", "salesforce-sandbox",
	"salesforce", "samlp", "sharepoint", "shopify", "sms", "soundcloud", "thecity-sandbox", "thecity", "thirtysevensignals",
	"twitter", "untappd", "vkontakte", "waad", "weibo", "windowslive", "wordpress", "yahoo", "line", "yammer", "yandex",
}

// connectionName is the name's rule: letters and digits, single hyphens
// between them (go-auth0's Connection.Name [S]), at most 128.
var connectionName = regexp.MustCompile(`^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$`)

// connectionKeys are the keys a create takes; an update takes them but
// name and strategy.
var connectionKeys = []string{
	"name", "display_name", "strategy", "options", "enabled_clients", "is_domain_connection", "show_as_button", "realms", "metadata",
	"authentication", "connected_accounts", "cross_app_access_resource_app", "cross_app_access_requesting_app",
}

func (s *Server) findConnection(id string) (*tenant.Connection, *wire.Error) {
	c, ok := s.St.Connections[id]
	if !ok {
		// Assumption (not recorded): the wording of the users' 404.
		return nil, wire.NewErr(404, "The connection does not exist", "inexistent_connection")
	}
	return c, nil
}

// applyConnection sets what the body sends; a refused body changes nothing
// (c is a copy).
func applyConnection(c *tenant.Connection, b wire.Body) *wire.Error {
	o := b.At("")
	var e *wire.Error
	if o.Has("display_name") {
		if c.DisplayName, e = o.Str("display_name", false, 1, 128); e != nil {
			return e
		}
	}
	if o.Has("options") {
		if _, ok, e := o.Object("options"); e != nil {
			return e
		} else if ok {
			c.Options, _ = wire.CompactJSON(b["options"])
		}
	}
	for _, k := range []string{"is_domain_connection", "show_as_button"} {
		v, e := o.Bool(k)
		if e != nil {
			return e
		}
		if v != nil && k == "is_domain_connection" {
			c.IsDomainConnection = *v
		} else if v != nil {
			c.ShowAsButton = v
		}
	}
	for _, k := range []string{"enabled_clients", "realms"} {
		if !o.Has(k) {
			continue
		}
		list, e := stringList(o, k, nil)
		if e != nil {
			return e
		}
		if k == "realms" {
			c.Realms = list
			continue
		}
		c.EnabledClients = nil
		for _, id := range list {
			c.SetEnabled(id, true)
		}
	}
	if o.Has("metadata") {
		if _, _, e := o.Object("metadata"); e != nil {
			return e
		}
		c.Metadata, _ = wire.CompactJSON(b["metadata"])
	}
	for _, k := range []string{"authentication", "connected_accounts", "cross_app_access_resource_app", "cross_app_access_requesting_app"} {
		if !o.Has(k) {
			continue
		}
		if _, _, e := o.Object(k); e != nil {
			return e
		}
		if c.Rest == nil {
			c.Rest = map[string]json.RawMessage{}
		}
		c.Rest[k], _ = wire.CompactJSON(b[k])
	}
	return nil
}

// createConnection answers 201 with the connection (recorded). Name and
// strategy are required; realms default to the name, options to what the
// tenant shows for the strategy (tenant.DefaultOptions).
//
// Assumptions: a second connection of the same name is 409 "A connection
// with the same name already exists" (errorCode connection_conflict); the
// ids in enabled_clients are not checked.
func (s *Server) createConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	o := b.At("")
	if e := o.Only(connectionKeys...); e != nil {
		return e
	}
	if e := o.Require("name", "strategy"); e != nil {
		return e
	}
	name, e := o.Str("name", true, 1, 128)
	if e != nil {
		return e
	}
	if !connectionName.MatchString(name) {
		return wire.PayloadErr("String does not match pattern ^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$: "+name, "name")
	}
	strategy, e := o.EnumReq("strategy", connectionStrategies...)
	if e != nil {
		return e
	}
	if s.ConnectionByName(name) != nil {
		return wire.NewErr(409, "A connection with the same name already exists", "connection_conflict")
	}
	if e := s.capReached(len(s.St.Connections)); e != nil {
		return e
	}
	c := &tenant.Connection{ID: tenant.NewConnectionID(), Name: name, Strategy: strategy, Options: tenant.DefaultOptions(strategy), Realms: []string{name}}
	if e := applyConnection(c, b); e != nil {
		return e
	}
	c.Seq = s.St.Next()
	s.St.Connections[c.ID] = c
	wire.WriteJSON(w, 201, c.View())
	return nil
}

// listConnections lists in creation order, filtered by strategy
// (repeatable) and name; offset pages with include_totals as
// {"total","start","limit","connections"} (recorded), or checkpoint pages
// with from/take.
func (s *Server) listConnections(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	q := r.URL.Query()
	var match []wire.Ordered
	for _, c := range tenant.SortedBySeq(s.St.Connections, func(c *tenant.Connection) int64 { return c.Seq }) {
		if st := q["strategy"]; len(st) > 0 && !slices.Contains(st, c.Strategy) {
			continue
		}
		if n := q.Get("name"); n != "" && c.Name != n {
			continue
		}
		match = append(match, c.View())
	}
	return writeList(w, r, s.FieldsEverywhere, "connections", match, true)
}

// writeList writes a list as offset pages (a bare array, or with
// include_totals {"total","start","limit",key} when totalsFirst, else
// {key,"start","limit","total"}) or, with from or take, checkpoint pages
// {key,"next"}; fields and include_fields apply.
func writeList[T any](w http.ResponseWriter, r *http.Request, everywhere bool, key string, all []T, totalsFirst bool) *wire.Error {
	sel, e := wire.ReadFields(r, true, everywhere)
	if e != nil {
		return e
	}
	if all == nil {
		all = []T{}
	}
	q := r.URL.Query()
	if q.Has("take") || q.Has("from") {
		return writeCheckpoint(w, r, sel, key, all)
	}
	page, perPage, totals, e := wire.OffsetPage(r)
	if e != nil {
		return e
	}
	start, end := wire.Window(len(all), page, perPage)
	items := wire.Each(sel, all[start:end])
	switch {
	case !totals:
		wire.WriteJSON(w, 200, items)
	case totalsFirst:
		wire.WriteJSON(w, 200, wire.Ordered{{"total", len(all)}, {"start", page * perPage}, {"limit", perPage}, {key, items}})
	default:
		wire.WriteJSON(w, 200, wire.Ordered{{key, items}, {"start", page * perPage}, {"limit", perPage}, {"total", len(all)}})
	}
	return nil
}

func (s *Server) getConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.findConnection(wire.PathID(r))
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	wire.WriteJSON(w, 200, sel.One(c.View()))
	return nil
}

// updateConnection sets what the body sends and answers 200 with the
// connection (recorded); options sent replace the stored ones whole
// (go-auth0's ConnectionManager.Update [S]: "the whole options object will
// be overridden"). Name and strategy cannot change (not in the update
// body: 400).
func (s *Server) updateConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.findConnection(wire.PathID(r))
	if e != nil {
		return e
	}
	b, e := wire.ReadBody(r)
	if e != nil {
		return e
	}
	if e := b.Only(slices.DeleteFunc(slices.Clone(connectionKeys), func(k string) bool { return k == "name" || k == "strategy" })...); e != nil {
		return e
	}
	next := c.Clone()
	if e := applyConnection(next, b); e != nil {
		return e
	}
	s.St.Connections[c.ID] = next
	wire.WriteJSON(w, 200, next.View())
	return nil
}

// deleteConnection deletes the connection and its users ("Delete a
// connection and all its users", go-auth0 [S]) and answers 202
// {"deleted_at"} (recorded). Assumption: an id of no connection is 404.
func (s *Server) deleteConnection(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.findConnection(wire.PathID(r))
	if e != nil {
		return e
	}
	delete(s.St.Connections, c.ID)
	for id, u := range s.St.Users {
		if u.ConnectionName() == c.Name {
			s.removeUser(id)
		}
	}
	s.ForgetConnection(c.ID)
	wire.WriteJSON(w, 202, wire.Ordered{{"deleted_at", wire.Millis(time.Now())}})
	return nil
}

// connectionClients lists the clients the connection is enabled for as
// checkpoint pages, {"clients":[{"client_id"}],"next"} (recorded), in the
// order they were enabled.
func (s *Server) connectionClients(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.findConnection(wire.PathID(r))
	if e != nil {
		return e
	}
	all := make([]wire.Ordered, 0, len(c.EnabledClients))
	for _, id := range c.EnabledClients {
		all = append(all, wire.Ordered{{"client_id", id}})
	}
	return writeCheckpoint(w, r, nil, "clients", all)
}

// updateConnectionClients takes [{"client_id","status"}], enables or
// disables the connection for each client, and answers 204 (recorded).
//
// Assumptions: both keys are required, an empty list is accepted, and an
// id of no client is 404 (nothing changed).
func (s *Server) updateConnectionClients(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	c, e := s.findConnection(wire.PathID(r))
	if e != nil {
		return e
	}
	var items []json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&items); err != nil {
		return wire.NewErr(400, "Payload validation error: 'Expected type array but found type object' on property #/.", "invalid_body")
	}
	next := c.Clone()
	for i, raw := range items {
		at := "[" + strconv.Itoa(i) + "]"
		o, ok, e := wire.AsObject(raw, at)
		if e != nil {
			return e
		}
		if !ok {
			return wire.PayloadErr("Expected type object but found type "+wire.JSONType(raw), at)
		}
		if e := o.Only("client_id", "status"); e != nil {
			return e
		}
		if e := o.Require("client_id", "status"); e != nil {
			return e
		}
		id, e := o.Str("client_id", true, 1, 0)
		if e != nil {
			return e
		}
		on, e := o.BoolReq("status")
		if e != nil {
			return e
		}
		if _, known := s.St.Clients[id]; !known {
			return wire.NewErr(404, "The client does not exist", "inexistent_client")
		}
		next.SetEnabled(id, on)
	}
	s.St.Connections[c.ID] = next
	wire.NoContent(w)
	return nil
}

// clientConnections lists the connections enabled for a client as
// checkpoint pages, {"connections":[...],"next"} (recorded with take=50),
// filtered by strategy (repeatable).
func (s *Server) clientConnections(w http.ResponseWriter, r *http.Request, _ *caller) *wire.Error {
	cl, e := s.lookupClient(r)
	if e != nil {
		return e
	}
	sel, e := wire.ReadFields(r, true, s.FieldsEverywhere)
	if e != nil {
		return e
	}
	strategies := r.URL.Query()["strategy"]
	all := []wire.Ordered{}
	for _, c := range tenant.SortedBySeq(s.St.Connections, func(c *tenant.Connection) int64 { return c.Seq }) {
		if c.EnabledFor(cl.ID) && (len(strategies) == 0 || slices.Contains(strategies, c.Strategy)) {
			// Without enabled_clients (recorded).
			v := slices.DeleteFunc(c.View(), func(kv struct {
				K string
				V any
			}) bool {
				return kv.K == "enabled_clients"
			})
			all = append(all, v)
		}
	}
	return writeCheckpoint(w, r, sel, "connections", all)
}

// writeCheckpoint writes a checkpoint page of all, {key,"next"}, next left
// out on the last page [O]; sel (nil: none) applies fields.
func writeCheckpoint[T any](w http.ResponseWriter, r *http.Request, sel *wire.FieldSelection, key string, all []T) *wire.Error {
	take, offset, e := wire.Checkpoint(r)
	if e != nil {
		return e
	}
	start, end := min(offset, len(all)), min(offset+take, len(all))
	reply := wire.Ordered{{key, wire.Each(sel, all[start:end])}}
	if end < len(all) {
		reply = append(reply, wire.Ordered{{"next", wire.Cursor(end)}}...)
	}
	wire.WriteJSON(w, 200, reply)
	return nil
}
