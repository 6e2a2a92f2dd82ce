package mgmt

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// ResourceServer is an API. Optional fields are pointers: nil is "not sent"
// on writes and "absent" on reads; the API omits fields never set.
type ResourceServer struct {
	ID                                        string                 `json:"id,omitempty"`
	Name                                      *string                `json:"name,omitempty"`
	Identifier                                string                 `json:"identifier,omitempty"`
	Scopes                                    *[]ResourceServerScope `json:"scopes,omitempty"`
	SigningAlg                                *string                `json:"signing_alg,omitempty"`
	SigningSecret                             *string                `json:"signing_secret,omitempty"`
	AllowOfflineAccess                        *bool                  `json:"allow_offline_access,omitempty"`
	TokenLifetime                             *int64                 `json:"token_lifetime,omitempty"`
	TokenLifetimeForWeb                       *int64                 `json:"token_lifetime_for_web,omitempty"`
	SkipConsentForVerifiableFirstPartyClients *bool                  `json:"skip_consent_for_verifiable_first_party_clients,omitempty"`
	EnforcePolicies                           *bool                  `json:"enforce_policies,omitempty"`
	TokenDialect                              *string                `json:"token_dialect,omitempty"`
	AllowOnlineAccess                         *bool                  `json:"allow_online_access,omitempty"`
	AllowOnlineAccessWithEphemeralSessions    *bool                  `json:"allow_online_access_with_ephemeral_sessions,omitempty"`
	SubjectTypeAuthorization                  *SubjectTypeAuth       `json:"subject_type_authorization,omitempty"`
	ConsentPolicy                             *string                `json:"consent_policy,omitempty"`
	AuthorizationDetails                      *[]AuthorizationDetail `json:"authorization_details,omitempty"`
	ProofOfPossession                         *ProofOfPossession     `json:"proof_of_possession,omitempty"`
	TokenEncryption                           *TokenEncryption       `json:"token_encryption,omitempty"`
	AuthorizationPolicy                       *AuthorizationPolicy   `json:"authorization_policy,omitempty"`
	// Read-only.
	ClientID string `json:"client_id,omitempty"`
	IsSystem bool   `json:"is_system,omitempty"`
}

// ResourceServerUpdate is a PATCH body: only the fields set are sent, and a
// Null clears a field (reference §4: PATCH is a partial merge; scopes are
// replaced whole). The identifier cannot change and has no field here.
type ResourceServerUpdate struct {
	Name                                      Patch[string]                `json:"name,omitzero"`
	Scopes                                    Patch[[]ResourceServerScope] `json:"scopes,omitzero"`
	SigningAlg                                Patch[string]                `json:"signing_alg,omitzero"`
	SigningSecret                             Patch[string]                `json:"signing_secret,omitzero"`
	AllowOfflineAccess                        Patch[bool]                  `json:"allow_offline_access,omitzero"`
	TokenLifetime                             Patch[int64]                 `json:"token_lifetime,omitzero"`
	TokenLifetimeForWeb                       Patch[int64]                 `json:"token_lifetime_for_web,omitzero"`
	SkipConsentForVerifiableFirstPartyClients Patch[bool]                  `json:"skip_consent_for_verifiable_first_party_clients,omitzero"`
	EnforcePolicies                           Patch[bool]                  `json:"enforce_policies,omitzero"`
	TokenDialect                              Patch[string]                `json:"token_dialect,omitzero"`
	AllowOnlineAccess                         Patch[bool]                  `json:"allow_online_access,omitzero"`
	AllowOnlineAccessWithEphemeralSessions    Patch[bool]                  `json:"allow_online_access_with_ephemeral_sessions,omitzero"`
	SubjectTypeAuthorization                  Patch[SubjectTypeAuth]       `json:"subject_type_authorization,omitzero"`
	ConsentPolicy                             Patch[string]                `json:"consent_policy,omitzero"`
	AuthorizationDetails                      Patch[[]AuthorizationDetail] `json:"authorization_details,omitzero"`
	ProofOfPossession                         Patch[ProofOfPossession]     `json:"proof_of_possession,omitzero"`
	TokenEncryption                           Patch[TokenEncryption]       `json:"token_encryption,omitzero"`
	AuthorizationPolicy                       Patch[AuthorizationPolicy]   `json:"authorization_policy,omitzero"`
}

