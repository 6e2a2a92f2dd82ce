package mgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// serverTenant serves n resource servers through GET by id and paged lists,
// counting each kind of request.
type serverTenant struct {
	*fakeTenant
	mu    sync.Mutex
	names map[string]string
	lists atomic.Int64
	gets  atomic.Int64
	order []string
}

func newServerTenant(t *testing.T, n int) *serverTenant {
	st := &serverTenant{names: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("%024d", i)
		st.names[id] = fmt.Sprintf("api-%d", i)
		st.order = append(st.order, id)
	}
	st.fakeTenant = newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		st.mu.Lock()
		defer st.mu.Unlock()
		obj := func(id string) map[string]any {
			return map[string]any{"id": id, "identifier": "https://" + id, "name": st.names[id]}
		}
		switch {
		case r.Method == "GET" && r.URL.Path == "/api/v2/resource-servers":
			st.lists.Add(1)
			time.Sleep(10 * time.Millisecond)
			var page, per int
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			fmt.Sscan(r.URL.Query().Get("per_page"), &per)
			items := []map[string]any{}
			for i := page * per; i < min(len(st.order), (page+1)*per); i++ {
				items = append(items, obj(st.order[i]))
			}
			b, _ := json.Marshal(map[string]any{"total": len(st.order), "start": page * per, "limit": per, "resource_servers": items})
			jsonReply(w, 200, string(b))
		case r.Method == "GET":
			st.gets.Add(1)
			id := strings.TrimPrefix(r.URL.Path, "/api/v2/resource-servers/")
			if _, ok := st.names[id]; !ok {
				jsonReply(w, 404, `{"statusCode":404,"error":"Not Found","message":"The resource server does not exist","errorCode":"inexistent_resource_server"}`)
				return
			}
			b, _ := json.Marshal(obj(id))
			jsonReply(w, 200, string(b))
		case r.Method == "PATCH":
			id := strings.TrimPrefix(r.URL.Path, "/api/v2/resource-servers/")
			var in map[string]any
			_ = json.NewDecoder(r.Body).Decode(&in)
			st.names[id] = in["name"].(string)
			b, _ := json.Marshal(obj(id))
			jsonReply(w, 200, string(b))
		}
	})
	return st
}

func readAll(t *testing.T, c *mgmt.Client, ids []string) map[string]string {
	t.Helper()
	var mu sync.Mutex
	got := map[string]string{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10) // terraform's default parallelism
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rs, err := c.ReadResourceServer(context.Background(), id)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[id] = *rs.Name
			mu.Unlock()
		}()
	}
	wg.Wait()
	return got
}

func TestCoalesce_concurrentReadersShareOneWalk(t *testing.T) {
	st := newServerTenant(t, 500)
	c := st.client(t)
	got := readAll(t, c, st.order)
	if len(got) != 500 || got[st.order[499]] != "api-499" {
		t.Fatalf("read %d objects", len(got))
	}
	t.Logf("500 reads: %d list pages, %d GETs", st.lists.Load(), st.gets.Load())
	if st.lists.Load() != 5 || st.gets.Load() > 2+10 {
		t.Fatalf("500 reads cost %d list pages and %d GETs; want 5 pages and only the first direct reads", st.lists.Load(), st.gets.Load())
	}
}

// TestCoalesce_fewReadsOnALargeTenantStayDirect: up to two reads of a type
// never list; past that, a large tenant costs one list page (the probe that
// learns its size) and the reads stay direct.
func TestCoalesce_fewReadsOnALargeTenantStayDirect(t *testing.T) {
	st := newServerTenant(t, 3000)
	c := st.client(t)
	readAll(t, c, st.order[2998:])
	if st.lists.Load() != 0 || st.gets.Load() != 2 {
		t.Fatalf("2 reads cost %d pages and %d GETs; want 0 pages and 2 GETs", st.lists.Load(), st.gets.Load())
	}
	readAll(t, c, st.order[2980:2998])
	if st.lists.Load() != 1 || st.gets.Load() != 20 {
		t.Fatalf("20 reads on 3000 objects cost %d pages and %d GETs; want the 1 probe page and 20 GETs", st.lists.Load(), st.gets.Load())
	}
}

