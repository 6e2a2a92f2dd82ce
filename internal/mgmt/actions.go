package mgmt

import (
	"context"
	"net/http"
)

// Action is the part of an action a token exchange profile depends on.
type Action struct {
	ID                 string          `json:"id,omitempty"`
	Name               string          `json:"name"`
	SupportedTriggers  []ActionTrigger `json:"supported_triggers"`
	Code               string          `json:"code,omitempty"`
	Runtime            string          `json:"runtime,omitempty"`
	Status             string          `json:"status,omitempty"`
	Deploy             bool            `json:"deploy,omitempty"`
	DeployedVersion    *ActionVersion  `json:"deployed_version,omitempty"`
	AllChangesDeployed *bool           `json:"all_changes_deployed,omitempty"`
}

// ActionTrigger names a trigger the action supports.
type ActionTrigger struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// ActionVersion is a built or deployed version of an action.
type ActionVersion struct {
	ID       string `json:"id"`
	Deployed bool   `json:"deployed"`
	Status   string `json:"status"`
	Number   int    `json:"number"`
}

// TriggerCustomTokenExchange is the trigger a profile's action must support.
const TriggerCustomTokenExchange = "custom-token-exchange"

func (c *Client) CreateAction(ctx context.Context, in Action) (*Action, error) {
	in.ID, in.Status, in.DeployedVersion, in.AllChangesDeployed = "", "", nil, nil
	var out Action
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/actions/actions", body: in}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST /actions/actions")
}

func (c *Client) GetAction(ctx context.Context, id string) (*Action, error) {
	var out Action
	path := "/actions/actions/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "GET "+path)
}

// DeployAction deploys the action's latest version and returns that version.
func (c *Client) DeployAction(ctx context.Context, id string) (*ActionVersion, error) {
	var out ActionVersion
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/actions/actions/" + escape(id) + "/deploy"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteAction deletes the action; one already gone is success.
func (c *Client) DeleteAction(ctx context.Context, id string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/actions/actions/" + escape(id)}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}
