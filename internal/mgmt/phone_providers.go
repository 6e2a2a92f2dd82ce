package mgmt

import (
	"context"
	"net/http"
)

// Phone provider names (reference §5).
const (
	PhoneTwilio = "twilio"
	PhoneCustom = "custom"
)

// PhoneProvider is the tenant's phone notification provider (reference §5;
// a tenant has at most one). Its credentials are never returned.
type PhoneProvider struct {
	ID            string              `json:"id,omitempty"`
	Tenant        string              `json:"tenant,omitempty"`
	Name          string              `json:"name"`
	Channel       string              `json:"channel,omitempty"`
	Disabled      bool                `json:"disabled"`
	Configuration *PhoneConfiguration `json:"configuration,omitempty"`
	CreatedAt     string              `json:"created_at,omitempty"`
	UpdatedAt     string              `json:"updated_at,omitempty"`
}

// PhoneConfiguration is the provider's configuration; PATCH replaces it whole.
type PhoneConfiguration struct {
	SID             string   `json:"sid,omitempty"`
	DefaultFrom     string   `json:"default_from,omitempty"`
	MSSID           string   `json:"mssid,omitempty"`
	DeliveryMethods []string `json:"delivery_methods,omitempty"`
}

// PhoneCredentials are what the provider authenticates with: a Twilio auth
// token, nothing for a custom provider (reference §5). Write-only.
type PhoneCredentials struct {
	AuthToken string `json:"auth_token,omitempty"`
}

// PhoneProviderCreate is the POST body: every field is required
// (reference §5: credentials too, {} for a custom provider).
type PhoneProviderCreate struct {
	Name          string             `json:"name"`
	Disabled      bool               `json:"disabled"`
	Configuration PhoneConfiguration `json:"configuration"`
	Credentials   PhoneCredentials   `json:"credentials"`
}

// PhoneProviderUpdate is a PATCH body: only the fields set are sent.
type PhoneProviderUpdate struct {
	Name          Patch[string]             `json:"name,omitzero"`
	Disabled      Patch[bool]               `json:"disabled,omitzero"`
	Configuration Patch[PhoneConfiguration] `json:"configuration,omitzero"`
	Credentials   Patch[PhoneCredentials]   `json:"credentials,omitzero"`
}

// IsEmpty reports whether the PATCH would send no field.
func (u PhoneProviderUpdate) IsEmpty() bool {
	return u.Name.IsZero() && u.Disabled.IsZero() && u.Configuration.IsZero() && u.Credentials.IsZero()
}

// PhoneTest is the body of a test notification.
type PhoneTest struct {
	To             string `json:"to"`
	DeliveryMethod string `json:"delivery_method,omitempty"`
}

// PhoneTestResult is the API's answer to a test notification.
type PhoneTestResult struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type phoneProviderList struct {
	Providers []PhoneProvider `json:"providers"`
}

// values are the credentials as they are and as JSON writes them, for the
// log masks.
func (p PhoneCredentials) values() []string {
	if p.AuthToken == "" {
		return nil
	}
	return secretValues([]ActionSecretValue{{Value: p.AuthToken}})
}

func (c *Client) ListPhoneProviders(ctx context.Context) ([]PhoneProvider, error) {
	var out phoneProviderList
	_, err := c.do(ctx, request{method: http.MethodGet, path: "/branding/phone/providers"}, &out)
	return out.Providers, err
}

// FindPhoneProvider returns the tenant's phone provider, or nil when it has
// none.
func (c *Client) FindPhoneProvider(ctx context.Context) (*PhoneProvider, error) {
	all, err := c.ListPhoneProviders(ctx)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return &all[0], nil
}

func (c *Client) CreatePhoneProvider(ctx context.Context, in PhoneProviderCreate) (*PhoneProvider, error) {
	var out PhoneProvider
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/branding/phone/providers", body: in, secrets: in.Credentials.values()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /branding/phone/providers")
}

func (c *Client) GetPhoneProvider(ctx context.Context, id string) (*PhoneProvider, error) {
	var out PhoneProvider
	path := "/branding/phone/providers/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

func (c *Client) UpdatePhoneProvider(ctx context.Context, id string, in PhoneProviderUpdate) (*PhoneProvider, error) {
	var out PhoneProvider
	path := "/branding/phone/providers/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in, secrets: in.Credentials.Value().values()}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeletePhoneProvider deletes the provider; one already gone (404,
// reference §0.5) is success.
func (c *Client) DeletePhoneProvider(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/branding/phone/providers/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// TryPhoneProvider sends a test notification through the provider.
func (c *Client) TryPhoneProvider(ctx context.Context, id string, in PhoneTest) (*PhoneTestResult, error) {
	var out PhoneTestResult
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/branding/phone/providers/" + escape(id) + "/try", body: in}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
