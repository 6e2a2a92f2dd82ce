package oauth

import "encoding/json"

// Delegation in a custom token exchange (token-exchange-flow.md §5, [R]:
// the token-exchange flow pages and the delegated-authorization release
// note): the request may carry an actor token and its type, which reach
// the action as event.transaction.actor_token and actor_token_type; the
// action's api.authentication.setActor(actor) puts an act claim (RFC 8693
// §4.1 [P]) in the issued tokens, and with an actor set no refresh token
// is issued.

// maxActorDepth is how deep act claims may nest (the release note: "up to
// 5 levels of delegation chains").
const maxActorDepth = 5

// actorParameters checks the request's actor parameters: RFC 8693 §2.1
// [P] requires actor_token_type with actor_token, and refuses it without.
// The answer's texts are the emulator's (the platform's are not recorded).
func actorParameters(fields map[string]string) *exchangeFailure {
	switch token, typ := fields["actor_token"], fields["actor_token_type"]; {
	case token != "" && typ == "":
		return refuse(400, "invalid_request", "Missing required parameter: actor_token_type")
	case token == "" && typ != "":
		return refuse(400, "invalid_request", "actor_token_type is only allowed with actor_token")
	}
	return nil
}

// actorTransaction adds the actor parameters to the action's
// event.transaction when the request has them. actor_token_user (an actor
// token the platform resolves to one of its users) is left out: the
// emulator resolves none.
func actorTransaction(tx map[string]any, fields map[string]string) {
	if fields["actor_token"] != "" {
		tx["actor_token"], tx["actor_token_type"] = fields["actor_token"], fields["actor_token_type"]
	}
}

// readActor is the act claim of a setActor call.
//
// Assumption (the api object's page read does not give setActor's
// argument; the SDKs' ActClaim type is an object with an optional sub and
// any other claims): the action passes the act claim itself, an object
// with a sub string, nested acts for a chain; a string is taken as the
// actor's sub. Anything else, or a chain deeper than 5, is an error of the
// action (500 server_error).
func readActor(raw json.RawMessage) (json.RawMessage, *exchangeFailure) {
	var sub string
	if json.Unmarshal(raw, &sub) == nil {
		if sub == "" {
			return nil, badCall("setActor: the actor's sub is empty.")
		}
		b, _ := json.Marshal(map[string]string{"sub": sub})
		return b, nil
	}
	depth := 0
	for cur := raw; cur != nil; depth++ {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil || obj == nil {
			return nil, badCall("setActor: the actor must be an object with a sub, or a string.")
		}
		if json.Unmarshal(obj["sub"], &sub) != nil || sub == "" {
			return nil, badCall("setActor: the actor must have a sub string.")
		}
		cur = obj["act"]
	}
	if depth > maxActorDepth {
		return nil, badCall("setActor: the delegation chain has %d levels, at most %d are allowed.", depth, maxActorDepth)
	}
	return raw, nil
}
