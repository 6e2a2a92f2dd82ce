// Package actionruntime runs the code of tenant actions for the emulator,
// for real, in Node.js, and installs their npm dependencies.
//
// Each execution is independent, as on the tenant (token-exchange-flow.md
// §5: "each execution is independent" and ends within 20 s): it runs in a
// worker process of its own while it lasts, so that a hang, a crash or an
// out-of-memory touches no other execution. A worker loads one deployed
// version's code once and, between executions, waits warm for the next
// execution of that version. The bounds (Options) say how many workers a
// version and the runtime may have; an execution that finds none free
// waits for one within its own time limit.
//
// A worker holds nothing of the emulator's: it gets an empty environment,
// a folder of its own, and, through Node.js's permission model, reads no
// file but its code, the runner and the version's packages, and starts no
// process.
package actionruntime

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed runner.js
var runnerJS []byte

// minNodeMajor is the oldest Node.js whose permission model the workers
// need (--experimental-permission came in Node.js 20).
const minNodeMajor = 20

// The defaults of Options.
const (
	// DefaultTimeout is how long an execution may take: the platform's
	// limit for every execution (token-exchange-flow.md §5).
	DefaultTimeout = 20 * time.Second
	// DefaultPerVersion bounds the workers of one deployed version: so many
	// of its executions run at once, the others wait for one to end.
	DefaultPerVersion = 10
	// DefaultTotal bounds the workers of one runtime (about 40 MB each).
	DefaultTotal = 20
	// DefaultIdleExtra is how long an idle worker is kept beyond the first
	// of its version, which stays until its version is retired or evicted.
	DefaultIdleExtra = 30 * time.Second
)

// The handlers a worker calls: the one its trigger names.
const (
	CustomTokenExchangeHandler = "onExecuteCustomTokenExchange"
	PostLoginHandler           = "onExecutePostLogin"
)

// Options configure a Runtime; zero values take the defaults.
type Options struct {
	// Node is the Node.js program ("node" on PATH when empty).
	Node string
	// Timeout bounds one execution, counted from the call of Run; a
	// caller's context may end it sooner.
	Timeout time.Duration
	// PerVersion and Total bound the worker processes of one version (and
	// handler) and of the runtime.
	PerVersion int
	Total      int
	// IdleExtra is how long an idle worker beyond the first of its version
	// is kept.
	IdleExtra time.Duration
	// Log receives what the actions' code prints, one line each (nil: no log).
	Log func(format string, args ...any)
}

// Version is what a worker runs: a deployed version's code, the handler it
// exports, and the folder of its installed packages.
type Version struct {
	ActionID   string
	ActionName string
	VersionID  string
	Number     int
	Code       string
	// Handler is the exported function to call (CustomTokenExchangeHandler
	// when empty).
	Handler string
	// Packages is the folder whose node_modules the code requires from (""
	// without dependencies).
	Packages string
}

func (v Version) handler() string {
	if v.Handler == "" {
		return CustomTokenExchangeHandler
	}
	return v.Handler
}

// key names a version's workers: one set per version and handler.
func (v Version) key() string { return v.VersionID + " " + v.handler() }

// Result is what an execution that returned did: the api calls it made
// and its cache writes, in order, and the error it threw or rejected with,
// if any (the calls and writes made before it stand).
type Result struct {
	Calls  []Call       `json:"calls"`
	Cache  []CacheWrite `json:"cache"`
	Thrown *Thrown      `json:"error"`
}

// Call is one call of the api object.
type Call struct {
	Call string            `json:"call"`
	Args []json.RawMessage `json:"args"`
}

// CacheWrite is one write of api.cache: a set or a delete.
type CacheWrite struct {
	Op        string `json:"op"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	ExpiresAt int64  `json:"expires_at"`
}

// CacheRecord is one record of an actions cache (api.cache), as an
// execution is given it.
type CacheRecord struct {
	Value     string `json:"value"`
	ExpiresAt int64  `json:"expires_at"` // milliseconds since the epoch
}

// Thrown is the error the handler threw or rejected with.
type Thrown struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

// Kind is how an execution failed to return.
type Kind string

const (
	// Unavailable: Node.js cannot run actions here, or the runtime is closed.
	Unavailable Kind = "unavailable"
	// Load: the code does not load, or does not export the handler.
	Load Kind = "load"
	// Crash: the execution's process ended (an uncaught error of the
	// execution, process.exit, out of memory).
	Crash Kind = "crash"
	// Timeout: the execution did not end within its time limit.
	Timeout Kind = "timeout"
	// Cancelled: the caller has gone; the execution was stopped.
	Cancelled Kind = "cancelled"
)

// Error is an execution that did not return.
type Error struct {
	Kind    Kind
	Name    string
	Message string
}

func (e *Error) Error() string {
	if e.Name != "" {
		return string(e.Kind) + ": " + e.Name + ": " + e.Message
	}
	return string(e.Kind) + ": " + e.Message
}

// Runtime runs actions' code for one emulator.
type Runtime struct {
	opts Options

	once     sync.Once
	node     string // the resolved path; "" when actions cannot run
	missing  string // why, when node is ""
	permFlag string
	dir      string // this runtime's folder of runner and versions

	mu      sync.Mutex
	pools   map[string]*pool // by Version.key
	workers map[*worker]bool // every worker whose process has not been reaped
	total   int              // workers counted against Options.Total
	closed  bool
	// changed is closed, and replaced, whenever a worker may have become
	// free or a slot opened: what a waiting execution waits for.
	changed chan struct{}
	reaped  sync.WaitGroup // one per started process, done once reaped
}

// New returns a runtime; Node.js is looked for at the first execution.
func New(o Options) *Runtime {
	if o.Node == "" {
		o.Node = "node"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.PerVersion <= 0 {
		o.PerVersion = DefaultPerVersion
	}
	if o.Total <= 0 {
		o.Total = DefaultTotal
	}
	if o.IdleExtra <= 0 {
		o.IdleExtra = DefaultIdleExtra
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	return &Runtime{opts: o, pools: map[string]*pool{}, workers: map[*worker]bool{}, changed: make(chan struct{})}
}

// Timeout is how long an execution may take.
func (rt *Runtime) Timeout() time.Duration { return rt.opts.Timeout }

var nodeVersion = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)`)