// SubjectTypeAuth says which subjects may get tokens for an API
// (reference §4, subject_type_authorization).
type SubjectTypeAuth struct {
	User   *SubjectTypePolicy `json:"user,omitempty"`
	Client *SubjectTypePolicy `json:"client,omitempty"`
}

// SubjectTypePolicy is one side of SubjectTypeAuth.
type SubjectTypePolicy struct {
	Policy string `json:"policy"`
}

// AuthorizationDetail is a type of rich authorization request the API accepts.
type AuthorizationDetail struct {
	Type string `json:"type"`
}

// ProofOfPossession requires sender-constrained tokens (mTLS or DPoP).
type ProofOfPossession struct {
	Mechanism   string `json:"mechanism"`
	Required    bool   `json:"required"`
	RequiredFor string `json:"required_for,omitempty"`
}

// TokenEncryption encrypts the API's access tokens. The API never returns
// the key's PEM; it answers with its thumbprint instead (reference §4).
type TokenEncryption struct {
	Format        string        `json:"format"`
	EncryptionKey EncryptionKey `json:"encryption_key"`
}

// EncryptionKey is the public key access tokens are encrypted with.
type EncryptionKey struct {
	Name string `json:"name,omitempty"`
	Alg  string `json:"alg"`
	Kid  string `json:"kid,omitempty"`
	PEM  string `json:"pem,omitempty"`
	// ThumbprintSHA256 is read-only: sending it would be refused.
	ThumbprintSHA256 string `json:"thumbprint_sha256,omitempty"`
}

// AuthorizationPolicy links the API to an authorization policy.
type AuthorizationPolicy struct {
	PolicyID string `json:"policy_id"`
}

// ResourceServerScope is one permission an API defines.
type ResourceServerScope struct {
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// ResourceServerList is one page of the offset-paginated list.
type ResourceServerList struct {
	ResourceServers []ResourceServer `json:"resource_servers"`
	Start           int              `json:"start"`
	Limit           int              `json:"limit"`
	Total           int              `json:"total"`
}

func (c *Client) CreateResourceServer(ctx context.Context, in ResourceServer) (*ResourceServer, error) {
	in.ID, in.ClientID, in.IsSystem = "", "", false
	var out ResourceServer
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/resource-servers", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /resource-servers")
}

// GetResourceServer reads an API by id or by identifier (audience). The
// API decodes the path value twice (reference §4), so another API's
// identifier could answer: an answer whose id and identifier both differ
// from what was asked for is a 404.
func (c *Client) GetResourceServer(ctx context.Context, idOrIdentifier string) (*ResourceServer, error) {
	var out ResourceServer
	path := "/resource-servers/" + escape(idOrIdentifier)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	if out.ID != "" && out.ID != idOrIdentifier && out.Identifier != idOrIdentifier {
		return nil, &APIError{Method: http.MethodGet, Path: path, StatusCode: http.StatusNotFound, Err: "Not Found",
			Message: fmt.Sprintf("The API answered with the resource server %q (identifier %q), which is not %q", out.ID, out.Identifier, idOrIdentifier)}
	}
	return checkID(&out, out.ID, "GET "+path)
}

// ScopeValues returns the set of the values of the API's scopes; a nil API
// defines none.
func (s *ResourceServer) ScopeValues() map[string]bool {
	values := map[string]bool{}
	if s != nil && s.Scopes != nil {
		for _, sc := range *s.Scopes {
			values[sc.Value] = true
		}
	}
	return values
}

// FindResourceServer returns the API whose identifier is identifier, or nil
// when the tenant holds none (GET takes an identifier as well as an id,
// reference §4; an answer for another API's id is not a match).
func (c *Client) FindResourceServer(ctx context.Context, identifier string) (*ResourceServer, error) {
	s, err := c.GetResourceServer(ctx, identifier)
	switch {
	case IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	case s.Identifier != identifier:
		return nil, nil
	}
	return s, nil
}

