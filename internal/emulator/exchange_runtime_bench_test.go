package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

// The action runtime's measures (reported, never asserted), one command
// each; make bench-exchange runs them all:
//
//	go test -run '^$' -bench 'BenchmarkExchangeConcurrent10$' -benchtime=1x ./internal/emulator
//	go test -run '^$' -bench 'BenchmarkExchangeAfterHung$' -benchtime=1x ./internal/emulator
//	go test -run '^$' -bench 'BenchmarkExchangeConcurrent100$' -benchtime=1x ./internal/emulator
//	go test -run '^$' -bench 'BenchmarkExchange$' -benchtime=1x ./internal/emulator
//	go test -run '^$' -bench 'BenchmarkExchangeSoak$' -benchtime=1x ./internal/emulator
//	go test -run '^$' -bench 'BenchmarkExchangeDeployAmidInFlight$' -benchtime=1x ./internal/emulator

// try sends one exchange and returns its status and latency; goroutines may
// call it.
func (bt *benchTenant) try(subjectTokenType, subject string) (int, time.Duration) {
	start := time.Now()
	resp, err := http.PostForm(bt.s.Domain()+"/oauth/token", url.Values{
		"grant_type": {oauth.TokenExchangeGrant}, "client_id": {bt.client}, "client_secret": {bt.secret},
		"subject_token": {subject}, "subject_token_type": {subjectTokenType}, "audience": {ordersAPI}, "scope": {"read:orders"},
	})
	if err != nil {
		return 0, time.Since(start)
	}
	resp.Body.Close()
	return resp.StatusCode, time.Since(start)
}

// tryAll sends n exchanges at once (subject i for the i-th) and returns
// their statuses, latencies and the wall time of them all.
func (bt *benchTenant) tryAll(subjectTokenType string, n int, subject func(i int) string) ([]int, []time.Duration, time.Duration) {
	statuses, lat := make([]int, n), make([]time.Duration, n)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], lat[i] = bt.try(subjectTokenType, subject(i))
		}()
	}
	wg.Wait()
	return statuses, lat, time.Since(start)
}

// deployed deploys an action with body and a profile of a new subject
// token type for it, and returns that type.
func (bt *benchTenant) deployed(body string) string {
	bt.tb.Helper()
	id, _, _ := bt.action(body, "[]", true)
	typ := fmt.Sprintf("urn:acme:bench-%d", time.Now().UnixNano())
	bt.profile(typ, id)
	return typ
}

func unique(prefix string) func(int) string {
	run := time.Now().UnixNano()
	return func(i int) string { return fmt.Sprintf("%s-%d-%d", prefix, run, i) }
}

func count(statuses []int, status int) int {
	n := 0
	for _, s := range statuses {
		if s == status {
			n++
		}
	}
	return n
}

