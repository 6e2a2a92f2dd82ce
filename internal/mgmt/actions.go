package mgmt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Action is a piece of code the tenant runs at a trigger, as the API shows
// it (reference §2). Secret values are never returned: Secrets holds names.
type Action struct {
	ID                 string             `json:"id"`
	Name               string             `json:"name"`
	SupportedTriggers  []ActionTrigger    `json:"supported_triggers"`
	Code               string             `json:"code"`
	Runtime            string             `json:"runtime"`
	Dependencies       []ActionDependency `json:"dependencies"`
	Secrets            []ActionSecret     `json:"secrets"`
	Status             string             `json:"status"`
	CurrentVersion     *ActionVersion     `json:"current_version,omitempty"`
	DeployedVersion    *ActionVersion     `json:"deployed_version,omitempty"`
	AllChangesDeployed bool               `json:"all_changes_deployed"`
	CreatedAt          string             `json:"created_at,omitempty"`
	UpdatedAt          string             `json:"updated_at,omitempty"`
}

// ActionTrigger names a trigger the action supports.
type ActionTrigger struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// ActionDependency is an npm package the action's code requires.
type ActionDependency struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	RegistryURL string `json:"registry_url,omitempty"`
}

// ActionSecret is a secret as answers show it: its name and when its value
// was last set, never the value (reference §2, §7).
type ActionSecret struct {
	Name      string `json:"name"`
	UpdatedAt string `json:"updated_at,omitempty"`
}

// ActionSecretValue is a secret as a create or PATCH sends it. The value is
// always sent, an empty one included: an item without a value means "keep
// the stored value", which a client that holds the value never needs.
type ActionSecretValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// secretValues are the values of secrets as they are and as JSON writes
// them (with quotes and backslashes escaped), for the log masks.
func secretValues(secrets []ActionSecretValue) []string {
	out := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		quoted, _ := json.Marshal(s.Value)
		out = append(out, s.Value, strings.Trim(string(quoted), `"`))
	}
	return out
}

// ActionVersion is a built version of an action (current_version,
// deployed_version, or a deploy's answer).
type ActionVersion struct {
	ID       string `json:"id"`
	Number   int64  `json:"number"`
	Status   string `json:"status"`
	Deployed bool   `json:"deployed"`
}

// ActionCreate is the POST body.
type ActionCreate struct {
	Name              string              `json:"name"`
	SupportedTriggers []ActionTrigger     `json:"supported_triggers"`
	Code              string              `json:"code"`
	Runtime           string              `json:"runtime,omitempty"`
	Dependencies      []ActionDependency  `json:"dependencies,omitempty"`
	Secrets           []ActionSecretValue `json:"secrets,omitempty"`
	Deploy            bool                `json:"deploy,omitempty"`
}

// ActionUpdate is a PATCH body: only the fields set are sent. Dependencies
// and secrets are sent whole: the list sent replaces the stored one, so a
// secret left out of a secrets list is deleted, and leaving Secrets unset is
// how a PATCH keeps every secret as it is.
type ActionUpdate struct {
	Name              Patch[string]              `json:"name,omitzero"`
	SupportedTriggers Patch[[]ActionTrigger]     `json:"supported_triggers,omitzero"`
	Code              Patch[string]              `json:"code,omitzero"`
	Runtime           Patch[string]              `json:"runtime,omitzero"`
	Dependencies      Patch[[]ActionDependency]  `json:"dependencies,omitzero"`
	Secrets           Patch[[]ActionSecretValue] `json:"secrets,omitzero"`
}

// IsEmpty reports whether the PATCH would send no field.
func (u ActionUpdate) IsEmpty() bool {
	return u.Name.IsZero() && u.SupportedTriggers.IsZero() && u.Code.IsZero() && u.Runtime.IsZero() &&
		u.Dependencies.IsZero() && u.Secrets.IsZero()
}

// ActionList is one page of actions (reference §0.6: actions have their own envelope).
type ActionList struct {
	Actions []Action `json:"actions"`
	Total   int      `json:"total"`
	PerPage int      `json:"per_page"`
}

// Build statuses (reference §2). The action's status is lower-case;
// current_version's is upper-case, so comparisons ignore case.
const (
	ActionBuilt  = "built"
	ActionFailed = "failed"
)

// TriggerCustomTokenExchange is the trigger a profile's action must support.
const TriggerCustomTokenExchange = "custom-token-exchange"