// UpdateResourceServer PATCHes the fields set in in.
func (c *Client) UpdateResourceServer(ctx context.Context, id string, in ResourceServerUpdate) (*ResourceServer, error) {
	var out ResourceServer
	path := "/resource-servers/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeleteResourceServer deletes an API; one already gone is success.
func (c *Client) DeleteResourceServer(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/resource-servers/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// ListResourceServers reads one page (page is 0-based, perPage 1–100),
// of the APIs with the given identifiers only when some are given (at most
// 10, reference §4).
func (c *Client) ListResourceServers(ctx context.Context, page, perPage int, identifiers ...string) (*ResourceServerList, error) {
	var out ResourceServerList
	var q url.Values
	if len(identifiers) > 0 {
		q = url.Values{"identifiers": identifiers}
	}
	err := c.listPage(ctx, "/resource-servers", q, page, perPage, &out)
	return &out, err
}

// ResourceServersPage reads one page (0-based) of 100 of the tenant's APIs:
// more says whether another follows, total is how many the tenant holds.
func (c *Client) ResourceServersPage(ctx context.Context, page int) (servers []ResourceServer, more bool, total int, err error) {
	l, err := c.ListResourceServers(ctx, page, 100)
	if err != nil {
		return nil, false, 0, err
	}
	more, err = hasNext("/resource-servers", page, 100, l.Start, l.Limit, l.Total, len(l.ResourceServers))
	return l.ResourceServers, more, l.Total, err
}

// MaxIdentifiersPerList is how many identifiers one list request may filter by.
const MaxIdentifiersPerList = 10

// AllResourceServers walks every page.
func (c *Client) AllResourceServers(ctx context.Context) ([]ResourceServer, error) {
	var all []ResourceServer
	for s, err := range c.EachResourceServer(ctx) {
		if err != nil {
			return nil, err
		}
		all = append(all, *s)
	}
	return all, nil
}

// EachResourceServer yields the tenant's APIs page by page (100 a request),
// or only those with the given identifiers; an error ends it.
func (c *Client) EachResourceServer(ctx context.Context, identifiers ...string) iter.Seq2[*ResourceServer, error] {
	return func(yield func(*ResourceServer, error) bool) {
		groups := [][]string{nil}
		if len(identifiers) > 0 {
			groups = groups[:0]
			for start := 0; start < len(identifiers); start += MaxIdentifiersPerList {
				groups = append(groups, identifiers[start:min(start+MaxIdentifiersPerList, len(identifiers))])
			}
		}
		for _, group := range groups {
			for page := 0; ; page++ {
				l, err := c.ListResourceServers(ctx, page, 100, group...)
				if err != nil {
					yield(nil, err)
					return
				}
				more, err := hasNext("/resource-servers", page, 100, l.Start, l.Limit, l.Total, len(l.ResourceServers))
				if err != nil {
					yield(nil, err)
					return
				}
				for i := range l.ResourceServers {
					if !yield(&l.ResourceServers[i], nil) {
						return
					}
				}
				if !more {
					break
				}
			}
		}
	}
}

// listPage reads one offset page with include_totals.
func (c *Client) listPage(ctx context.Context, path string, q url.Values, page, perPage int, out any) error {
	if q == nil {
		q = url.Values{}
	}
	q.Set("include_totals", "true")
	q.Set("page", strconv.Itoa(page))
	q.Set("per_page", strconv.Itoa(perPage))
	_, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, out)
	return err
}

// hasNext decides whether an offset envelope has more pages. An envelope that
// does not match the page asked for is an error, never a reason to loop.
func hasNext(path string, page, perPage, start, limit, total, n int) (bool, error) {
	if start != page*perPage || limit <= 0 || total < 0 || n > limit {
		return false, fmt.Errorf("malformed response from GET %s: envelope start=%d limit=%d total=%d for page %d of %d", path, start, limit, total, page, perPage)
	}
	if total > start+limit && n == 0 {
		return false, fmt.Errorf("malformed response from GET %s: empty page %d while total=%d", path, page, total)
	}
	return total > start+limit, nil
}
