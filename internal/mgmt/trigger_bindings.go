package mgmt

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// ActionTriggerIDs are the triggers an action may support.
//
// Assumption (reference §2 names only custom-token-exchange): the
// platform's documented triggers are accepted too.
var ActionTriggerIDs = []string{
	TriggerCustomTokenExchange,
	"post-login",
	"credentials-exchange",
	"pre-user-registration",
	"post-user-registration",
	"post-change-password",
	"send-phone-message",
	"password-reset-post-challenge",
}

// IsEntityBound reports whether the trigger's actions are bound by the
// object that uses them, never by a trigger binding: a custom-token-exchange
// action is bound by its token exchange profile (trigger-bindings.md, [R]).
func IsEntityBound(trigger string) bool { return trigger == TriggerCustomTokenExchange }

// BindingsPerPage is the page size of a trigger's bindings read.
const BindingsPerPage = 100

// TriggerBinding is one action bound to a trigger, as the API shows it
// (trigger-bindings.md: the SDK's ActionBinding, keys observed).
type TriggerBinding struct {
	ID          string `json:"id"`
	TriggerID   string `json:"trigger_id"`
	DisplayName string `json:"display_name"`
	Action      Action `json:"action"`
	CreatedAt   string `json:"created_at,omitempty"`
	UpdatedAt   string `json:"updated_at,omitempty"`
}

// BindingRef names the action of a binding in a PATCH: by id or by name.
type BindingRef struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// BindingByActionID is the ref type that names an action by its id.
const BindingByActionID = "action_id"

// BindingUpdate is one item of a PATCH of a trigger's bindings.
type BindingUpdate struct {
	Ref         BindingRef `json:"ref"`
	DisplayName string     `json:"display_name"`
}

type bindingList struct {
	Bindings []TriggerBinding `json:"bindings"`
	Total    *int             `json:"total,omitempty"`
	PerPage  int              `json:"per_page,omitempty"`
}

type bindingsBody struct {
	Bindings []BindingUpdate `json:"bindings"`
}

// TriggerBindings reads every binding of the trigger, in execution order
// (all pages of 100). The answer carries total only sometimes
// (trigger-bindings.md): the read goes on while a page is full and total,
// when given, is not reached.
func (c *Client) TriggerBindings(ctx context.Context, trigger string) ([]TriggerBinding, error) {
	path := "/actions/triggers/" + escape(trigger) + "/bindings"
	out := []TriggerBinding{}
	for page := 0; ; page++ {
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(BindingsPerPage)}}
		var l bindingList
		if _, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &l); err != nil {
			return nil, err
		}
		out = append(out, l.Bindings...)
		if len(l.Bindings) < BindingsPerPage || l.Total != nil && len(out) >= *l.Total {
			return out, nil
		}
	}
}

// UpdateTriggerBindings replaces the trigger's bindings by in, whose order is
// the execution order, and returns the bindings as the trigger now holds
// them. The PATCH replaces the whole list, so sending it again changes
// nothing: it is retried like any PATCH.
func (c *Client) UpdateTriggerBindings(ctx context.Context, trigger string, in []BindingUpdate) ([]TriggerBinding, error) {
	if in == nil {
		in = []BindingUpdate{}
	}
	var out bindingList
	path := "/actions/triggers/" + escape(trigger) + "/bindings"
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: bindingsBody{Bindings: in}}, &out); err != nil {
		return nil, err
	}
	if out.Bindings == nil {
		out.Bindings = []TriggerBinding{}
	}
	return out.Bindings, nil
}
