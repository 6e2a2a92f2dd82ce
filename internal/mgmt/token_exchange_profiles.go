package mgmt

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// TokenExchangeProfile ties a subject token type to a custom token exchange action.
type TokenExchangeProfile struct {
	ID               string `json:"id,omitempty"`
	Name             string `json:"name"`
	SubjectTokenType string `json:"subject_token_type"`
	ActionID         string `json:"action_id"`
	Type             string `json:"type"`
	CreatedAt        string `json:"created_at,omitempty"`
	UpdatedAt        string `json:"updated_at,omitempty"`
}

// TokenExchangeProfileCreate is the POST body; the API refuses any other key.
type TokenExchangeProfileCreate struct {
	Name             string `json:"name"`
	SubjectTokenType string `json:"subject_token_type"`
	ActionID         string `json:"action_id"`
	Type             string `json:"type"`
}

// TokenExchangeProfileUpdate is the PATCH body: only these two fields can change.
type TokenExchangeProfileUpdate struct {
	Name             *string `json:"name,omitempty"`
	SubjectTokenType *string `json:"subject_token_type,omitempty"`
}

// TokenExchangeProfilePage is one page of the checkpoint-paginated list.
type TokenExchangeProfilePage struct {
	Profiles []TokenExchangeProfile `json:"token_exchange_profiles"`
	Next     string                 `json:"next,omitempty"`
}

func (c *Client) CreateTokenExchangeProfile(ctx context.Context, in TokenExchangeProfileCreate) (*TokenExchangeProfile, error) {
	var out TokenExchangeProfile
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/token-exchange-profiles", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /token-exchange-profiles")
}

func (c *Client) GetTokenExchangeProfile(ctx context.Context, id string) (*TokenExchangeProfile, error) {
	var out TokenExchangeProfile
	path := "/token-exchange-profiles/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

// UpdateTokenExchangeProfile PATCHes the profile. The API answers with the
// updated object; its specification allows an empty answer, and only then is
// the profile read back.
func (c *Client) UpdateTokenExchangeProfile(ctx context.Context, id string, in TokenExchangeProfileUpdate) (*TokenExchangeProfile, error) {
	var out TokenExchangeProfile
	path := "/token-exchange-profiles/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in}, &out); err != nil {
		return nil, err
	}
	if out.ID == "" {
		return c.GetTokenExchangeProfile(ctx, id)
	}
	return &out, nil
}

// DeleteTokenExchangeProfile deletes the profile; a profile already gone is success.
func (c *Client) DeleteTokenExchangeProfile(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/token-exchange-profiles/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// ListTokenExchangeProfiles reads one page: take 1–100, from the cursor of
// the previous page ("" for the first).
func (c *Client) ListTokenExchangeProfiles(ctx context.Context, from string, take int) (*TokenExchangeProfilePage, error) {
	q := url.Values{"take": {strconv.Itoa(take)}}
	if from != "" {
		q.Set("from", from)
	}
	var out TokenExchangeProfilePage
	if _, err := c.do(ctx, request{method: http.MethodGet, path: "/token-exchange-profiles", query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AllTokenExchangeProfiles walks every page.
func (c *Client) AllTokenExchangeProfiles(ctx context.Context) ([]TokenExchangeProfile, error) {
	var all []TokenExchangeProfile
	for p, err := range c.EachTokenExchangeProfile(ctx) {
		if err != nil {
			return nil, err
		}
		all = append(all, *p)
	}
	return all, nil
}

// EachTokenExchangeProfile yields every profile, page by page (100 a
// request); an error ends it. A cursor that repeats is an error, never a
// loop.
func (c *Client) EachTokenExchangeProfile(ctx context.Context) iter.Seq2[*TokenExchangeProfile, error] {
	return func(yield func(*TokenExchangeProfile, error) bool) {
		seen := map[string]bool{}
		from := ""
		for {
			page, err := c.ListTokenExchangeProfiles(ctx, from, 100)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range page.Profiles {
				if !yield(&page.Profiles[i], nil) {
					return
				}
			}
			if page.Next == "" {
				return
			}
			if seen[page.Next] {
				yield(nil, fmt.Errorf("malformed response from GET /token-exchange-profiles: the cursor %q repeats", page.Next))
				return
			}
			seen[page.Next] = true
			from = page.Next
		}
	}
}

// FindTokenExchangeProfile returns the profile with this subject_token_type,
// or nil when there is none.
func (c *Client) FindTokenExchangeProfile(ctx context.Context, subjectTokenType string) (*TokenExchangeProfile, error) {
	all, err := c.AllTokenExchangeProfiles(ctx)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].SubjectTokenType == subjectTokenType {
			return &all[i], nil
		}
	}
	return nil, nil
}

// checkID refuses a 2xx answer that does not hold an object.
func checkID[T any](v *T, id, what string) (*T, error) {
	if id == "" {
		return nil, fmt.Errorf("malformed response from %s: no id in the answer", what)
	}
	return v, nil
}
