package actionruntime

// Waiting is how many executions of the version wait for a worker.
func (rt *Runtime) Waiting(versionID string) int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, p := range rt.pools {
		if p.v.VersionID == versionID {
			n += p.waiting
		}
	}
	return n
}
