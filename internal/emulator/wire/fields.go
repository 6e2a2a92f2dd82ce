package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// FieldSelection is the fields and include_fields of a read: the named
// top-level keys are kept (include) or left out (!include).
//
// Where the API takes them (reference §4: observed on GET /resource-servers,
// fields=id,identifier&include_fields=true answered only those keys; the
// published specification names include_fields on GET /resource-servers
// and GET /resource-servers/{id}, and both on GET /users and
// GET /users/{id}):
//   - without fields nothing changes, whatever include_fields says;
//   - include_fields is true (the specification's default) or false, any
//     other value is a 400 on property include_fields;
//   - fields is a comma-separated list of top-level keys; an object keeps
//     its own key order, and a name no object has is no error.
//
// Assumptions: GET /resource-servers/{id} takes fields as the list does
// (the specification names only include_fields there); a name that no
// object has is ignored; a key is a whole top-level key (no dotted paths).
// The routes whose specification names neither parameter ignore both,
// unless Options.FieldsEverywhere applies them there too.
type FieldSelection struct {
	names   map[string]bool
	include bool
}

// ReadFields reads the selection of r; nil when fields is absent or the
// route does not take it (specified false, and everywhere, the emulator's
// FieldsEverywhere option, off).
func ReadFields(r *http.Request, specified, everywhere bool) (*FieldSelection, *Error) {
	if !specified && !everywhere {
		return nil, nil
	}
	q := r.URL.Query()
	include := true
	switch v := q.Get("include_fields"); v {
	case "", "true":
	case "false":
		include = false
	default:
		return nil, NewErr(400, "Query validation error: 'Expected type boolean but found type string' on property include_fields.", "invalid_query_string")
	}
	if !q.Has("fields") {
		return nil, nil
	}
	sel := &FieldSelection{names: map[string]bool{}, include: include}
	for _, f := range strings.Split(q.Get("fields"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			sel.names[f] = true
		}
	}
	return sel, nil
}

// One is v, an object, with the selection applied; v itself without one.
func (f *FieldSelection) One(v any) any {
	if f == nil {
		return v
	}
	raw, err := Marshal(v)
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return v
	}
	out := Ordered{}
	for dec.More() {
		t, _ := dec.Token()
		k, _ := t.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			panic(err)
		}
		if f.names[k] == f.include {
			out = append(out, Ordered{{k, val}}...)
		}
	}
	return out
}

// Each applies the selection to every item of a list.
func Each[T any](f *FieldSelection, items []T) []any {
	out := make([]any, 0, len(items))
	for _, it := range items {
		out = append(out, f.One(it))
	}
	return out
}