func (c *Client) CreateAction(ctx context.Context, in ActionCreate) (*Action, error) {
	var out Action
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/actions/actions", body: in, secrets: secretValues(in.Secrets)}, &out); err != nil {
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

// UpdateAction PATCHes the action; the tenant builds it again.
func (c *Client) UpdateAction(ctx context.Context, id string, in ActionUpdate) (*Action, error) {
	var out Action
	path := "/actions/actions/" + escape(id)
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: path, body: in, secrets: secretValues(in.Secrets.Value())}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "PATCH "+path)
}

// DeployAction deploys the action's built code as a new version and returns
// that version. Deploying the same build twice makes two versions, so a
// lost answer is not repeated; the caller waits for the deployed version.
func (c *Client) DeployAction(ctx context.Context, id string) (*ActionVersion, error) {
	var out ActionVersion
	path := "/actions/actions/" + escape(id) + "/deploy"
	if _, err := c.do(ctx, request{method: http.MethodPost, path: path}, &out); err != nil {
		return nil, err
	}
	return checkID(&out, out.ID, "POST "+path)
}

// DeleteAction deletes the action; one already gone is success. force asks
// the API to delete it even while it is bound or referenced.
func (c *Client) DeleteAction(ctx context.Context, id string, force bool) error {
	var q url.Values
	if force {
		q = url.Values{"force": {"true"}}
	}
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/actions/actions/" + escape(id), query: q}, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// ListActions reads one page (0-based) of actions, optionally only those of
// one trigger or with one exact name.
func (c *Client) ListActions(ctx context.Context, triggerID, name string, page, perPage int) (*ActionList, error) {
	q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	if triggerID != "" {
		q.Set("triggerId", triggerID)
	}
	if name != "" {
		q.Set("actionName", name)
	}
	var out ActionList
	if _, err := c.do(ctx, request{method: http.MethodGet, path: "/actions/actions", query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AllActions walks every page of ListActions.
func (c *Client) AllActions(ctx context.Context, triggerID, name string) ([]Action, error) {
	var all []Action
	for a, err := range c.EachAction(ctx, triggerID, name) {
		if err != nil {
			return nil, err
		}
		all = append(all, *a)
	}
	return all, nil
}

// EachAction yields the actions ListActions filters, page by page (100 a
// request); an error ends it.
func (c *Client) EachAction(ctx context.Context, triggerID, name string) iter.Seq2[*Action, error] {
	return func(yield func(*Action, error) bool) {
		seen := 0
		for page := 0; ; page++ {
			l, err := c.ListActions(ctx, triggerID, name, page, 100)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range l.Actions {
				if !yield(&l.Actions[i], nil) {
					return
				}
			}
			seen += len(l.Actions)
			if len(l.Actions) == 0 || seen >= l.Total {
				return
			}
		}
	}
}

// CreateActionSafe creates an action without leaving a second one behind
// when an answer is lost. The client does not repeat a POST that may have
// been applied (a 5xx, a dropped connection); here the action is looked up
// by name instead, and the create is sent again only when it is not found.
//
// Assumption (reference §2 is silent, and documents no 409 for actions):
// action names need not be unique, so a name cannot tell this create's
// action from an older one. The ids already under the name are read first,
// and after a lost answer only an action that is not among them and equals
// what was sent is taken as this create's: an action that existed before is
// never adopted.
func (c *Client) CreateActionSafe(ctx context.Context, in ActionCreate) (*Action, CreateOutcome, error) {
	before, err := c.AllActions(ctx, "", in.Name)
	if err != nil {
		return nil, Created, err
	}
	old := make(map[string]bool, len(before))
	for _, a := range before {
		old[a.ID] = true
	}
	return SafeCreate(ctx, 3,
		func() (*Action, error) { return c.CreateAction(ctx, in) },
		func() (*Action, error) {
			all, err := c.AllActions(ctx, "", in.Name)
			if err != nil {
				return nil, err
			}
			var found *Action
			for i := range all {
				if old[all[i].ID] {
					continue
				}
				if SameAction(in, &all[i]) {
					return &all[i], nil
				}
				found = &all[i]
			}
			return found, nil
		},
		func(a *Action) bool { return !old[a.ID] && SameAction(in, a) })
}

// SameAction reports whether a holds everything in was sent with (secrets
// by name: their values are never shown).
func SameAction(in ActionCreate, a *Action) bool {
	if a.Name != in.Name || a.Code != in.Code || (in.Runtime != "" && a.Runtime != in.Runtime) {
		return false
	}
	if len(a.SupportedTriggers) != len(in.SupportedTriggers) || len(a.Dependencies) != len(in.Dependencies) || len(a.Secrets) != len(in.Secrets) {
		return false
	}
	for i, t := range in.SupportedTriggers {
		if a.SupportedTriggers[i] != t {
			return false
		}
	}
	deps := map[ActionDependency]bool{}
	for _, d := range a.Dependencies {
		deps[d] = true
	}
	for _, d := range in.Dependencies {
		if !deps[d] {
			return false
		}
	}
	names := map[string]bool{}
	for _, s := range a.Secrets {
		names[s.Name] = true
	}
	for _, s := range in.Secrets {
		if !names[s.Name] {
			return false
		}
	}
	return true
}

// BuildFailedError is an action whose build ended in the failed status.
// The API gives no reason for a failed build (reference §2 names no field
// for one): the action, its dependencies included, is all there is to show.
type BuildFailedError struct {
	Action *Action
}

func (e *BuildFailedError) Error() string {
	msg := fmt.Sprintf("the build of action %s (%q) failed", e.Action.ID, e.Action.Name)
	if deps := DependencyList(e.Action.Dependencies); deps != "" {
		msg += "; its dependencies are " + deps
	}
	return msg
}

// DependencyList shows dependencies as name@version, comma-separated ("" for none).
func DependencyList(deps []ActionDependency) string {
	out := make([]string, 0, len(deps))
	for _, d := range deps {
		s := d.Name + "@" + d.Version
		if d.RegistryURL != "" {
			s += " (from " + d.RegistryURL + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// WaitError is a wait that ended before the action was ready: the caller's
// deadline passed, the wait was cancelled, or a read failed. Action is the
// last answer read, so the caller can say what status the action was left in.
type WaitError struct {
	Action *Action
	Err    error
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("waiting for action %s: its status was %q (all_changes_deployed %t) when the wait ended: %v",
		e.Action.ID, e.Action.Status, e.Action.AllChangesDeployed, e.Err)
}

func (e *WaitError) Unwrap() error { return e.Err }

// WaitForAction reads the action, then waits as AwaitAction does.
func (c *Client) WaitForAction(ctx context.Context, id string, done func(*Action) bool) (*Action, error) {
	a, err := c.GetAction(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.AwaitAction(ctx, a, done)
}

// AwaitAction waits, from an answer already read (a create's or a PATCH's,
// so no request repeats it), until done says the action is ready, its build
// fails, or ctx ends (the caller's timeout). A build that fails is a
// *BuildFailedError; the statuses in between (pending, building, retrying,
// packaged) are waited out, reading the action again after each pause. Any
// other end is a *WaitError holding the last answer. The action returned is
// the last one read, also with an error.
func (c *Client) AwaitAction(ctx context.Context, a *Action, done func(*Action) bool) (*Action, error) {
	wait := c.cfg.MinPoll
	for {
		if strings.EqualFold(a.Status, ActionFailed) {
			return a, &BuildFailedError{Action: a}
		}
		if done(a) {
			return a, nil
		}
		if err := sleep(ctx, wait); err != nil {
			return a, &WaitError{Action: a, Err: err}
		}
		next, err := c.GetAction(ctx, a.ID)
		if err != nil {
			return a, &WaitError{Action: a, Err: err}
		}
		a = next
		wait = min(wait*3/2, c.cfg.MaxPoll)
	}
}

// DeployAndWait deploys the action's built code and waits until the tenant
// shows that version deployed, with all changes deployed: the deploy's own
// answer still says deployed:false, and the next read shows it deployed
// (reference §2). Each deploy makes a version, so one whose answer was lost
// (IsUncertain) is not repeated blindly: the action is read, and the deploy
// is sent again only when the action does not show its changes deployed.
func (c *Client) DeployAndWait(ctx context.Context, id string) (*Action, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var v *ActionVersion
		if v, err = c.DeployAction(ctx, id); err == nil {
			return c.WaitForAction(ctx, id, func(a *Action) bool {
				return IsDeployed(a) && a.DeployedVersion.Number >= v.Number
			})
		}
		if !IsUncertain(err) {
			return nil, err
		}
		a, gerr := c.GetAction(ctx, id)
		if gerr != nil {
			return nil, errors.Join(err, gerr)
		}
		if IsDeployed(a) {
			return a, nil
		}
	}
	return nil, err
}

// IsBuilt reports whether the action's latest code is built.
func IsBuilt(a *Action) bool { return strings.EqualFold(a.Status, ActionBuilt) }

// IsDeployed reports whether the action's latest code is built and deployed.
func IsDeployed(a *Action) bool {
	return IsBuilt(a) && a.AllChangesDeployed && a.DeployedVersion != nil && a.DeployedVersion.Deployed
}
