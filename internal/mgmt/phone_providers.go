package mgmt

import (
	"context"
	"net/http"
)

// PhoneProvider is the tenant's phone notification provider.
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

func (c *Client) ListPhoneProviders(ctx context.Context) ([]PhoneProvider, error) {
	var out phoneProviderList
	_, err := c.do(ctx, request{method: http.MethodGet, path: "/branding/phone/providers"}, &out)
	return out.Providers, err
}

// TryPhoneProvider sends a test notification through the provider.
func (c *Client) TryPhoneProvider(ctx context.Context, id string, in PhoneTest) (*PhoneTestResult, error) {
	var out PhoneTestResult
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/branding/phone/providers/" + escape(id) + "/try", body: in}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
