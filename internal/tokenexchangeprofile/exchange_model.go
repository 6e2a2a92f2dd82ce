package tokenexchangeprofile

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tenant-iac/terraform-provider-tenant/internal/framework/flex"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

type exchangeModel struct {
	ClientID          types.String `tfsdk:"client_id"`
	ClientSecret      types.String `tfsdk:"client_secret"`
	SubjectTokenType  types.String `tfsdk:"subject_token_type"`
	SubjectToken      types.String `tfsdk:"subject_token"`
	ActorToken        types.String `tfsdk:"actor_token"`
	ActorTokenType    types.String `tfsdk:"actor_token_type"`
	Organization      types.String `tfsdk:"organization"`
	Audience          types.String `tfsdk:"audience"`
	Scopes            types.Set    `tfsdk:"scopes"`
	AcceptRefusal     types.Bool   `tfsdk:"accept_refusal"`
	AccessToken       types.String `tfsdk:"access_token"`
	IDToken           types.String `tfsdk:"id_token"`
	TokenType         types.String `tfsdk:"token_type"`
	ExpiresIn         types.Int64  `tfsdk:"expires_in"`
	GrantedScopes     types.List   `tfsdk:"granted_scopes"`
	UserID            types.String `tfsdk:"user_id"`
	Claims            *claimsModel `tfsdk:"claims"`
	ClaimsJSON        types.String `tfsdk:"claims_json"`
	IDTokenClaimsJSON types.String `tfsdk:"id_token_claims_json"`
	ActJSON           types.String `tfsdk:"act_json"`
	RefreshIssued     types.Bool   `tfsdk:"refresh_token_issued"`
	OrgID             types.String `tfsdk:"org_id"`
	Error             types.String `tfsdk:"error"`
	ErrorDescription  types.String `tfsdk:"error_description"`
	StatusCode        types.Int64  `tfsdk:"status_code"`
}

type claimsModel struct {
	Sub         types.String `tfsdk:"sub"`
	Iss         types.String `tfsdk:"iss"`
	Aud         types.List   `tfsdk:"aud"`
	Azp         types.String `tfsdk:"azp"`
	Scope       types.List   `tfsdk:"scope"`
	Permissions types.List   `tfsdk:"permissions"`
	Iat         types.Int64  `tfsdk:"iat"`
	Exp         types.Int64  `tfsdk:"exp"`
}

// request is the exchange the configuration asks for.
func (m *exchangeModel) request(ctx context.Context, diags *diag.Diagnostics) mgmt.TokenExchangeRequest {
	x := mgmt.TokenExchangeRequest{
		ClientID:         m.ClientID.ValueString(),
		ClientSecret:     m.ClientSecret.ValueString(),
		SubjectToken:     m.SubjectToken.ValueString(),
		SubjectTokenType: m.SubjectTokenType.ValueString(),
		Audience:         m.Audience.ValueString(),
		ActorToken:       m.ActorToken.ValueString(),
		ActorTokenType:   m.ActorTokenType.ValueString(),
		Organization:     m.Organization.ValueString(),
	}
	if !m.Scopes.IsNull() {
		diags.Append(m.Scopes.ElementsAs(ctx, &x.Scopes, false)...)
	}
	return x
}

// refused records a refusal as the result: tokens and claims null.
func (m *exchangeModel) refused(e *mgmt.OAuthError) {
	m.nullTokens()
	m.Error = types.StringValue(e.Code)
	m.ErrorDescription = types.StringValue(e.Description)
	m.StatusCode = types.Int64Value(int64(e.StatusCode))
}

func (m *exchangeModel) nullTokens() {
	m.AccessToken, m.IDToken, m.TokenType = types.StringNull(), types.StringNull(), types.StringNull()
	m.ExpiresIn = types.Int64Null()
	m.GrantedScopes = types.ListNull(types.StringType)
	m.UserID, m.ClaimsJSON, m.IDTokenClaimsJSON = types.StringNull(), types.StringNull(), types.StringNull()
	m.Claims = nil
	m.ActJSON, m.RefreshIssued, m.OrgID = types.StringNull(), types.BoolNull(), types.StringNull()
	m.Error, m.ErrorDescription, m.StatusCode = types.StringNull(), types.StringNull(), types.Int64Null()
}

// issued records the tenant's answer and the claims of its tokens.
func (m *exchangeModel) issued(t *mgmt.ExchangedTokens) error {
	m.nullTokens()
	claims, raw, err := readClaims(t.AccessToken)
	if err != nil {
		return err
	}
	m.AccessToken = types.StringValue(t.AccessToken)
	m.TokenType = types.StringValue(t.TokenType)
	m.ExpiresIn = types.Int64Value(t.ExpiresIn)
	scopes := strings.Fields(t.Scope)
	m.GrantedScopes = flex.ListOrEmpty(&scopes)
	m.ClaimsJSON = types.StringValue(raw)
	m.Claims = claimsFrom(claims)
	m.UserID = m.Claims.Sub
	// Delegation (token-exchange-flow.md §5): the act claim, and whether a
	// refresh token came, never the token itself.
	if act, ok := claims["act"]; ok {
		b, _ := json.Marshal(act)
		m.ActJSON = types.StringValue(string(b))
	}
	m.RefreshIssued = types.BoolValue(t.RefreshToken != "")
	if org, ok := claims["org_id"].(string); ok {
		m.OrgID = types.StringValue(org)
	}
	if t.IDToken != "" {
		_, idRaw, err := readClaims(t.IDToken)
		if err != nil {
			return fmt.Errorf("the ID token: %w", err)
		}
		m.IDToken = types.StringValue(t.IDToken)
		m.IDTokenClaimsJSON = types.StringValue(idRaw)
	}
	return nil
}

// readClaims reads a JWT's claims without checking its signature: the
// token came from the tenant over the connection the provider trusts.
func readClaims(token string) (jwt.MapClaims, string, error) {
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return nil, "", err
	}
	raw, err := json.Marshal(claims)
	if err != nil {
		return nil, "", err
	}
	return claims, string(raw), nil
}

func claimsFrom(c jwt.MapClaims) *claimsModel {
	str := func(k string) types.String {
		if v, ok := c[k].(string); ok {
			return types.StringValue(v)
		}
		return types.StringNull()
	}
	num := func(k string) types.Int64 {
		if v, ok := c[k].(float64); ok {
			return types.Int64Value(int64(v))
		}
		return types.Int64Null()
	}
	m := &claimsModel{Sub: str("sub"), Iss: str("iss"), Azp: str("azp"), Iat: num("iat"), Exp: num("exp")}
	if m.Azp.IsNull() {
		m.Azp = str("client_id")
	}
	aud, _ := c.GetAudience()
	audiences := []string(aud)
	m.Aud = flex.ListOrEmpty(&audiences)
	m.Scope = types.ListNull(types.StringType)
	if s, ok := c["scope"].(string); ok {
		scopes := strings.Fields(s)
		m.Scope = flex.ListOrEmpty(&scopes)
	}
	m.Permissions = types.ListNull(types.StringType)
	if ps, ok := c["permissions"].([]any); ok {
		names := make([]string, 0, len(ps))
		for _, p := range ps {
			if s, ok := p.(string); ok {
				names = append(names, s)
			}
		}
		m.Permissions = flex.ListOrEmpty(&names)
	}
	return m
}