// slowUpstream answers every request after 200 ms, as a legacy IdP might.
func slowUpstream(tb testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		fmt.Fprint(w, "ok")
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// BenchmarkExchangeConcurrent10: 10 exchanges at once whose action awaits
// a 200 ms upstream call; cold (no worker of the version runs yet) and warm
// (the same again).
func BenchmarkExchangeConcurrent10(b *testing.B) {
	requireNode(b)
	up := slowUpstream(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
	for b.Loop() {
		typ := bt.deployed(fmt.Sprintf("await fetch(%q);\n%s", up.URL, createLegacy))
		cold, _, coldWall := bt.tryAll(typ, 10, unique("cold"))
		warm, warmLat, warmWall := bt.tryAll(typ, 10, unique("warm"))
		b.ReportMetric(ms(coldWall), "cold-wall-ms")
		b.ReportMetric(ms(warmWall), "warm-wall-ms")
		b.ReportMetric(ms(percentile(warmLat, 0.5)), "warm-p50-ms")
		b.ReportMetric(float64(count(cold, 200)+count(warm, 200)), "ok-of-20")
	}
}

// BenchmarkExchangeAfterHung: an exchange sent 200 ms after one whose
// action never ends, same profile; then the hung one's answer, after its
// time limit (20 s).
func BenchmarkExchangeAfterHung(b *testing.B) {
	requireNode(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
	typ := bt.deployed(`if (event.transaction.subject_token.startsWith("hang")) { await new Promise(() => setInterval(() => {}, 1000)); }
` + createLegacy)
	bt.try(typ, "warm-up")
	for b.Loop() {
		subject := unique("after")
		hung := make(chan [2]float64, 1)
		go func() {
			status, d := bt.try(typ, "hang-"+subject(0))
			hung <- [2]float64{float64(status), ms(d)}
		}()
		time.Sleep(200 * time.Millisecond)
		status, d := bt.try(typ, subject(1))
		h := <-hung
		b.ReportMetric(ms(d), "next-ms")
		b.ReportMetric(float64(status), "next-status")
		b.ReportMetric(h[1], "hung-ms")
		b.ReportMetric(h[0], "hung-status")
	}
}

// BenchmarkExchangeConcurrent100: 100 exchanges at once of a trivial
// action, warm.
func BenchmarkExchangeConcurrent100(b *testing.B) {
	requireNode(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
	typ := bt.deployed(createLegacy)
	bt.tryAll(typ, 10, unique("warm-up"))
	for b.Loop() {
		statuses, lat, wall := bt.tryAll(typ, 100, unique("hundred"))
		b.ReportMetric(ms(percentile(lat, 0.50)), "p50-ms")
		b.ReportMetric(ms(percentile(lat, 0.95)), "p95-ms")
		b.ReportMetric(ms(wall), "wall-ms")
		b.ReportMetric(float64(count(statuses, 200)), "ok-of-100")
	}
}

// BenchmarkExchange: 1,000 exchanges in a row, each a new user created by
// setUserByConnection, through a warm worker.
func BenchmarkExchange(b *testing.B) {
	requireNode(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
	typ := bt.deployed(createLegacy)
	bt.exchange(typ, "warm-up")
	for b.Loop() {
		subject := unique("user")
		lat := make([]time.Duration, 0, 1000)
		for i := range 1000 {
			lat = append(lat, bt.exchange(typ, subject(i)))
		}
		b.ReportMetric(ms(percentile(lat, 0.50)), "p50-ms")
		b.ReportMetric(ms(percentile(lat, 0.95)), "p95-ms")
		b.ReportMetric(ms(percentile(lat, 1)), "max-ms")
	}
}

// processes are this process's worker and npm processes, and the resident
// memory of this process and of them, in MB.
func processes(s *Server) (workers, npm int, rssMB float64) {
	rss := func(pid int) float64 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return 0
		}
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
		return 0
	}
	rssMB = rss(os.Getpid())
	for _, p := range s.runtime.Processes() {
		workers++
		rssMB += rss(p.PID)
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: the command may hold spaces.
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		if f := strings.Fields(s[end+1:]); len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) && strings.Contains(s[open:end], "npm") {
			npm++
		}
	}
	return workers, npm, rssMB
}

// BenchmarkExchangeSoak: 10,000 exchanges from 16 clients, 1 in 100 on an
// action that hangs or throws (in turn), with a time limit of 5 s: how many
// healthy ones answered 200, and the processes and memory before and
// after.
func BenchmarkExchangeSoak(b *testing.B) {
	requireNode(b)
	bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond, ActionTimeout: 5 * time.Second})
	healthy := bt.deployed(createLegacy)
	bad := bt.deployed(`if (event.transaction.subject_token.startsWith("hang")) { await new Promise(() => setInterval(() => {}, 1000)); }
throw new Error("the legacy IdP is down");`)
	bt.try(healthy, "warm-up")
	for b.Loop() {
		w0, n0, rss0 := processes(bt.s)
		subject := unique("soak")
		const total, clients = 10000, 16
		var mu sync.Mutex
		var healthyOK, healthyAll, badAll int
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; i < total; i += clients {
					if i%100 == 99 {
						kind := map[bool]string{true: "hang", false: "throw"}[(i/100)%2 == 0]
						bt.try(bad, kind+"-"+subject(i))
						mu.Lock()
						badAll++
						mu.Unlock()
						continue
					}
					status, _ := bt.try(healthy, subject(i))
					mu.Lock()
					healthyAll++
					if status == 200 {
						healthyOK++
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		w1, n1, rss1 := processes(bt.s)
		b.ReportMetric(float64(healthyOK), "healthy-200")
		b.ReportMetric(float64(healthyAll-healthyOK), "healthy-not-200")
		b.ReportMetric(float64(badAll), "bad")
		b.ReportMetric(float64(w0), "workers-before")
		b.ReportMetric(float64(w1), "workers-after")
		b.ReportMetric(float64(n0+n1), "npm-processes")
		b.ReportMetric(rss0, "rss-before-MB")
		b.ReportMetric(rss1, "rss-after-MB")
	}
}

// BenchmarkExchangeDeployAmidInFlight: 50 exchanges in flight (their
// action waits on an upstream call the benchmark holds; the version's
// workers run 10 of them, the others wait for one), a new version
// deployed meanwhile, then the calls released: how many answered from the
// version they started on (version 1 denies, version 2 issues tokens).
func BenchmarkExchangeDeployAmidInFlight(b *testing.B) {
	requireNode(b)
	for b.Loop() {
		up := emutest.NewUpstream(b)
		bt := newBenchTenant(b, Options{BuildDelay: 20 * time.Millisecond})
		id, _, _ := bt.action(up.Fetch("/hold/v1")+`api.access.deny("v1", "version one");`, "[]", true)
		typ := fmt.Sprintf("urn:acme:bench-%d", time.Now().UnixNano())
		bt.profile(typ, id)
		done := make(chan []int, 1)
		go func() {
			statuses, _, _ := bt.tryAll(typ, 50, unique("inflight"))
			done <- statuses
		}()
		// A version runs at most DefaultPerVersion executions at once: the
		// others of the 50 wait for a worker, on the version they started on.
		up.Arrived(b, "v1", actionruntime.DefaultPerVersion)
		code := fmt.Sprintf("%q", actionCode(createLegacy))
		bt.call("PATCH", actionsPath+"/"+id, `{"code":`+code+`}`)
		for a := bt.call("GET", actionsPath+"/"+id, ""); a["status"] != "built"; a = bt.call("GET", actionsPath+"/"+id, "") {
			time.Sleep(5 * time.Millisecond)
		}
		bt.call("POST", actionsPath+"/"+id+"/deploy", "")
		up.Release("v1")
		statuses := <-done
		// Version 1 denies (400), version 2 issues tokens (200).
		b.ReportMetric(float64(count(statuses, 400)), "from-v1-of-50")
		b.ReportMetric(float64(count(statuses, 200)), "from-v2")
		b.ReportMetric(float64(50-count(statuses, 400)-count(statuses, 200)), "failed")
	}
}