func TestCoalesce_writeInvalidates(t *testing.T) {
	st := newServerTenant(t, 50)
	c := st.client(t)
	readAll(t, c, st.order)
	name := "renamed"
	if _, err := c.UpdateResourceServer(context.Background(), st.order[10], mgmt.ResourceServer{Name: &name}); err != nil {
		t.Fatal(err)
	}
	lists := st.lists.Load()
	rs, err := c.ReadResourceServer(context.Background(), st.order[10])
	if err != nil || *rs.Name != "renamed" {
		t.Fatalf("read after a write returned %v %v: a list result was used after the write", rs, err)
	}
	if got := readAll(t, c, st.order); got[st.order[10]] != "renamed" {
		t.Fatalf("stale value %q", got[st.order[10]])
	}
	if st.lists.Load() == lists {
		t.Fatal("the pages were not fetched again after the write")
	}
}

func TestCoalesce_missingObjectFallsBackToGET(t *testing.T) {
	st := newServerTenant(t, 20)
	c := st.client(t)
	readAll(t, c, st.order)
	gets := st.gets.Load()
	_, err := c.ReadResourceServer(context.Background(), "ffffffffffffffffffffffff")
	if !mgmt.IsNotFound(err) {
		t.Fatalf("err = %v, want a 404 from a direct GET", err)
	}
	if st.gets.Load() != gets+1 {
		t.Fatal("an object missing from the list was not read directly")
	}
}

// TestPacer_holdsEveryoneUntilReset: after a 429 the budget does not refill
// within the window, so every caller waits for the reset; a caller whose
// context ends first gives up without sending.
func TestPacer_holdsEveryoneUntilReset(t *testing.T) {
	var (
		mu    sync.Mutex
		times []time.Time
		reset = time.Now().Add(1500 * time.Millisecond).Truncate(time.Second).Add(time.Second)
	)
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		first := len(times) == 1
		mu.Unlock()
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Reset", fmt.Sprint(reset.Unix()))
		if first {
			w.Header().Set("X-RateLimit-Remaining", "0")
			jsonReply(w, 429, `{"statusCode":429,"error":"Too Many Requests","message":"Global limit has been reached"}`)
			return
		}
		w.Header().Set("X-RateLimit-Remaining", "4")
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	done := make(chan error, 1)
	go func() { _, err := c.GetRole(context.Background(), "rol_1"); done <- err }()
	time.Sleep(100 * time.Millisecond) // the 429 has put the client on hold
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := c.GetRole(ctx, "rol_1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(times) != 6 {
		t.Fatalf("%d requests, want 6 (the cancelled caller sent none)", len(times))
	}
	for _, at := range times[1:] {
		if at.Before(reset) {
			t.Fatalf("a request went out at %v, before the reset at %v", at, reset)
		}
	}
}

// TestPacer_refillingBucketGetsNo429: against a token bucket (burst 5,
// 20 tokens/s) that reports when it is full, 60 requests from 10 goroutines
// are paced by the refill rate the headers prove and none is refused.
func TestPacer_refillingBucketGetsNo429(t *testing.T) {
	var (
		mu     sync.Mutex
		tokens = 5.0
		last   = time.Now()
		denied int
	)
	const burst, refill = 5.0, 20.0
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now := time.Now()
		tokens = min(burst, tokens+now.Sub(last).Seconds()*refill)
		last = now
		ok := tokens >= 1
		if ok {
			tokens--
		} else {
			denied++
		}
		full := now.Add(time.Duration((burst - tokens) / refill * float64(time.Second)))
		resetSec := full.Unix()
		if full.After(time.Unix(resetSec, 0)) {
			resetSec++
		}
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(int(tokens)))
		w.Header().Set("X-RateLimit-Reset", fmt.Sprint(resetSec))
		mu.Unlock()
		if !ok {
			jsonReply(w, 429, `{"statusCode":429,"message":"Global limit has been reached"}`)
			return
		}
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	if _, err := c.GetRole(context.Background(), "rol_1"); err != nil { // learns the window
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 6 {
				if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if denied != 0 {
		t.Fatalf("%d of 61 requests were answered 429", denied)
	}
}

// TestPacer_noHeadersNoSerialisation: a tenant that sends no rate-limit
// headers gets concurrent requests once its first answer is in.
func TestPacer_noHeadersNoSerialisation(t *testing.T) {
	var cur, peak atomic.Int64
	f := newFakeTenant(t, func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
		jsonReply(w, 200, `{"id":"rol_1","name":"r"}`)
	})
	c := f.client(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				if _, err := c.GetRole(context.Background(), "rol_1"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if peak.Load() < 4 {
		t.Fatalf("at most %d requests ran at once: the client serialised a tenant without rate-limit headers", peak.Load())
	}
}
