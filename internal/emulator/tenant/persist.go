package tenant

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SavedState is what Options.StateFile holds: the tenant's objects and the
// default client's credentials, so that an emulator started again with the
// same file serves the same tenant to the same credentials. The Management
// API is not kept: it is the new address's (see keepSystemAPIs).
type SavedState struct {
	Version      int    `json:"version"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Store        *Store `json:"store"`
	// Seqs keeps the creation order of the objects whose wire form has
	// none (profiles, roles, resource servers), by "kind/id".
	Seqs map[string]int64 `json:"seqs"`
	// Demo holds the ids of the objects --demo seeded, if any.
	Demo DemoIDs `json:"demo"`
	// oldAudience is the saved tenant's Management API identifier (its
	// old address), whose grants move to the new one.
	OldAudience string
}

const stateVersion = 1

// LoadState reads path; a missing file is no state (nil, nil).
func LoadState(path string) (*SavedState, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st SavedState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("state file %s: %v", path, err)
	}
	if st.Version != stateVersion || st.Store == nil {
		return nil, fmt.Errorf("state file %s: not a state of this emulator (version %d)", path, st.Version)
	}
	// A state written before users existed has none.
	if st.Store.Users == nil {
		st.Store.Users = map[string]*User{}
	}
	if st.Store.RoleUsers == nil {
		st.Store.RoleUsers = map[string]map[string]int64{}
	}
	// A state written before bindings and phone credentials were kept.
	if st.Store.Bindings == nil {
		st.Store.Bindings = map[string][]*Binding{}
	}
	if st.Store.PhoneCredentials == nil {
		st.Store.PhoneCredentials = map[string]map[string]string{}
	}
	for id, p := range st.Store.Profiles {
		p.Seq = st.Seqs["profile/"+id]
	}
	for id, r := range st.Store.Roles {
		r.Seq = st.Seqs["role/"+id]
	}
	for id, rs := range st.Store.ResourceServers {
		if rs.IsSystem && strings.HasSuffix(rs.Identifier, "/api/v2/") {
			st.OldAudience = rs.Identifier
		}
		rs.Seq = st.Seqs["resource_server/"+id]
	}
	// A state saved before clients were kept has none.
	if st.Store.Clients == nil {
		st.Store.Clients = map[string]*ClientRecord{}
	}
	if st.Store.Grants == nil {
		st.Store.Grants = map[string]*Grant{}
	}
	for id, g := range st.Store.Grants {
		g.Seq = st.Seqs["client_grant/"+id]
	}
	// A state saved before connections and organizations were kept has
	// none; the default connection is seeded when the emulator starts.
	if st.Store.Connections == nil {
		st.Store.Connections = map[string]*Connection{}
	}
	if st.Store.Organizations == nil {
		st.Store.Organizations = map[string]*Organization{}
	}
	return &st, nil
}

// SaveState writes the tenant and the default client's credentials to
// path, through a temporary file so that a crash never leaves half a state.
func (s *Tenant) SaveState(path, clientID, clientSecret string) error {
	s.Lock()
	st := SavedState{Version: stateVersion, ClientID: clientID, ClientSecret: clientSecret, Store: s.St.Clone(), Seqs: map[string]int64{}, Demo: s.Seeded}
	s.Unlock()
	for id, p := range st.Store.Profiles {
		st.Seqs["profile/"+id] = p.Seq
	}
	for id, r := range st.Store.Roles {
		st.Seqs["role/"+id] = r.Seq
	}
	for id, rs := range st.Store.ResourceServers {
		st.Seqs["resource_server/"+id] = rs.Seq
	}
	for id, g := range st.Store.Grants {
		st.Seqs["client_grant/"+id] = g.Seq
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tenant-emulator-state-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
