package mgmt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// fastPolls shortens the pauses between reads of a building action.
func fastPolls(c *mgmt.Config) { c.MinPoll, c.MaxPoll = time.Millisecond, 4*time.Millisecond }

// fakeActions answers the actions routes from a script: each GET of the
// action returns the next status in statuses (the last one repeats).
type fakeActions struct {
	mu         sync.Mutex
	statuses   []string
	gets       int
	deploys    int
	posts      int
	deployed   bool
	failDeploy int  // the first failDeploy deploys answer 503 before doing anything
	loseDeploy bool // the first deploy is applied, then answered 503
	bodies     []string
	existing   []string // ids of actions with the same name created before
	lostPost   bool     // the first create is applied, then answered 503
	created    []string
}

func (f *fakeActions) action(id string) string {
	status := f.statuses[min(f.gets, len(f.statuses)-1)]
	deployed := ""
	if f.deployed {
		deployed = `,"deployed_version":{"id":"v1","number":1,"deployed":true,"status":"built"}`
	}
	return fmt.Sprintf(`{"id":%q,"name":"n","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"c",`+
		`"dependencies":[{"name":"jose","version":"5.9.6"}],"runtime":"node22","status":%q,"secrets":[{"name":"K","updated_at":"t"}]%s,"all_changes_deployed":%t}`,
		id, status, deployed, f.deployed)
}

func (f *fakeActions) handle(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, _ := io.ReadAll(r.Body)
	f.bodies = append(f.bodies, r.Method+" "+r.URL.Path+" "+string(b))
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/v2/actions/actions":
		items := []string{}
		for _, id := range append(append([]string{}, f.existing...), f.created...) {
			items = append(items, f.action(id))
		}
		jsonReply(w, 200, fmt.Sprintf(`{"actions":[%s],"total":%d,"per_page":100}`, strings.Join(items, ","), len(items)))
	case r.Method == http.MethodPost && r.URL.Path == "/api/v2/actions/actions":
		f.posts++
		id := fmt.Sprintf("new-%d", f.posts)
		f.created = append(f.created, id)
		if f.lostPost && f.posts == 1 {
			jsonReply(w, 503, `{"statusCode":503,"error":"Service Unavailable","message":"lost"}`)
			return
		}
		jsonReply(w, 201, f.action(id))
	case r.Method == http.MethodPatch:
		jsonReply(w, 200, f.action(strings.TrimPrefix(r.URL.Path, "/api/v2/actions/actions/")))
	case r.Method == http.MethodGet:
		jsonReply(w, 200, f.action(strings.TrimPrefix(r.URL.Path, "/api/v2/actions/actions/")))
		f.gets++
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/deploy"):
		f.deploys++
		if f.deploys <= f.failDeploy {
			jsonReply(w, 503, `{"statusCode":503,"error":"Service Unavailable","message":"try later"}`)
			return
		}
		f.deployed = true
		if f.loseDeploy && f.deploys == 1 {
			jsonReply(w, 503, `{"statusCode":503,"error":"Service Unavailable","message":"lost"}`)
			return
		}
		jsonReply(w, 200, `{"id":"v1","number":1,"deployed":false,"status":"built"}`)
	default:
		jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"That action does not exist."}`)
	}
}

func TestActionUpdate_bodies(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   mgmt.ActionUpdate
		want string
	}{
		{"nothing", mgmt.ActionUpdate{}, `{}`},
		{"code only keeps secrets", mgmt.ActionUpdate{Code: mgmt.Set("x")}, `{"code":"x"}`},
		{"secrets cleared", mgmt.ActionUpdate{Secrets: mgmt.Set([]mgmt.ActionSecretValue{})}, `{"secrets":[]}`},
		{"empty value is sent", mgmt.ActionUpdate{Secrets: mgmt.Set([]mgmt.ActionSecretValue{{Name: "K", Value: ""}})}, `{"secrets":[{"name":"K","value":""}]}`},
		{"dependencies cleared", mgmt.ActionUpdate{Dependencies: mgmt.Set([]mgmt.ActionDependency{})}, `{"dependencies":[]}`},
		{
			"trigger and registry",
			mgmt.ActionUpdate{
				SupportedTriggers: mgmt.Set([]mgmt.ActionTrigger{{ID: "custom-token-exchange", Version: "v1"}}),
				Dependencies:      mgmt.Set([]mgmt.ActionDependency{{Name: "jose", Version: "5.9.6", RegistryURL: "https://npm.example.com"}}),
			},
			`{"supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"dependencies":[{"name":"jose","version":"5.9.6","registry_url":"https://npm.example.com"}]}`,
		},
	} {
		got, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if tc.in.IsEmpty() != (tc.want == `{}`) {
			t.Errorf("%s: IsEmpty %v", tc.name, tc.in.IsEmpty())
		}
	}
}

