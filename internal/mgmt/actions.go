package mgmt

import (
	"context"
	"net/http"
)

// Action is what creating a token exchange profile's action needs: the
// provider creates actions only as fixtures for its tests.
type Action struct {
	ID                string          `json:"id,omitempty"`
	Name              string          `json:"name"`
	SupportedTriggers []ActionTrigger `json:"supported_triggers"`
	Code              string          `json:"code,omitempty"`
	// Deploy creates and deploys in one request.
	Deploy bool `json:"deploy,omitempty"`
}

// ActionTrigger names a trigger the action supports.
type ActionTrigger struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// TriggerCustomTokenExchange is the trigger a profile's action must support.
const TriggerCustomTokenExchange = "custom-token-exchange"

func (c *Client) CreateAction(ctx context.Context, in Action) (*Action, error) {
	in.ID = ""
	var out Action
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/actions/actions", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /actions/actions")
}

// DeleteAction deletes the action; one already gone is success.
func (c *Client) DeleteAction(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/actions/actions/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}
