package mgmt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// TokenExchangeGrant is the grant type of a custom token exchange
// (token-exchange-flow.md §2).
const TokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"

// TokenExchangeRequest is an application's custom token exchange request at
// POST /oauth/token (token-exchange-flow.md §2). The application, not the
// provider's Management API client, authenticates: with its secret in the
// body, or with its id alone when it is a public client.
type TokenExchangeRequest struct {
	ClientID         string
	ClientSecret     string
	SubjectToken     string
	SubjectTokenType string
	Audience         string
	Scopes           []string
	// ActorToken and ActorTokenType are the acting party's token, for
	// delegation (token-exchange-flow.md §5); both or neither.
	ActorToken     string
	ActorTokenType string
	// Organization is the organization the exchange is for, its id or its
	// name (token-exchange-flow.md §5); the tokens then carry org_id.
	Organization string
}

// ExchangedTokens is the tenant's answer to an exchange it accepts
// (token-exchange-flow.md §4).
type ExchangedTokens struct {
	AccessToken     string `json:"access_token"`
	IDToken         string `json:"id_token"`
	RefreshToken    string `json:"refresh_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in"`
	Scope           string `json:"scope"`
	IssuedTokenType string `json:"issued_token_type"`
}

// OAuthError is an error answer of the token endpoint: the OAuth shape
// {"error", "error_description"} (management-api.md §6), or the status text
// when the body is not that.
type OAuthError struct {
	StatusCode  int
	Code        string
	Description string
}

func (e *OAuthError) Error() string {
	if e.Description == "" {
		return fmt.Sprintf("%d %s", e.StatusCode, e.Code)
	}
	return fmt.Sprintf("%d %s: %s", e.StatusCode, e.Code, e.Description)
}

// oauthErrorBody takes the OAuth keys and the {code, description} pair
// go-auth0 also accepts (management-api.md §6).
type oauthErrorBody struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
	Code             string `json:"code"`
	Description      string `json:"description"`
}

// ExchangeToken sends one custom token exchange and returns the tokens, or
// an *OAuthError when the tenant refuses it. It is sent once: a refusal is
// the answer a caller wants to see, and an exchange the action rejected
// counts toward the tenant's throttling of the caller's address (§4), so
// it is never repeated. The subject token, the client secret and the
// tokens never reach a log line.
func (c *Client) ExchangeToken(ctx context.Context, x TokenExchangeRequest) (*ExchangedTokens, error) {
	if c == nil {
		return nil, errNotConfigured
	}
	form := url.Values{
		"grant_type":         {TokenExchangeGrant},
		"client_id":          {x.ClientID},
		"subject_token":      {x.SubjectToken},
		"subject_token_type": {x.SubjectTokenType},
	}
	if x.ClientSecret != "" {
		form.Set("client_secret", x.ClientSecret)
	}
	if x.Audience != "" {
		form.Set("audience", x.Audience)
	}
	if len(x.Scopes) > 0 {
		form.Set("scope", strings.Join(x.Scopes, " "))
	}
	if x.ActorToken != "" {
		form.Set("actor_token", x.ActorToken)
		form.Set("actor_token_type", x.ActorTokenType)
	}
	if x.Organization != "" {
		form.Set("organization", x.Organization)
	}
	ctx = c.logContext(ctx, x.SubjectToken, x.ClientSecret, x.ActorToken)
	actx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
	defer cancel()
	target := c.endpoint.TokenURL()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		tflog.SubsystemDebug(ctx, subsystem, "token exchange failed", map[string]any{
			"client_id": x.ClientID, "subject_token_type": x.SubjectTokenType, "duration_ms": time.Since(start).Milliseconds(), "error": err.Error(),
		})
		var re *RedirectError
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, fmt.Errorf("exchanging a token at %s: %w", target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer of %s: %w", target, err)
	}
	if len(body) > MaxResponseBytes {
		return nil, fmt.Errorf("the answer of %s is larger than %d bytes; refusing to read it", target, MaxResponseBytes)
	}
	fields := map[string]any{
		"client_id": x.ClientID, "subject_token_type": x.SubjectTokenType, "audience": x.Audience,
		"status": resp.StatusCode, "duration_ms": time.Since(start).Milliseconds(),
	}
	if resp.StatusCode != http.StatusOK {
		e := parseOAuthError(resp.StatusCode, body)
		fields["error"], fields["error_description"] = e.Code, e.Description
		tflog.SubsystemDebug(ctx, subsystem, "token exchange refused", fields)
		return nil, e
	}
	var out ExchangedTokens
	if err := json.Unmarshal(body, &out); err != nil || out.AccessToken == "" {
		tflog.SubsystemDebug(ctx, subsystem, "token exchange", fields)
		return nil, fmt.Errorf("the answer of %s (200) holds no access token", target)
	}
	tflog.SubsystemDebug(ctx, subsystem, "token exchange", fields)
	return &out, nil
}

func parseOAuthError(status int, body []byte) *OAuthError {
	e := &OAuthError{StatusCode: status}
	var b oauthErrorBody
	if json.Unmarshal(body, &b) == nil {
		e.Code, e.Description = b.Error, b.ErrorDescription
		if e.Code == "" {
			e.Code, e.Description = b.Code, b.Description
		}
	}
	if e.Code == "" {
		e.Code = http.StatusText(status)
	}
	return e
}
