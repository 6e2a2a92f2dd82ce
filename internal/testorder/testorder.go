// Package testorder sets, in tests, the order of calls that run
// concurrently, without timers: a context that tells when a call waits on
// it, and a proxy that holds one answer until the test releases it.
package testorder

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// Context sends on Waiting each time a call takes its Done channel (up to
// 64 times unreceived). Requests and other waits take it too: a test uses
// it where the call under test takes it only to wait (it sends no request
// before), so that a token on Waiting says the call waits.
type Context struct {
	context.Context
	Waiting chan struct{}
}

// NewContext is a Context of ctx.
func NewContext(ctx context.Context) *Context {
	return &Context{Context: ctx, Waiting: make(chan struct{}, 64)}
}

// Done sends on Waiting, then returns ctx's Done channel.
func (c *Context) Done() <-chan struct{} {
	select {
	case c.Waiting <- struct{}{}:
	default:
	}
	return c.Context.Done()
}

// Hold is a proxy in front of a server that, once armed, holds the answer
// of the next request that match accepts (the server has handled it) until
// Release, or until the request's client gives up: Held is closed when it
// is held. A Hold holds one answer: it is armed once.
type Hold struct {
	URL     string
	Held    chan struct{}
	armed   atomic.Bool
	used    atomic.Bool
	release chan struct{}
	once    sync.Once
}

// NewHold starts a Hold in front of upstream, closed when the test ends
// (after Release, and before what the test registered earlier, such as
// upstream's own cleanup).
func NewHold(t testing.TB, upstream string, match func(*http.Request) bool) *Hold {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	h := &Hold{Held: make(chan struct{}), release: make(chan struct{})}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(r *http.Response) error {
		if match(r.Request) && h.armed.CompareAndSwap(true, false) {
			close(h.Held)
			select {
			case <-h.release:
			case <-r.Request.Context().Done():
			}
		}
		return nil
	}
	front := httptest.NewServer(proxy)
	h.URL = front.URL
	t.Cleanup(front.Close)
	t.Cleanup(h.Release) // before front.Close, which waits for the held answer
	return h
}

// Arm makes the next matching request's answer held; it panics when the
// Hold was armed before.
func (h *Hold) Arm() {
	if h.used.Swap(true) {
		panic("testorder: a Hold is armed once")
	}
	h.armed.Store(true)
}

// Release lets the held answer go (later answers pass through).
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }
