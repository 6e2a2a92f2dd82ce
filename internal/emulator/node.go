package emulator

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// An action's code runs for real, in Node.js: one warm worker process per
// deployed version (a new deploy gets a new worker), which loads the code
// once and then runs one execution after another, so that an exchange does
// not wait for Node.js to start. The worker holds nothing of the
// emulator's: it gets an empty environment, a folder of its own, and,
// through Node.js's permission model, reads no file but its code, the
// runner and the version's packages, and starts no process. An execution
// that outlives the time limit ends its worker; the next starts a new one.

//go:embed runner.js
var runnerJS []byte

// minNodeMajor is the oldest Node.js whose permission model the workers
// need (--experimental-permission came in Node.js 20).
const minNodeMajor = 20

// defaultActionTimeout is how long an execution may take.
//
// Assumption (token-exchange-flow.md, open questions: the platform's limit
// is not known here): 20 seconds, what the platform documents for every
// trigger's execution.
const defaultActionTimeout = 20 * time.Second

// maxWorkers bounds the warm workers of one emulator; the one used least
// recently stops first.
const maxWorkers = 8

// runError is an execution that did not return normally.
type runError struct {
	// kind: "unavailable" (Node.js cannot run actions here), "load" (the
	// code does not load), "thrown" (the handler threw or rejected),
	// "crash" (the worker died), "timeout".
	kind    string
	name    string
	message string
}

func (e *runError) Error() string {
	if e.name != "" {
		return e.kind + ": " + e.name + ": " + e.message
	}
	return e.kind + ": " + e.message
}

// execution is what the runner answers for one execution.
type execution struct {
	ID    int64         `json:"id"`
	Calls []apiCall     `json:"calls"`
	Cache []cacheWrite  `json:"cache"`
	Error *runnerFailed `json:"error"`
}

type apiCall struct {
	Call string            `json:"call"`
	Args []json.RawMessage `json:"args"`
}

type cacheWrite struct {
	Op        string `json:"op"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	ExpiresAt int64  `json:"expires_at"`
}

type runnerFailed struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

// cacheRecord is one record of an actions cache (api.cache): a trigger's
// actions share it (api object [R]: "scoped to the Trigger").
type cacheRecord struct {
	Value     string `json:"value"`
	ExpiresAt int64  `json:"expires_at"` // milliseconds since the epoch
}

// The handlers a worker calls: the one its trigger names.
const (
	customTokenExchangeHandler = "onExecuteCustomTokenExchange"
	postLoginHandler           = "onExecutePostLogin"
)

// versionCode is what a worker runs: a deployed version's code, the
// handler it exports (customTokenExchangeHandler when ""), and the folder
// of its installed packages ("" without dependencies).
type versionCode struct {
	ActionID   string
	ActionName string
	VersionID  string
	Number     int
	Code       string
	Handler    string
	Packages   string
}

func (v versionCode) handler() string {
	if v.Handler == "" {
		return customTokenExchangeHandler
	}
	return v.Handler
}

// key is the worker's key: one worker per action and handler.
func (v versionCode) key() string { return v.ActionID + " " + v.handler() }

// nodeRuntime runs actions' code for one emulator.
type nodeRuntime struct {
	nodeName string // Options.Node, or "node"
	timeout  time.Duration
	logf     func(format string, args ...any)

	once     sync.Once
	node     string // the resolved path; "" when actions cannot run
	missing  string // why, when node is ""
	permFlag string
	dir      string // this emulator's folder of runner and versions

	mu      sync.Mutex
	workers map[string]*worker // by versionCode.key
	closed  bool
	used    int64
}

func newNodeRuntime(node string, timeout time.Duration, logf func(string, ...any)) *nodeRuntime {
	if node == "" {
		node = "node"
	}
	return &nodeRuntime{nodeName: node, timeout: timeout, logf: logf, workers: map[string]*worker{}}
}

var nodeVersion = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)`)