// prepare finds Node.js and makes the runtime's folder, on first use.
func (rt *Runtime) prepare() {
	rt.once.Do(func() {
		path, err := exec.LookPath(rt.opts.Node)
		if err != nil {
			rt.missing = fmt.Sprintf("Node.js was not found (%q: %v); install Node.js %d or newer, or name it with --node", rt.opts.Node, err, minNodeMajor)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, "--version")
		cmd.Env = []string{}
		out, err := cmd.Output()
		m := nodeVersion.FindStringSubmatch(strings.TrimSpace(string(out)))
		if err != nil || m == nil {
			rt.missing = fmt.Sprintf("%s --version did not answer a Node.js version (%v %q)", path, err, strings.TrimSpace(string(out)))
			return
		}
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		switch {
		case major < minNodeMajor:
			rt.missing = fmt.Sprintf("Node.js %s is too old: the emulator runs actions with Node.js %d or newer", m[0], minNodeMajor)
			return
		case major > 23 || (major == 23 && minor >= 5):
			rt.permFlag = "--permission"
		default:
			rt.permFlag = "--experimental-permission"
		}
		dir, err := os.MkdirTemp("", "tenant-emulator-actions-")
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "runner.js"), runnerJS, 0o444)
		}
		if err != nil {
			rt.missing = "the emulator cannot make a folder for the actions' code: " + err.Error()
			return
		}
		rt.node, rt.dir = path, dir
	})
}

// Run executes a version's code with the event and the cache records, in
// a worker of its own while it runs: an idle worker of the version, or a
// new one. Its time limit counts from this call, waiting for a worker
// included; ctx may end it sooner. An execution whose ctx ends is stopped
// (its process ends), and answers Timeout or Cancelled with no Result.
func (rt *Runtime) Run(ctx context.Context, v Version, event any, cache map[string]CacheRecord) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, rt.opts.Timeout)
	defer cancel()
	rt.prepare()
	if rt.node == "" {
		return nil, &Error{Kind: Unavailable, Message: rt.missing}
	}
	for {
		w, err := rt.acquire(ctx, v)
		if err != nil {
			return nil, err
		}
		res, err := rt.execute(ctx, w, event, cache)
		rt.release(w, err == nil)
		if errors.Is(err, errNotTaken) {
			// The worker ended while it was idle, or by the doing of an
			// execution it ran before: not this execution's doing, so it
			// runs in another.
			continue
		}
		return res, err
	}
}

// Retire stops the workers of the versions stale names: idle ones at once,
// busy ones when their execution has ended, on their version, and after
// the executions of the version that wait for a worker have had theirs.
func (rt *Runtime) Retire(stale func(Version) bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, p := range rt.pools {
		if stale(p.v) {
			p.retired = true
			rt.settleRetired(p)
		}
	}
	rt.notify()
}

// Close stops every worker, busy ones too (their executions answer
// Unavailable), waits until their processes have ended, and removes the
// runtime's folder.
func (rt *Runtime) Close() error {
	rt.mu.Lock()
	rt.closed = true
	for w := range rt.workers {
		w.stop()
	}
	rt.pools = map[string]*pool{}
	rt.notify()
	rt.mu.Unlock()
	rt.reaped.Wait()
	if rt.dir != "" {
		return os.RemoveAll(rt.dir)
	}
	return nil
}

// Process is a worker process, as Processes lists it.
type Process struct {
	Version Version
	PID     int
	Busy    bool
}

// Processes lists the worker processes that have not ended.
func (rt *Runtime) Processes() []Process {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out []Process
	for w := range rt.workers {
		out = append(out, Process{Version: w.v, PID: w.cmd.Process.Pid, Busy: w.busy})
	}
	return out
}

// Folder is where the runtime keeps the runner and the versions' code (""
// before the first execution).
func (rt *Runtime) Folder() string { return rt.dir }

// notify wakes the executions waiting for a worker. Under rt.mu.
func (rt *Runtime) notify() {
	close(rt.changed)
	rt.changed = make(chan struct{})
}

// ctxError is the error of an execution whose context ended.
func (rt *Runtime) ctxError(ctx context.Context, what string) *Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Kind: Timeout, Message: fmt.Sprintf("the execution did not end within %v%s", rt.opts.Timeout, what)}
	}
	return &Error{Kind: Cancelled, Message: "the caller has gone" + what}
}
