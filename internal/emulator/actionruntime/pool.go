package actionruntime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// pool is the workers of one version and handler. Under the runtime's lock.
type pool struct {
	v        Version
	idle     []*worker // the most recently used last
	busy     int       // workers running an execution
	starting int       // workers whose process is starting
	waiting  int       // executions waiting for a worker
	// retired: the version does not run any more; its workers serve the
	// executions that wait for one, and stop when none waits.
	retired bool

	prepared sync.Once // the version's folder, written once
	dir      string
	code     string
	prepErr  error
}

func (p *pool) size() int { return len(p.idle) + p.busy + p.starting }

// acquire takes a worker for one execution of v: an idle one of the
// version, or a new one when the version and the runtime have room (an
// idle worker of another version may be stopped to make it), or else the
// first that becomes free. The worker is marked busy under the lock that
// chose it; the wait ends with ctx.
func (rt *Runtime) acquire(ctx context.Context, v Version) (*worker, error) {
	key := v.key()
	rt.mu.Lock()
	for {
		if rt.closed {
			rt.mu.Unlock()
			return nil, &Error{Kind: Unavailable, Message: "the emulator is stopping"}
		}
		p := rt.pools[key]
		if p == nil {
			p = &pool{v: v}
			rt.pools[key] = p
		}
		if w := rt.takeIdle(p); w != nil {
			rt.mu.Unlock()
			return w, nil
		}
		if p.size() < rt.opts.PerVersion && (rt.total < rt.opts.Total || rt.evictIdle()) {
			p.starting++
			rt.total++
			rt.mu.Unlock()
			return rt.startFor(ctx, p)
		}
		// Counted as waiting until it looks again under the lock, so that
		// a retired version's worker freed meanwhile is kept for it.
		wait := rt.changed
		full := fmt.Sprintf(" (waiting for a worker: the version's %d or the emulator's %d were busy)", rt.opts.PerVersion, rt.opts.Total)
		p.waiting++
		rt.mu.Unlock()
		var err error
		select {
		case <-wait:
		case <-ctx.Done():
			err = rt.ctxError(ctx, full)
		}
		rt.mu.Lock()
		p.waiting--
		if err != nil {
			rt.settleRetired(p)
			rt.mu.Unlock()
			return nil, err
		}
	}
}

// settleRetired stops a retired pool's idle workers once no execution
// waits for one, and forgets the pool once it has no worker. Under the
// lock.
func (rt *Runtime) settleRetired(p *pool) {
	if !p.retired || p.waiting > 0 {
		return
	}
	for _, w := range p.idle {
		rt.total--
		w.stop()
	}
	p.idle = nil
	if p.size() == 0 && rt.pools[p.v.key()] == p {
		delete(rt.pools, p.v.key())
	}
}

// takeIdle marks the version's most recently used live idle worker busy
// and returns it; idle workers whose process has ended are dropped.
func (rt *Runtime) takeIdle(p *pool) *worker {
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if w.idleTimer != nil {
			w.idleTimer.Stop()
			w.idleTimer = nil
		}
		if !w.alive() {
			rt.total--
			w.stop()
			continue
		}
		w.busy = true
		p.busy++
		return w
	}
	return nil
}

// evictIdle stops the least recently used idle worker of any version to
// make room for another, and reports whether there was one. A busy worker
// is never evicted.
func (rt *Runtime) evictIdle() bool {
	var victim *worker
	var from *pool
	for _, p := range rt.pools {
		for _, w := range p.idle {
			if victim == nil || w.lastUsed.Before(victim.lastUsed) {
				victim, from = w, p
			}
		}
	}
	if victim == nil {
		return false
	}
	rt.dropIdle(from, victim)
	return true
}

// dropIdle stops an idle worker of p. Under the lock.
func (rt *Runtime) dropIdle(p *pool, w *worker) {
	for i, x := range p.idle {
		if x == w {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			if w.idleTimer != nil {
				w.idleTimer.Stop()
				w.idleTimer = nil
			}
			rt.total--
			w.stop()
			return
		}
	}
}

// startFor starts a worker for p, whose slot acquire reserved, and marks it
// busy; the slot is given back when the worker does not start.
func (rt *Runtime) startFor(ctx context.Context, p *pool) (*worker, error) {
	w, err := rt.start(ctx, p)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	p.starting--
	if err == nil && rt.closed {
		w.stop()
		err = &Error{Kind: Unavailable, Message: "the emulator is stopping"}
	}
	if err != nil {
		rt.total--
		rt.notify()
		return nil, err
	}
	w.busy = true
	p.busy++
	return w, nil
}

// release ends an execution's hold on its worker: with reuse, and while
// its process is healthy, it waits idle for the next execution (of a
// retired version, only while one waits); otherwise it stops.
func (rt *Runtime) release(w *worker, reuse bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	p := w.pool
	w.busy = false
	p.busy--
	if reuse && !rt.closed && !w.tainted.Load() && w.alive() {
		w.lastUsed = time.Now()
		p.idle = append(p.idle, w)
		if len(p.idle) > 1 && !p.retired {
			w.idleTimer = time.AfterFunc(rt.opts.IdleExtra, func() { rt.reapIdle(p, w) })
		}
	} else {
		rt.total--
		w.stop()
	}
	rt.settleRetired(p)
	rt.notify()
}

// reapIdle stops an idle worker that has waited IdleExtra, unless it is
// the last idle one of its version.
func (rt *Runtime) reapIdle(p *pool, w *worker) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if len(p.idle) > 1 && !w.busy {
		rt.dropIdle(p, w)
		rt.notify()
	}
}

// retireWorker stops a worker that asked to take no more executions: at
// once when it is idle, after its execution otherwise (it is tainted).
func (rt *Runtime) retireWorker(w *worker) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if !w.busy && w.pool != nil {
		rt.dropIdle(w.pool, w)
		rt.notify()
	}
}
