package tenant

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// Connection is a source of users (/connections). Options are kept as they
// were sent; the tenant fills some in that the emulator does not model
// (recorded: an auth0 connection created without options shows mfa,
// passwordPolicy, ...; see DefaultOptions).
type Connection struct {
	ID                 string          `json:"id"`
	Name               string          `json:"name"`
	DisplayName        string          `json:"display_name,omitempty"`
	Strategy           string          `json:"strategy"`
	Options            json.RawMessage `json:"options"`
	EnabledClients     []string        `json:"enabled_clients"`
	IsDomainConnection bool            `json:"is_domain_connection"`
	ShowAsButton       *bool           `json:"show_as_button,omitempty"`
	Realms             []string        `json:"realms"`
	Metadata           json.RawMessage `json:"metadata,omitempty"`
	// Rest holds the other keys of the body, kept as sent (authentication,
	// connected_accounts, ...).
	Rest map[string]json.RawMessage `json:"rest,omitempty"`
	Seq  int64                      `json:"seq"`
}

// Clone deep-copies the connection (raw values are replaced, never changed
// in place).
func (c *Connection) Clone() *Connection {
	x := *c
	x.EnabledClients = slices.Clone(c.EnabledClients)
	x.Realms = slices.Clone(c.Realms)
	if c.Rest != nil {
		x.Rest = make(map[string]json.RawMessage, len(c.Rest))
		for k, v := range c.Rest {
			x.Rest[k] = v
		}
	}
	return &x
}

