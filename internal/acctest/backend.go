package acctest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// StateBackend is a Terraform state store for the "http" backend, with
// locking, for tests that run each CI job in a fresh working folder sharing
// only the backend. It serves one state on loopback. Two users sign in with
// basic auth: Reader may only read (GET), Writer may also store, lock and
// unlock; any other request is answered 401 or 403.
type StateBackend struct {
	URL string

	srv   *httptest.Server
	mu    sync.Mutex
	state []byte
	lock  []byte // the lock's info, nil when unlocked
	// Writes counts the stored states.
	Writes int
}

// The backend's users and passwords.
const (
	BackendReader   = "reader"
	BackendWriter   = "writer"
	backendPassword = "state-password"
)

// NewStateBackend starts a backend that stops with the test.
func NewStateBackend(t testing.TB) *StateBackend {
	b := &StateBackend{}
	b.srv = httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(b.srv.Close)
	b.URL = b.srv.URL + "/state"
	return b
}

// Env is the environment that configures an empty backend "http" {} block
// for user (BackendReader or BackendWriter).
func (b *StateBackend) Env(user string) []string {
	return []string{
		"TF_HTTP_ADDRESS=" + b.URL, "TF_HTTP_LOCK_ADDRESS=" + b.URL, "TF_HTTP_UNLOCK_ADDRESS=" + b.URL,
		"TF_HTTP_USERNAME=" + user, "TF_HTTP_PASSWORD=" + backendPassword,
	}
}

// State is the stored state ("" when none).
func (b *StateBackend) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.state)
}

func (b *StateBackend) serve(w http.ResponseWriter, r *http.Request) {
	user, password, ok := r.BasicAuth()
	if !ok || password != backendPassword || user != BackendReader && user != BackendWriter {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodGet && user != BackendWriter {
		http.Error(w, "this user may only read", http.StatusForbidden)
		return
	}
	body, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		if b.state == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_, _ = w.Write(b.state)
	case http.MethodPost:
		if b.lock != nil && r.URL.Query().Get("ID") != lockID(b.lock) {
			w.WriteHeader(http.StatusConflict)
			return
		}
		b.state = body
		b.Writes++
	case "LOCK":
		if b.lock != nil {
			w.WriteHeader(http.StatusLocked)
			_, _ = w.Write(b.lock)
			return
		}
		b.lock = body
	case "UNLOCK":
		b.lock = nil
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func lockID(info []byte) string {
	var l struct{ ID string }
	_ = json.Unmarshal(info, &l)
	return l.ID
}
