package mgmt_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The binding of the recorded PATCH answer (go-auth0
// TestActionManager_Bindings.yaml), its action shortened.
const recordedBinding = `{"id":"3b46f90f-c188-4324-a65f-ba8cc8a934a1","trigger_id":"post-login","action":{"id":"c139fef6-c89e-4265-9a4f-b1695b053d4d","name":"Test Action","supported_triggers":[{"id":"post-login","version":"v2"}],"created_at":"2023-01-25T17:42:12.320532785Z","updated_at":"2023-01-25T17:42:12.320532785Z","current_version":{"id":"35ae3c8e-b6e6-44d4-9694-562f1b01a78b","status":"BUILT","number":1},"deployed_version":{"id":"35ae3c8e-b6e6-44d4-9694-562f1b01a78b","deployed":true,"number":1,"status":"built"},"all_changes_deployed":false},"created_at":"2023-01-25T17:42:15.192221899Z","updated_at":"2023-01-25T17:42:15.192221899Z","display_name":"My test action Binding"}`

func TestUpdateTriggerBindings_sendsTheWholeList(t *testing.T) {
	var bodies []string
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch || r.URL.EscapedPath() != "/api/v2/actions/triggers/post-login/bindings" {
			t.Errorf("unexpected %s %s", r.Method, r.URL.EscapedPath())
		}
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		if strings.Contains(string(b), "c139fef6") {
			jsonReply(w, 200, `{"bindings":[`+recordedBinding+`]}`)
			return
		}
		jsonReply(w, 200, `{"bindings":[]}`)
	})
	c := f.client(t)
	ctx := context.Background()
	got, err := c.UpdateTriggerBindings(ctx, "post-login", []mgmt.BindingUpdate{{
		Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: "c139fef6-c89e-4265-9a4f-b1695b053d4d"}, DisplayName: "My test action Binding",
	}})
	if err != nil || len(got) != 1 || got[0].Action.ID != "c139fef6-c89e-4265-9a4f-b1695b053d4d" || got[0].DisplayName != "My test action Binding" ||
		got[0].Action.DeployedVersion == nil || !got[0].Action.DeployedVersion.Deployed {
		t.Fatalf("%+v %v", got, err)
	}
	// Unbinding everything sends an empty list, never null.
	if got, err := c.UpdateTriggerBindings(ctx, "post-login", nil); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("%+v %v", got, err)
	}
	want := []string{
		`{"bindings":[{"ref":{"type":"action_id","value":"c139fef6-c89e-4265-9a4f-b1695b053d4d"},"display_name":"My test action Binding"}]}`,
		`{"bindings":[]}`,
	}
	if fmt.Sprint(bodies) != fmt.Sprint(want) {
		t.Fatalf("bodies %q, want %q", bodies, want)
	}
}

// TestTriggerBindings_pages: the read goes on while a page is full, with or
// without total (trigger-bindings.md: the answer carries it only sometimes).
func TestTriggerBindings_pages(t *testing.T) {
	for _, withTotal := range []bool{false, true} {
		const n = 230
		var queries []string
		f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
			queries = append(queries, r.URL.RawQuery)
			var page, perPage int
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			fmt.Sscan(r.URL.Query().Get("per_page"), &perPage)
			var items []string
			for i := page * perPage; i < min(n, (page+1)*perPage); i++ {
				items = append(items, fmt.Sprintf(`{"id":"b%d","trigger_id":"post-login","display_name":"d%d","action":{"id":"a%d"}}`, i, i, i))
			}
			total := ""
			if withTotal {
				total = fmt.Sprintf(`,"total":%d`, n)
			}
			jsonReply(w, 200, fmt.Sprintf(`{"bindings":[%s]%s,"per_page":%d}`, strings.Join(items, ","), total, perPage))
		})
		got, err := f.client(t).TriggerBindings(context.Background(), "post-login")
		if err != nil || len(got) != n || got[0].Action.ID != "a0" || got[n-1].DisplayName != fmt.Sprintf("d%d", n-1) {
			t.Fatalf("total %v: %d bindings, %v", withTotal, len(got), err)
		}
		if want := "[page=0&per_page=100 page=1&per_page=100 page=2&per_page=100]"; fmt.Sprint(queries) != want {
			t.Fatalf("total %v: queries %v, want %s", withTotal, queries, want)
		}
	}
}

// TestTriggerBindings_escapesTheTrigger: a trigger value never changes the
// request's route.
func TestTriggerBindings_escapesTheTrigger(t *testing.T) {
	var paths []string
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.EscapedPath())
		jsonReply(w, 200, `{"bindings":[],"per_page":100}`)
	})
	c := f.client(t)
	if _, err := c.TriggerBindings(context.Background(), "post-login/x?y"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TriggerBindings(context.Background(), ".."); err == nil {
		t.Fatal("a dot segment was sent")
	}
	if fmt.Sprint(paths) != "[/api/v2/actions/triggers/post-login%2Fx%3Fy/bindings]" {
		t.Fatalf("paths %v", paths)
	}
}
