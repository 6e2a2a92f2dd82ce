package emulator

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

// Each execution is independent (token-exchange-flow.md §5): executions of
// one action run at once, a hung one fails no other, a deploy or a
// deletion lets those under way finish on their version, and an exchange
// whose caller has gone stops and keeps nothing.

// answer is an exchange's status and body.
type answer struct {
	status int
	body   map[string]any
	err    error
}

// exchangeCtx sends an exchange of subject as exchange does, with ctx, and
// reports what happened instead of failing the test, so that goroutines
// may call it.
func (x *exchangeTenant) exchangeCtx(ctx context.Context, subject string) answer {
	form := url.Values{
		"grant_type": {oauth.TokenExchangeGrant}, "client_id": {x.client}, "client_secret": {x.secret},
		"subject_token": {subject}, "subject_token_type": {legacyType}, "audience": {ordersAPI}, "scope": {"read:orders"},
	}
	req, err := http.NewRequestWithContext(ctx, "POST", x.s.Domain()+"/oauth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	var out map[string]any
	err = json.NewDecoder(resp.Body).Decode(&out)
	return answer{status: resp.StatusCode, body: out, err: err}
}

// exchangeAll sends the exchanges at once and returns their answers in order.
func (x *exchangeTenant) exchangeAll(subjects ...string) []answer {
	out := make([]answer, len(subjects))
	var wg sync.WaitGroup
	for i, s := range subjects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = x.exchangeCtx(context.Background(), s)
		}()
	}
	wg.Wait()
	return out
}

// Five exchanges at once all pass a barrier that only five executions there
// together can pass.
func TestExchange_executionsRunConcurrently(t *testing.T) {
	up := emutest.NewUpstream(t)
	x := newExchangeTenant(t, Options{}, up.Fetch("/barrier/together?n=5")+"\n"+createLegacy, "", "")
	for i, a := range x.exchangeAll("c1", "c2", "c3", "c4", "c5") {
		if a.err != nil || a.status != 200 {
			t.Errorf("exchange %d: %d %v %v", i+1, a.status, a.body, a.err)
		}
	}
}

// An exchange sent while another of the same profile hangs answers; the
// hung one answers as a timed-out action once its own limit has passed.
func TestExchange_hungExecutionFailsNoOther(t *testing.T) {
	up := emutest.NewUpstream(t)
	up.Release("started") // the hung execution's call only records that it is under way
	x := newExchangeTenant(t, Options{ActionTimeout: 5 * time.Second}, `
  if (event.transaction.subject_token === "hang") {
    `+up.Fetch("/hold/started")+`
    await new Promise(() => setInterval(() => {}, 1000));
  }
  `+createLegacy, "", "")
	hung := make(chan answer, 1)
	go func() { hung <- x.exchangeCtx(context.Background(), "hang") }()
	up.Arrived(t, "started", 1)
	for _, subject := range []string{"beside-1", "beside-2"} {
		if a := x.exchangeCtx(context.Background(), subject); a.err != nil || a.status != 200 {
			t.Errorf("%s, sent while another hangs: %d %v %v", subject, a.status, a.body, a.err)
		}
	}
	if a := <-hung; a.status != 500 || a.body["error"] != "server_error" || a.body["error_description"] != oauth.ActionTimeout {
		t.Fatalf("the hung exchange: %d %v %v", a.status, a.body, a.err)
	}
}

// A deploy, or a deletion, during an exchange lets its execution finish on
// the version it started on: the answer is that version's. The action is a
// slow one: it still runs for a while after the change.
func TestExchange_executionUnderWayFinishesOnItsVersion(t *testing.T) {
	for _, change := range []string{"deploy", "delete"} {
		t.Run(change, func(t *testing.T) {
			up := emutest.NewUpstream(t)
			x := newExchangeTenant(t, Options{}, `
  if (event.transaction.subject_token === "held") {
    `+up.Fetch("/hold/v1")+`
    await new Promise((r) => setTimeout(r, 1500));
  }
  api.access.deny("v1", "version one");`, "", "")
			held := make(chan answer, 1)
			go func() { held <- x.exchangeCtx(context.Background(), "held") }()
			up.Arrived(t, "v1", 1)
			if change == "deploy" {
				code, _ := json.Marshal(actionCode(`api.access.deny("v2", "version two");`))
				x.expect(x.call(x.tok, "PATCH", actionsPath+"/"+x.actionID, `{"code":`+string(code)+`}`), 200)
				x.pollFor(x.tok, x.actionID, time.Minute, statusIs(t, "built"))
				x.expect(x.call(x.tok, "POST", actionsPath+"/"+x.actionID+"/deploy", nil), 200)
				if a := x.exchangeCtx(context.Background(), "after"); a.body["error"] != "v2" {
					t.Fatalf("an exchange after the deploy: %d %v %v", a.status, a.body, a.err)
				}
			} else {
				x.expect(x.call(x.tok, "DELETE", actionsPath+"/"+x.actionID+"?force=true", nil), 204)
			}
			up.Release("v1")
			if a := <-held; a.status != 400 || a.body["error"] != "v1" || a.body["error_description"] != "version one" {
				t.Fatalf("the exchange under way: %d %v %v", a.status, a.body, a.err)
			}
		})
	}
}

// An exchange whose caller goes away during its execution stops it (the
// action's own call is dropped) and keeps nothing: no user, no cache write
// (the next exchange's action reports what the cache held).
func TestExchange_callerGoneKeepsNothing(t *testing.T) {
	up := emutest.NewUpstream(t)
	x := newExchangeTenant(t, Options{}, `
  const seen = api.cache.get("seen");
  api.cache.set("seen", event.transaction.subject_token);
  if (event.transaction.subject_token === "gone-1") { `+up.Fetch("/hold/gone")+` }
  api.user.setAppMetadata("seen", seen ? seen.value : "nothing");
  `+createLegacy, "", "")
	route := "POST /oauth/token"
	before := x.s.Stats().ByRoute[route]
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan answer, 1)
	go func() { done <- x.exchangeCtx(ctx, "gone-1") }()
	up.Arrived(t, "gone", 1)
	cancel()
	<-done
	waitFor(t, func() bool { return x.s.Stats().ByRoute[route] > before }, "the exchange's handler to end")
	up.Dropped(t, "gone", 1)
	up.Release("gone")
	if u := x.user("auth0|gone-1"); u != nil {
		t.Fatalf("an exchange whose caller had gone made the user %+v", u)
	}
	if a := x.exchangeCtx(context.Background(), "back"); a.status != 200 {
		t.Fatalf("the next exchange: %+v", a)
	}
	if m := string(x.user("auth0|back").AppMetadata); m != `{"seen":"nothing"}` {
		t.Fatalf("an exchange whose caller had gone wrote the cache: the next one saw %s", m)
	}
}

// A stop with an exchange whose action hangs ends it after the grace, and
// is no error; the exchange answers.
func TestExchange_stopEndsAHungExchange(t *testing.T) {
	up := emutest.NewUpstream(t)
	up.Release("started")
	x := newExchangeTenant(t, Options{}, up.Fetch("/hold/started")+`
  await new Promise(() => setInterval(() => {}, 1000));`, "", "")
	hung := make(chan answer, 1)
	go func() { hung <- x.exchangeCtx(context.Background(), "hang") }()
	up.Arrived(t, "started", 1)
	if err := x.s.Close(); err != nil {
		t.Fatalf("the stop: %v", err)
	}
	if a := <-hung; a.err != nil || a.status < 500 {
		t.Fatalf("the hung exchange: %d %v %v", a.status, a.body, a.err)
	}
}