// prepare finds Node.js and makes the runtime's folder, on first use.
func (rt *nodeRuntime) prepare() {
	rt.once.Do(func() {
		path, err := exec.LookPath(rt.nodeName)
		if err != nil {
			rt.missing = fmt.Sprintf("Node.js was not found (%q: %v); install Node.js %d or newer, or name it with --node", rt.nodeName, err, minNodeMajor)
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

// run executes a version's code with the event and the cache records; it
// starts the version's worker when none runs.
func (rt *nodeRuntime) run(v versionCode, event any, cache map[string]cacheRecord) (*execution, error) {
	rt.prepare()
	if rt.node == "" {
		return nil, &runError{kind: "unavailable", message: rt.missing}
	}
	w, err := rt.worker(v)
	if err != nil {
		return nil, err
	}
	return w.execute(event, cache, rt.timeout)
}

// worker returns the warm worker of v, starting it (and stopping the
// action's worker of another version) when needed.
func (rt *nodeRuntime) worker(v versionCode) (*worker, error) {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return nil, &runError{kind: "unavailable", message: "the emulator is stopping"}
	}
	rt.used++
	key := v.key()
	w := rt.workers[key]
	if w != nil && w.code.VersionID == v.VersionID && w.alive() {
		w.lastUsed = rt.used
		rt.mu.Unlock()
		return w, nil
	}
	var stop []*worker
	if w != nil {
		stop = append(stop, w)
		delete(rt.workers, key)
	}
	for len(rt.workers) >= maxWorkers {
		var oldest string
		for id, x := range rt.workers {
			if oldest == "" || x.lastUsed < rt.workers[oldest].lastUsed {
				oldest = id
			}
		}
		stop = append(stop, rt.workers[oldest])
		delete(rt.workers, oldest)
	}
	rt.mu.Unlock()
	for _, x := range stop {
		x.stop()
	}

	w, err := rt.start(v)
	if err != nil {
		return nil, err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		w.stop()
		return nil, &runError{kind: "unavailable", message: "the emulator is stopping"}
	}
	if other := rt.workers[key]; other != nil {
		// Another exchange started the same worker meanwhile: keep one.
		if other.code.VersionID == v.VersionID && other.alive() {
			w.stop()
			return other, nil
		}
		other.stop()
	}
	w.lastUsed = rt.used
	rt.workers[key] = w
	return w, nil
}

// start writes the version's folder (its code, and its packages linked in)
// and starts a worker on it, which loads the code before it answers.
func (rt *nodeRuntime) start(v versionCode) (*worker, error) {
	dir := filepath.Join(rt.dir, "versions", v.VersionID)
	code := filepath.Join(dir, "action.js")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	if err := os.WriteFile(code, []byte(v.Code), 0o444); err != nil && !errors.Is(err, os.ErrPermission) {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	args := []string{rt.permFlag,
		"--allow-fs-read=" + filepath.Join(rt.dir, "runner.js"),
		"--allow-fs-read=" + dir,
		"--no-warnings=ExperimentalWarning",
		"--max-old-space-size=256",
	}
	if v.Packages != "" {
		link := filepath.Join(dir, "node_modules")
		if _, err := os.Lstat(link); err != nil {
			if err := os.Symlink(filepath.Join(v.Packages, "node_modules"), link); err != nil {
				return nil, &runError{kind: "unavailable", message: err.Error()}
			}
		}
		args = append(args, "--allow-fs-read="+v.Packages)
	}
	args = append(args, filepath.Join(rt.dir, "runner.js"), code, v.handler())
	cmd := exec.Command(rt.node, args...)
	// Nothing of the emulator's environment: not its credentials, not a
	// CI job's.
	cmd.Env = []string{}
	cmd.Dir = dir
	w := &worker{code: v, cmd: cmd, answers: make(chan *workerLine, 1), exited: make(chan struct{})}
	var err error
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	answersR, answersW, err := os.Pipe()
	if err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	cmd.ExtraFiles = []*os.File{answersW} // the child's descriptor 3
	if err := cmd.Start(); err != nil {
		answersR.Close()
		answersW.Close()
		return nil, &runError{kind: "unavailable", message: "Node.js did not start: " + err.Error()}
	}
	answersW.Close()
	prefix := fmt.Sprintf("action %q (%s) version %d: ", v.ActionName, v.ActionID, v.Number)
	var output sync.WaitGroup
	output.Add(2)
	go func() { defer output.Done(); rt.copyLog(prefix, stdout) }()
	go func() { defer output.Done(); rt.copyLog(prefix, stderr) }()
	go w.readAnswers(answersR)
	go func() {
		output.Wait()
		_ = cmd.Wait()
		close(w.exited)
	}()

	timer := time.NewTimer(max(rt.timeout, 10*time.Second))
	defer timer.Stop()
	select {
	case l, ok := <-w.answers:
		switch {
		case !ok:
			w.stop()
			return nil, &runError{kind: "crash", message: "the worker ended while it loaded the code"}
		case l.Ready:
			return w, nil
		default:
			w.stop()
			e := &runError{kind: "load", message: "the code does not load"}
			if l.Error != nil {
				e.name, e.message = l.Error.Name, l.Error.Message
			}
			return nil, e
		}
	case <-timer.C:
		w.stop()
		return nil, &runError{kind: "timeout", message: "the code did not load in time"}
	}
}

// copyLog writes each line a worker prints to the emulator's log.
func (rt *nodeRuntime) copyLog(prefix string, r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		rt.logf("%s%s", prefix, sc.Text())
	}
	_, _ = io.Copy(io.Discard, r)
}

// retire stops the workers whose version stale says must not run any more,
// without waiting for them to end: an execution under way finishes first.
func (rt *nodeRuntime) retire(stale func(v versionCode) bool) {
	rt.mu.Lock()
	var stop []*worker
	for k, w := range rt.workers {
		if stale(w.code) {
			stop = append(stop, w)
			delete(rt.workers, k)
		}
	}
	rt.mu.Unlock()
	for _, w := range stop {
		go w.stop()
	}
}

// retireWorkers stops the workers of actions that are gone and of versions
// no longer deployed (a deploy or a rollback made another the deployed
// one), so that no worker outlives what it runs. Under the lock; called
// after every API request and reset.
func (s *Server) retireWorkers() {
	now := time.Now()
	s.runtime.retire(func(v versionCode) bool {
		a, ok := s.st.Actions[v.ActionID]
		if !ok {
			return true
		}
		a.settle(now)
		d := a.deployed()
		return d == nil || d.ID != v.VersionID
	})
}

// close stops every worker and removes the runtime's folder.
func (rt *nodeRuntime) close() error {
	rt.mu.Lock()
	rt.closed = true
	workers := rt.workers
	rt.workers = map[string]*worker{}
	rt.mu.Unlock()
	for _, w := range workers {
		w.stop()
	}
	if rt.dir != "" {
		return os.RemoveAll(rt.dir)
	}
	return nil
}

// workerLine is one line a worker answers: ready (once), or an execution.
type workerLine struct {
	Ready bool `json:"ready"`
	execution
}

type worker struct {
	code     versionCode
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	answers  chan *workerLine // closed when the worker's descriptor 3 closes
	exited   chan struct{}
	lastUsed int64 // under the runtime's lock

	mu     sync.Mutex // one execution at a time
	nextID int64
	dead   atomic.Bool // no execution may be sent to it any more
}

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return !w.dead.Load()
	}
}

func (w *worker) readAnswers(r *os.File) {
	defer close(w.answers)
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for sc.Scan() {
		var l workerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			continue
		}
		w.answers <- &l
	}
}

