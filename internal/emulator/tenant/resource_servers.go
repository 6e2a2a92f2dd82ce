package tenant

func (rs *ResourceServer) HasScope(name string) bool {
	if rs.Scopes == nil {
		return false
	}
	for _, s := range *rs.Scopes {
		if s.Value == name {
			return true
		}
	}
	return false
}

// FindResourceServer resolves an id or identifier.
func (s *Tenant) FindResourceServer(key string) *ResourceServer {
	if rs, ok := s.St.ResourceServers[key]; ok {
		return rs
	}
	for _, rs := range s.St.ResourceServers {
		if rs.Identifier == key {
			return rs
		}
	}
	return nil
}

func DefaultSubjectTypeAuthorization() *SubjectTypeAuthorization {
	return &SubjectTypeAuthorization{Client: &Policy{"require_client_grant"}, User: &Policy{"allow_all"}}
}
