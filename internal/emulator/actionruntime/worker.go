package actionruntime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// worker is one Node.js process running one version's code, one execution
// at a time.
type worker struct {
	v       Version
	pool    *pool
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan *workerLine // closed when the process's descriptor 3 closes
	exited  chan struct{}    // closed once the process is reaped
	nextID  int64            // used by the one execution that holds the worker

	// Under the runtime's lock.
	busy      bool
	lastUsed  time.Time
	idleTimer *time.Timer

	// tainted: the worker takes no more executions (its execution timed
	// out or crashed, or an error of a finished execution happened in it).
	tainted  atomic.Bool
	stopOnce sync.Once
}

// workerLine is one line a worker answers: ready (once), that an
// execution has started, an execution's answer, that the process ends by
// the doing of another execution than the running one, or a request to
// take no more executions.
type workerLine struct {
	Ready   bool  `json:"ready"`
	Retire  bool  `json:"retire"`
	ID      int64 `json:"id"`
	Started bool  `json:"started"`
	Foreign bool  `json:"foreign"`
	// Leftover: the execution left timers behind, work that would run
	// during the next one.
	Leftover bool `json:"leftover"`
	Result
}

// errNotTaken: the worker ended before it took the execution, or by the
// doing of an execution it ran before.
var errNotTaken = errors.New("the worker ended before it took the execution")

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// stop ends the worker's process group at once, without waiting: only
// idle workers, and busy ones whose execution is over or being abandoned,
// are stopped.
func (w *worker) stop() {
	w.tainted.Store(true)
	w.stopOnce.Do(func() {
		_ = w.stdin.Close()
		killGroup(w.cmd)
	})
}

// prepare writes the version's folder once per pool: its code, and its
// packages linked in. Each file is written under a temporary name and
// renamed, so that a worker never loads half a file.
func (rt *Runtime) prepareVersion(p *pool) (dir, code string, err error) {
	p.prepared.Do(func() {
		p.dir = filepath.Join(rt.dir, "versions", p.v.VersionID)
		p.code = filepath.Join(p.dir, "action.js")
		if p.prepErr = os.MkdirAll(p.dir, 0o755); p.prepErr != nil {
			return
		}
		tmp, err := os.CreateTemp(p.dir, ".action-*.js")
		if err != nil {
			p.prepErr = err
			return
		}
		_, err = tmp.WriteString(p.v.Code)
		if err = errors.Join(err, tmp.Close(), os.Chmod(tmp.Name(), 0o444)); err == nil {
			err = os.Rename(tmp.Name(), p.code)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
			p.prepErr = err
			return
		}
		if p.v.Packages != "" {
			link := filepath.Join(p.dir, "node_modules")
			tmpLink := fmt.Sprintf("%s.%d", link, time.Now().UnixNano())
			if err := os.Symlink(filepath.Join(p.v.Packages, "node_modules"), tmpLink); err != nil {
				p.prepErr = err
				return
			}
			if err := os.Rename(tmpLink, link); err != nil {
				_ = os.Remove(tmpLink)
				p.prepErr = err
			}
		}
	})
	return p.dir, p.code, p.prepErr
}

