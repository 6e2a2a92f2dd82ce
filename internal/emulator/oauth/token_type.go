package oauth

// requestedTokenType answers a token exchange's requested_token_type
// parameter: a tenant was observed refusing it (token-exchange-flow.md §5,
// a third party's report [R, medium]: requested_token_type=...:access_token
// got this answer, and leaving the parameter out worked), which is the
// default; --assume requested_token_type=accept passes it to the action.
func (s *Server) requestedTokenType(fields map[string]string) *exchangeFailure {
	if fields["requested_token_type"] == "" || s.Assume.RequestedTokenType == "accept" {
		return nil
	}
	return refuse(400, "invalid_request", "Invalid subject_token_type and requested_token_type combination.")
}