func TestActionCreate_body(t *testing.T) {
	got, err := json.Marshal(mgmt.ActionCreate{
		Name:              "n",
		SupportedTriggers: []mgmt.ActionTrigger{{ID: "custom-token-exchange", Version: "v1"}},
		Code:              "",
		Secrets:           []mgmt.ActionSecretValue{{Name: "K", Value: "v"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"n","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"","secrets":[{"name":"K","value":"v"}]}`
	if string(got) != want {
		t.Fatalf("got %s", got)
	}
}

func TestAwaitAction_pollsUntilBuilt(t *testing.T) {
	f := &fakeActions{statuses: []string{"building", "retrying", "packaged", "built"}}
	c := newFakeTenant(t, f.handle).client(t, fastPolls)
	a, err := c.AwaitAction(context.Background(), &mgmt.Action{ID: "a1", Status: "pending"}, mgmt.IsBuilt)
	if err != nil || !mgmt.IsBuilt(a) {
		t.Fatalf("%v %+v", err, a)
	}
	if f.gets != 4 {
		t.Fatalf("%d reads for 4 statuses", f.gets)
	}
	// An answer already built is not read again.
	if _, err := c.AwaitAction(context.Background(), a, mgmt.IsBuilt); err != nil || f.gets != 4 {
		t.Fatalf("%v, %d reads", err, f.gets)
	}
}

func TestAwaitAction_failedBuild(t *testing.T) {
	f := &fakeActions{statuses: []string{"building", "retrying", "failed"}}
	c := newFakeTenant(t, f.handle).client(t, fastPolls)
	a, err := c.WaitForAction(context.Background(), "a1", mgmt.IsBuilt)
	var failed *mgmt.BuildFailedError
	if !errors.As(err, &failed) || a == nil || a.Status != "failed" {
		t.Fatalf("%v %+v", err, a)
	}
	if !strings.Contains(err.Error(), "jose@5.9.6") {
		t.Fatalf("dependencies not named: %v", err)
	}
}

func TestAwaitAction_deadlineKeepsLastStatus(t *testing.T) {
	f := &fakeActions{statuses: []string{"building"}}
	// The deadline passes when the second read arrives: the first one's
	// answer ("building") is in by then, however slow the machine.
	ctx := &passingDeadline{Context: context.Background(), done: make(chan struct{})}
	var gets atomic.Int64
	c := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && gets.Add(1) == 2 {
			ctx.pass()
		}
		f.handle(w, r)
	}).client(t, fastPolls)
	a, err := c.AwaitAction(ctx, &mgmt.Action{ID: "a1", Status: "pending"}, mgmt.IsBuilt)
	var we *mgmt.WaitError
	if !errors.As(err, &we) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%T %v", err, err)
	}
	if a == nil || a.Status != "building" || we.Action.Status != "building" {
		t.Fatalf("last status lost: %+v", a)
	}
	if !strings.Contains(err.Error(), `"building"`) {
		t.Fatalf("%v", err)
	}
}

func TestDeployAndWait(t *testing.T) {
	for _, tc := range []struct {
		name        string
		fake        *fakeActions
		wantDeploys int
	}{
		{"deployed at once", &fakeActions{statuses: []string{"built"}}, 1},
		// A 503 that did nothing: the action shows no deployment, so the deploy is sent again.
		{"refused, sent again", &fakeActions{statuses: []string{"built"}, failDeploy: 1}, 2},
		// A deploy applied whose answer was lost is not repeated: a second version would follow.
		{"lost answer not repeated", &fakeActions{statuses: []string{"built"}, loseDeploy: true}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.fake
			c := newFakeTenant(t, f.handle).client(t, fastPolls)
			a, err := c.DeployAndWait(context.Background(), "a1")
			if err != nil || !mgmt.IsDeployed(a) {
				t.Fatalf("%v %+v", err, a)
			}
			if f.deploys != tc.wantDeploys {
				t.Fatalf("%d deploys, want %d", f.deploys, tc.wantDeploys)
			}
		})
	}
	f := &fakeActions{statuses: []string{"built"}, failDeploy: 10}
	c := newFakeTenant(t, f.handle).client(t, fastPolls)
	if _, err := c.DeployAndWait(context.Background(), "a1"); err == nil || f.deploys != 3 {
		t.Fatalf("%v after %d deploys", err, f.deploys)
	}
}

