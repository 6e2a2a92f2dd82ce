package mgmt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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
	return readAllEvery(t, c, ids, 0)
}

// readAllEvery starts a read every gap at most, as Terraform does while it
// plans what it has read.
func readAllEvery(t *testing.T, c *mgmt.Client, ids []string, gap time.Duration) map[string]string {
	t.Helper()
	var mu sync.Mutex
	got := map[string]string{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10) // terraform's default parallelism
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		time.Sleep(gap)
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

// TestCoalesce_concurrentReadersShareOneWalk: a refresh of a whole tenant
// costs exactly its pages and the direct reads, however the reads interleave.
func TestCoalesce_concurrentReadersShareOneWalk(t *testing.T) {
	for run, gap := range []time.Duration{0, 0, time.Millisecond, 3 * time.Millisecond, 8 * time.Millisecond} {
		st := newServerTenant(t, 500)
		c := st.client(t)
		// Terraform reads in its own order, not the list's.
		ids := append([]string(nil), st.order...)
		rand.New(rand.NewPCG(uint64(run), 1)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		got := readAllEvery(t, c, ids, gap)
		if len(got) != 500 || got[st.order[499]] != "api-499" {
			t.Fatalf("read %d objects", len(got))
		}
		if st.lists.Load() != 5 || st.gets.Load() != 2 {
			t.Fatalf("run %d: 500 reads cost %d list pages and %d GETs; want 5 pages and 2 GETs", run, st.lists.Load(), st.gets.Load())
		}
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
	if _, err := c.UpdateResourceServer(context.Background(), st.order[10], mgmt.ResourceServerUpdate{Name: mgmt.Set("renamed")}); err != nil {
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