// View is the connection as the API shows it, in the recorded key order:
// id, options, strategy, name, is_domain_connection, show_as_button,
// display_name, enabled_clients, realms [O: go-auth0 v1.46.0
// TestConnectionManager_*.yaml, TestOrganizationManager_Create.yaml].
func (c *Connection) View() wire.Ordered {
	o := wire.Ordered{{"id", c.ID}, {"options", c.Options}, {"strategy", c.Strategy}, {"name", c.Name}, {"is_domain_connection", c.IsDomainConnection}}
	if c.ShowAsButton != nil {
		o = append(o, wire.Ordered{{"show_as_button", *c.ShowAsButton}}...)
	}
	if c.DisplayName != "" {
		o = append(o, wire.Ordered{{"display_name", c.DisplayName}}...)
	}
	for _, k := range sortedKeys(c.Rest) {
		o = append(o, wire.Ordered{{k, c.Rest[k]}}...)
	}
	o = append(o, wire.Ordered{{"enabled_clients", nonNilStrings(c.EnabledClients)}, {"realms", nonNilStrings(c.Realms)}}...)
	if c.Metadata != nil {
		o = append(o, wire.Ordered{{"metadata", c.Metadata}}...)
	}
	return o
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EnabledFor reports whether the connection is enabled for the client.
func (c *Connection) EnabledFor(clientID string) bool {
	return slices.Contains(c.EnabledClients, clientID)
}

// SetEnabled enables or disables the connection for the client.
func (c *Connection) SetEnabled(clientID string, on bool) {
	i := slices.Index(c.EnabledClients, clientID)
	switch {
	case on && i < 0:
		c.EnabledClients = append(c.EnabledClients, clientID)
	case !on && i >= 0:
		c.EnabledClients = slices.Delete(c.EnabledClients, i, i+1)
	}
}

// DefaultOptions are the options a connection created without any shows
// [O: go-auth0 v1.46.0 TestConnectionManager_List.yaml (auth0),
// It_can_successfully_update_a_AD_Connection.yaml (ad), ..._Apple_... ({})].
func DefaultOptions(strategy string) json.RawMessage {
	switch strategy {
	case "auth0":
		return json.RawMessage(`{"mfa":{"active":true,"return_enroll_settings":true},"passwordPolicy":"good","strategy_version":2,` +
			`"authentication_methods":{"password":{"enabled":true},"passkey":{"enabled":false}},` +
			`"passkey_options":{"challenge_ui":"both","progressive_enrollment_enabled":true,"local_enrollment_enabled":true},"brute_force_protection":true}`)
	case "ad":
		return json.RawMessage(`{"ips":null,"brute_force_protection":true}`)
	}
	return json.RawMessage(`{}`)
}

// enterpriseStrategies are the strategies whose users' ids name the
// connection (<strategy>|<connection>|<id>); the social ones do not
// (<strategy>|<id>), and the database ones are auth0|<id>.
//
// Assumption (token-exchange-flow.md §5 lists the strategies, not the ids
// they give): the ids the tenant gives users of those strategies at login.
var enterpriseStrategies = []string{"ad", "auth0-adldap", "adfs", "samlp", "oidc", "okta", "waad", "pingfederate", "google-apps", "office365", "sharepoint", "ip"}

// passwordlessStrategies are the strategies setUserByConnection does not
// take (token-exchange-flow.md §5: database, custom database, AD/LDAP,
// SAML, OIDC, Okta, ADFS and social are supported).
var passwordlessStrategies = []string{"email", "sms"}

// UserIDFor is the id of the user of the connection whose id in it is
// local.
func (c *Connection) UserIDFor(local string) string {
	switch {
	case c.Strategy == "auth0":
		return "auth0|" + local
	case slices.Contains(enterpriseStrategies, c.Strategy):
		return c.Strategy + "|" + c.Name + "|" + local
	default:
		return c.Strategy + "|" + local
	}
}

// IsSocial is the identity's isSocial: neither database, enterprise nor
// passwordless.
func (c *Connection) IsSocial() bool {
	return c.Strategy != "auth0" && !slices.Contains(enterpriseStrategies, c.Strategy) && !slices.Contains(passwordlessStrategies, c.Strategy)
}

// ExchangeRefusal is why setUserByConnection may not use the connection,
// or "" when it may (token-exchange-flow.md §5: only the listed
// strategies, a custom database only with import mode off).
func (c *Connection) ExchangeRefusal() string {
	if slices.Contains(passwordlessStrategies, c.Strategy) {
		return "its strategy " + c.Strategy + " is not supported by custom token exchange"
	}
	var o struct {
		ImportMode bool `json:"import_mode"`
	}
	_ = json.Unmarshal(c.Options, &o)
	if c.Strategy == "auth0" && o.ImportMode {
		return "it is a custom database in import mode, which only setUserById supports"
	}
	return ""
}

// ConnectionByName is the connection named name, or nil.
func (s *Tenant) ConnectionByName(name string) *Connection {
	for _, c := range s.St.Connections {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// NewConnectionID is a connection id in the recorded form (con_ and 16
// letters or digits).
func NewConnectionID() string { return "con_" + wire.RandomString(16) }

// SeedDefaultConnection gives the tenant its database connection,
// Username-Password-Authentication, when it has none of that name (a state
// saved before connections were kept included), enabled for every client
// there is: a fresh tenant has it, and the clients the emulator starts
// with are enabled for it as the enable_client_connections flag enables
// every connection for a new client (see EnableConnectionsFor), whatever
// the flag.
func (s *Tenant) SeedDefaultConnection() {
	if s.ConnectionByName(DatabaseConnection) != nil {
		return
	}
	c := &Connection{ID: NewConnectionID(), Name: DatabaseConnection, Strategy: "auth0", Options: DefaultOptions("auth0"),
		Realms: []string{DatabaseConnection}, Seq: s.St.Next()}
	for _, cl := range SortedBySeq(s.St.Clients, func(c *ClientRecord) int64 { return c.Seq }) {
		c.EnabledClients = append(c.EnabledClients, cl.ID)
	}
	s.St.Connections[c.ID] = c
}

// EnableConnectionsFor enables every connection for a new client, as the
// tenant flag enable_client_connections does, whose default is true [S:
// go-auth0 v1.46.0 management/tenant.go, TenantFlags.EnableClientConnections:
// "whether all current connections shall be enabled when a new client is
// created. Default value is true"]. A tenant with the flag off enables none
// (recorded: a new client's GET /clients/{id}/connections was
// {"connections":[]} [O: TestClientManager_ReadEnabledConnections.yaml]):
// Options.NoClientConnections.
func (s *Tenant) EnableConnectionsFor(clientID string) {
	if s.NoClientConnections {
		return
	}
	for _, c := range s.St.Connections {
		c.SetEnabled(clientID, true)
	}
}

// DisableConnectionsFor removes a deleted client from every connection.
func (s *Tenant) DisableConnectionsFor(clientID string) {
	for _, c := range s.St.Connections {
		c.SetEnabled(clientID, false)
	}
}

// ConnectionName is the name of the user's connection: the database
// connection for users saved before users had others.
func (u *User) ConnectionName() string {
	if u.Connection == "" {
		return DatabaseConnection
	}
	return u.Connection
}

// SetConnection makes the user one of the connection's, with local its id
// there.
func (u *User) SetConnection(c *Connection, local string) {
	u.UserID = c.UserIDFor(local)
	u.Connection, u.Provider, u.Social = "", "", false
	if c.Name != DatabaseConnection {
		u.Connection = c.Name
	}
	if c.Strategy != "auth0" {
		u.Provider, u.Social = c.Strategy, c.IsSocial()
	}
}

// identity is the user's identities item: its connection, its id in it,
// its provider (the connection's strategy) and whether that is social.
func (u *User) identity() wire.Ordered {
	provider := u.Provider
	if provider == "" {
		provider = "auth0"
	}
	local := u.UserID
	if i := strings.LastIndex(local, "|"); i >= 0 {
		local = local[i+1:]
	}
	return wire.Ordered{{"connection", u.ConnectionName()}, {"user_id", local}, {"provider", provider}, {"isSocial", u.Social}}
}