func TestCreateActionSafe(t *testing.T) {
	in := mgmt.ActionCreate{
		Name:              "n",
		SupportedTriggers: []mgmt.ActionTrigger{{ID: "custom-token-exchange", Version: "v1"}},
		Code:              "c",
		Runtime:           "node22",
		Dependencies:      []mgmt.ActionDependency{{Name: "jose", Version: "5.9.6"}},
		Secrets:           []mgmt.ActionSecretValue{{Name: "K", Value: "secret"}},
	}
	t.Run("plain", func(t *testing.T) {
		f := &fakeActions{statuses: []string{"pending"}}
		a, outcome, err := newFakeTenant(t, f.handle).client(t).CreateActionSafe(context.Background(), in)
		if err != nil || outcome != mgmt.Created || a.ID != "new-1" || f.posts != 1 {
			t.Fatalf("%v %v %+v", err, outcome, a)
		}
	})
	t.Run("lost answer adopts the new action, never the older twin", func(t *testing.T) {
		f := &fakeActions{statuses: []string{"pending"}, existing: []string{"older"}, lostPost: true}
		a, outcome, err := newFakeTenant(t, f.handle).client(t).CreateActionSafe(context.Background(), in)
		if err != nil || outcome != mgmt.Adopted || a.ID != "new-1" || f.posts != 1 {
			t.Fatalf("%v %v %+v after %d posts", err, outcome, a, f.posts)
		}
	})
	t.Run("lost answer, nothing new: sent again", func(t *testing.T) {
		f := &fakeActions{statuses: []string{"pending"}, existing: []string{"older"}, lostPost: true}
		tenant := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && f.posts == 0 {
				f.posts++ // refused before anything was stored
				jsonReply(w, 503, `{"statusCode":503,"error":"Service Unavailable","message":"down"}`)
				return
			}
			f.handle(w, r)
		})
		a, outcome, err := tenant.client(t).CreateActionSafe(context.Background(), in)
		if err != nil || outcome != mgmt.Created || a.ID != "new-2" {
			t.Fatalf("%v %v %+v", err, outcome, a)
		}
	})
	t.Run("secret values are sent, never compared", func(t *testing.T) {
		if !mgmt.SameAction(in, &mgmt.Action{
			Name: "n", Code: "c", Runtime: "node22", SupportedTriggers: in.SupportedTriggers,
			Dependencies: in.Dependencies, Secrets: []mgmt.ActionSecret{{Name: "K"}},
		}) {
			t.Fatal("equal action not recognised")
		}
		if mgmt.SameAction(in, &mgmt.Action{Name: "n", Code: "other", Runtime: "node22", SupportedTriggers: in.SupportedTriggers}) {
			t.Fatal("different code taken as the same action")
		}
	})
}

func TestActionSecrets_notLogged(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	f := &fakeActions{statuses: []string{"pending"}}
	c := newFakeTenant(t, f.handle).client(t)
	const value, escaped = "s3cret-value-1", `quote\"d-s3cret`
	secrets := []mgmt.ActionSecretValue{{Name: "API_KEY", Value: value}, {Name: "OTHER", Value: `quote"d-s3cret`}}
	if _, err := c.CreateAction(ctx, mgmt.ActionCreate{Name: "n", Code: "c", Secrets: secrets}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAction(ctx, "a1", mgmt.ActionUpdate{Secrets: mgmt.Set(secrets)}); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	if !strings.Contains(logs, "request body") || !strings.Contains(logs, "API_KEY") {
		t.Fatalf("expected request bodies with secret names in the logs, got:\n%s", logs)
	}
	for _, s := range []string{value, escaped, "d-s3cret"} {
		if strings.Contains(logs, s) {
			t.Errorf("logs contain %q:\n%s", s, logs)
		}
	}
	if !strings.Contains(f.bodies[0], value) {
		t.Fatalf("the value must still be sent: %s", f.bodies[0])
	}
}

// passingDeadline is a context whose deadline passes when the test says.
type passingDeadline struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func (d *passingDeadline) pass()                 { d.once.Do(func() { close(d.done) }) }
func (d *passingDeadline) Done() <-chan struct{} { return d.done }

func (d *passingDeadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
