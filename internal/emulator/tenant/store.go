package tenant

import (
	"encoding/json"
	"maps"
	"sort"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// The stored objects serialise exactly as the API shows them: field order as
// observed, optional fields omitted rather than null.

type Profile struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Type             string `json:"type"`
	SubjectTokenType string `json:"subject_token_type"`
	ActionID         string `json:"action_id"`
	CreatedAt        string `json:"created_at"`
	UpdatedAt        string `json:"updated_at"`
	Seq              int64  `json:"-"`
}

type Role struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Type        string  `json:"type,omitempty"`
	OwnerID     string  `json:"owner_id,omitempty"`
	Seq         int64   `json:"-"`
}

type Scope struct {
	Value       string  `json:"value"`
	Description *string `json:"description,omitempty"`
}

type Policy struct {
	Policy string `json:"policy"`
}

// SubjectTypeAuthorization keeps the key order of the API's default,
// client before user (reference §4).
type SubjectTypeAuthorization struct {
	Client *Policy `json:"client,omitempty"`
	User   *Policy `json:"user,omitempty"`
}

// AuthorizationDetail is an item as it was sent: {"type", ...}.
type AuthorizationDetail json.RawMessage

func (d AuthorizationDetail) MarshalJSON() ([]byte, error) { return wire.CompactJSON(d) }

func (d *AuthorizationDetail) UnmarshalJSON(b []byte) error {
	*d = append((*d)[:0], b...)
	return nil
}

// TokenEncryption is stored as the API answers it: the key's pem is never
// kept, its thumbprint is (reference §4).
type TokenEncryption struct {
	Format        string        `json:"format"`
	EncryptionKey EncryptionKey `json:"encryption_key"`
}

type EncryptionKey struct {
	Name             string `json:"name,omitempty"`
	Alg              string `json:"alg"`
	Kid              string `json:"kid,omitempty"`
	ThumbprintSHA256 string `json:"thumbprint_sha256"`
}

type ProofOfPossession struct {
	Mechanism   string `json:"mechanism"`
	Required    bool   `json:"required"`
	RequiredFor string `json:"required_for,omitempty"`
}

type AuthorizationPolicy struct {
	PolicyID string `json:"policy_id"`
}

// ResourceServer keeps the observed key order of the create answer
// (reference §4); the fields the reference orders only as "…" follow in the
// order of its create-body table. Assumption (reference §4 shows no HS256
// answer): signing_secret follows signing_alg.
type ResourceServer struct {
	ID                         string                    `json:"id"`
	Name                       *string                   `json:"name,omitempty"`
	Identifier                 string                    `json:"identifier"`
	AllowOfflineAccess         bool                      `json:"allow_offline_access"`
	SkipConsent                bool                      `json:"skip_consent_for_verifiable_first_party_clients"`
	AllowOnlineAccess          *bool                     `json:"allow_online_access,omitempty"`
	AllowOnlineAccessEphemeral *bool                     `json:"allow_online_access_with_ephemeral_sessions,omitempty"`
	SubjectTypeAuthorization   *SubjectTypeAuthorization `json:"subject_type_authorization,omitempty"`
	TokenLifetime              int64                     `json:"token_lifetime"`
	TokenLifetimeForWeb        int64                     `json:"token_lifetime_for_web"`
	SigningAlg                 string                    `json:"signing_alg"`
	SigningSecret              *string                   `json:"signing_secret,omitempty"`
	Scopes                     *[]Scope                  `json:"scopes,omitempty"`
	EnforcePolicies            *bool                     `json:"enforce_policies,omitempty"`
	TokenDialect               *string                   `json:"token_dialect,omitempty"`
	ConsentPolicy              *string                   `json:"consent_policy,omitempty"`
	AuthorizationDetails       *[]AuthorizationDetail    `json:"authorization_details,omitempty"`
	TokenEncryption            *TokenEncryption          `json:"token_encryption,omitempty"`
	ProofOfPossession          *ProofOfPossession        `json:"proof_of_possession,omitempty"`
	AuthorizationPolicy        *AuthorizationPolicy      `json:"authorization_policy,omitempty"`
	IsSystem                   bool                      `json:"is_system,omitempty"`
	ClientID                   string                    `json:"client_id,omitempty"`
	Seq                        int64                     `json:"-"`
}

// Clone deep-copies the resource server; every field but Seq survives JSON.
func (rs *ResourceServer) Clone() *ResourceServer {
	b, err := json.Marshal(rs)
	if err != nil {
		panic(err)
	}
	c := &ResourceServer{}
	if err := json.Unmarshal(b, c); err != nil {
		panic(err)
	}
	c.Seq = rs.Seq
	return c
}

type PhoneConfig struct {
	SID             string   `json:"sid,omitempty"`
	MSSID           string   `json:"mssid,omitempty"`
	DefaultFrom     string   `json:"default_from,omitempty"`
	DeliveryMethods []string `json:"delivery_methods,omitempty"`
}

type PhoneProvider struct {
	ID            string       `json:"id"`
	Tenant        string       `json:"tenant"`
	Name          string       `json:"name"`
	Channel       string       `json:"channel"`
	Disabled      bool         `json:"disabled"`
	Configuration *PhoneConfig `json:"configuration,omitempty"`
	CreatedAt     string       `json:"created_at"`
	UpdatedAt     string       `json:"updated_at"`
}