// execute sends one execution and waits for its answer, the worker's end,
// or the time limit, after which the worker is stopped.
func (w *worker) execute(event any, cache map[string]cacheRecord, limit time.Duration) (*execution, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dead.Load() {
		return nil, &runError{kind: "crash", message: "the worker has ended"}
	}
	w.nextID++
	id := w.nextID
	line, err := json.Marshal(map[string]any{"id": id, "event": event, "cache": cache})
	if err != nil {
		return nil, &runError{kind: "unavailable", message: err.Error()}
	}
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		w.dead.Store(true)
		return nil, &runError{kind: "crash", message: "the worker does not take requests: " + err.Error()}
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-w.answers:
			if !ok {
				w.dead.Store(true)
				return nil, &runError{kind: "crash", message: "the worker ended during the execution"}
			}
			if l.ID != id {
				continue
			}
			if l.Error != nil && l.Error.Kind == "crash" {
				w.dead.Store(true)
				return nil, &runError{kind: "crash", name: l.Error.Name, message: l.Error.Message}
			}
			x := l.execution
			return &x, nil
		case <-timer.C:
			w.dead.Store(true)
			w.kill()
			return nil, &runError{kind: "timeout", message: fmt.Sprintf("the execution did not end within %v", limit)}
		}
	}
}

func (w *worker) kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
}

// stop ends the worker: its input closes, and it is killed if it has not
// ended a second later.
func (w *worker) stop() {
	_ = w.stdin.Close()
	select {
	case <-w.exited:
	case <-time.After(time.Second):
		w.kill()
		<-w.exited
	}
}

// logLine writes a line to the emulator's log.
func (s *Server) logLine(format string, args ...any) {
	if s.log != nil {
		s.log.Printf(format, args...)
	}
}