// start starts a worker on p's version, which loads the code before it
// answers; the wait ends with ctx.
func (rt *Runtime) start(ctx context.Context, p *pool) (*worker, error) {
	v := p.v
	dir, code, err := rt.prepareVersion(p)
	if err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	args := []string{rt.permFlag,
		"--allow-fs-read=" + filepath.Join(rt.dir, "runner.js"),
		"--allow-fs-read=" + dir,
		"--no-warnings=ExperimentalWarning",
		"--max-old-space-size=256",
	}
	if v.Packages != "" {
		args = append(args, "--allow-fs-read="+v.Packages)
	}
	args = append(args, filepath.Join(rt.dir, "runner.js"), code, v.handler())
	cmd := exec.Command(rt.node, args...)
	// Nothing of the emulator's environment: not its credentials, not a
	// CI job's.
	cmd.Env = []string{}
	cmd.Dir = dir
	newProcessGroup(cmd)
	w := &worker{v: v, pool: p, cmd: cmd, answers: make(chan *workerLine, 4), exited: make(chan struct{})}
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	answersR, answersW, err := os.Pipe()
	if err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	cmd.ExtraFiles = []*os.File{answersW} // the child's descriptor 3
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		answersR.Close()
		answersW.Close()
		return nil, &Error{Kind: Unavailable, Message: "the emulator is stopping"}
	}
	if err := cmd.Start(); err != nil {
		rt.mu.Unlock()
		answersR.Close()
		answersW.Close()
		return nil, &Error{Kind: Unavailable, Message: "Node.js did not start: " + err.Error()}
	}
	rt.workers[w] = true
	rt.reaped.Add(1)
	rt.mu.Unlock()
	answersW.Close()
	prefix := fmt.Sprintf("action %q (%s) version %d: ", v.ActionName, v.ActionID, v.Number)
	var output sync.WaitGroup
	output.Add(2)
	go func() { defer output.Done(); rt.copyLog(prefix, stdout) }()
	go func() { defer output.Done(); rt.copyLog(prefix, stderr) }()
	go rt.readAnswers(w, answersR)
	go func() {
		output.Wait()
		_ = cmd.Wait()
		close(w.exited)
		rt.mu.Lock()
		delete(rt.workers, w)
		rt.mu.Unlock()
		rt.reaped.Done()
	}()

	select {
	case l, ok := <-w.answers:
		switch {
		case !ok:
			w.stop()
			return nil, &Error{Kind: Crash, Message: "the worker ended while it loaded the code"}
		case l.Ready:
			return w, nil
		default:
			w.stop()
			e := &Error{Kind: Load, Message: "the code does not load"}
			if l.Thrown != nil {
				e.Name, e.Message = l.Thrown.Name, l.Thrown.Message
			}
			return nil, e
		}
	case <-ctx.Done():
		w.stop()
		return nil, rt.ctxError(ctx, " (while its worker loaded the code)")
	}
}

// copyLog writes each line a worker prints to the log.
func (rt *Runtime) copyLog(prefix string, r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		rt.opts.Log("%s%s", prefix, sc.Text())
	}
	_, _ = io.Copy(io.Discard, r)
}

// readAnswers hands the worker's answers to its execution; a request to
// take no more executions taints the worker, and stops it when idle.
func (rt *Runtime) readAnswers(w *worker, r *os.File) {
	defer close(w.answers)
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for sc.Scan() {
		var l workerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			continue
		}
		if l.Retire {
			w.tainted.Store(true)
			rt.retireWorker(w)
			continue
		}
		w.answers <- &l
	}
}

// execute sends one execution and waits for its answer, the end of the
// process, or the end of ctx, which stops the process.
func (rt *Runtime) execute(ctx context.Context, w *worker, event any, cache map[string]CacheRecord) (*Result, error) {
	w.nextID++
	id := w.nextID
	line, err := json.Marshal(map[string]any{"id": id, "event": event, "cache": cache})
	if err != nil {
		return nil, &Error{Kind: Unavailable, Message: err.Error()}
	}
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		w.tainted.Store(true)
		return nil, errNotTaken
	}
	started, foreign := false, false
	for {
		select {
		case l, ok := <-w.answers:
			if !ok {
				w.tainted.Store(true)
				if rt.isClosed() {
					return nil, &Error{Kind: Unavailable, Message: "the emulator is stopping"}
				}
				if !started || foreign {
					return nil, errNotTaken
				}
				return nil, &Error{Kind: Crash, Message: "the worker ended during the execution"}
			}
			if l.ID != id {
				continue
			}
			if l.Started || l.Foreign {
				started, foreign = started || l.Started, foreign || l.Foreign
				continue
			}
			if l.Leftover {
				w.tainted.Store(true)
			}
			if l.Thrown != nil && l.Thrown.Kind == "crash" {
				w.tainted.Store(true)
				return nil, &Error{Kind: Crash, Name: l.Thrown.Name, Message: l.Thrown.Message}
			}
			res := l.Result
			return &res, nil
		case <-ctx.Done():
			w.stop()
			return nil, rt.ctxError(ctx, "")
		}
	}
}

func (rt *Runtime) isClosed() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.closed
}