// OutboxMessage is one test notification the emulator "sent".
type OutboxMessage struct {
	ProviderID     string `json:"provider_id"`
	To             string `json:"to"`
	DeliveryMethod string `json:"delivery_method"`
	At             string `json:"at"`
}

// Store is the tenant's state. Every access holds Server.mu.
type Store struct {
	Profiles map[string]*Profile `json:"profiles"`
	Actions  map[string]*Action  `json:"actions"`
	Roles    map[string]*Role    `json:"roles"`
	// RolePerms: role id -> resource server identifier -> scope.
	RolePerms       map[string]map[string]map[string]bool `json:"role_perms"`
	ResourceServers map[string]*ResourceServer            `json:"resource_servers"`
	PhoneProviders  map[string]*PhoneProvider             `json:"phone_providers"`
	// TenantSettings are the tenant's settings as sent (settings.go).
	TenantSettings map[string]json.RawMessage `json:"tenant_settings,omitempty"`
	// IPThrottling is Suspicious IP Throttling (attack_protection.go).
	IPThrottling *IPThrottling    `json:"suspicious_ip_throttling,omitempty"`
	Users        map[string]*User `json:"users"`
	// RoleUsers: role id -> user id -> when it was added (a Seq value).
	RoleUsers map[string]map[string]int64 `json:"role_users"`
	// PhoneCredentials: provider id -> the credentials it was given, which
	// the API never returns.
	PhoneCredentials map[string]map[string]string `json:"phone_credentials"`
	// Bindings: trigger id -> its bindings in execution order.
	Bindings map[string][]*Binding    `json:"bindings"`
	Clients  map[string]*ClientRecord `json:"clients"`
	Grants   map[string]*Grant        `json:"client_grants"`
	// Connections and Organizations (connections.go, organizations.go).
	Connections   map[string]*Connection   `json:"connections"`
	Organizations map[string]*Organization `json:"organizations"`
	Outbox        []OutboxMessage          `json:"outbox"`
	Seq           int64                    `json:"seq"`
}

func NewStore() *Store {
	return &Store{
		Profiles: map[string]*Profile{}, Actions: map[string]*Action{}, Roles: map[string]*Role{},
		RolePerms: map[string]map[string]map[string]bool{}, ResourceServers: map[string]*ResourceServer{},
		PhoneProviders: map[string]*PhoneProvider{}, Users: map[string]*User{}, RoleUsers: map[string]map[string]int64{},
		PhoneCredentials: map[string]map[string]string{}, Bindings: map[string][]*Binding{},
		Clients: map[string]*ClientRecord{}, Grants: map[string]*Grant{}, Outbox: []OutboxMessage{},
		Connections: map[string]*Connection{}, Organizations: map[string]*Organization{},
	}
}

func (s *Store) Next() int64 { s.Seq++; return s.Seq }

// Clone deep-copies the store (used to return to the starting state).
func (s *Store) Clone() *Store {
	c := NewStore()
	for k, v := range s.Profiles {
		x := *v
		c.Profiles[k] = &x
	}
	for k, v := range s.Actions {
		c.Actions[k] = v.Clone()
	}
	for k, v := range s.Roles {
		x := *v
		c.Roles[k] = &x
	}
	for k, v := range s.RolePerms {
		m := map[string]map[string]bool{}
		for rs, perms := range v {
			m[rs] = map[string]bool{}
			for p := range perms {
				m[rs][p] = true
			}
		}
		c.RolePerms[k] = m
	}
	for k, v := range s.ResourceServers {
		c.ResourceServers[k] = v.Clone()
	}
	for k, v := range s.PhoneProviders {
		x := *v
		if v.Configuration != nil {
			cfg := *v.Configuration
			x.Configuration = &cfg
		}
		c.PhoneProviders[k] = &x
	}
	c.TenantSettings = maps.Clone(s.TenantSettings)
	c.IPThrottling = s.IPThrottling.Clone()
	for k, v := range s.Users {
		x := *v
		c.Users[k] = &x
	}
	for k, v := range s.RoleUsers {
		c.RoleUsers[k] = maps.Clone(v)
	}
	for k, v := range s.PhoneCredentials {
		c.PhoneCredentials[k] = maps.Clone(v)
	}
	for t, list := range s.Bindings {
		for _, b := range list {
			x := *b
			c.Bindings[t] = append(c.Bindings[t], &x)
		}
	}
	for k, v := range s.Clients {
		c.Clients[k] = v.Clone()
	}
	for k, v := range s.Grants {
		c.Grants[k] = v.Clone()
	}
	for k, v := range s.Connections {
		c.Connections[k] = v.Clone()
	}
	for k, v := range s.Organizations {
		c.Organizations[k] = v.Clone()
	}
	c.Outbox = append(c.Outbox, s.Outbox...)
	c.Seq = s.Seq
	return c
}

// SortedBySeq returns the values of m in creation order.
func SortedBySeq[T any](m map[string]*T, seq func(*T) int64) []*T {
	out := make([]*T, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return seq(out[i]) < seq(out[j]) })
	return out
}
