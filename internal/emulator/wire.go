package emulator

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// apiErr is a Management API error answer.
type apiErr struct {
	status  int
	message string
	code    string // errorCode; omitted when empty
}

func (e *apiErr) Error() string { return e.message }

func newErr(status int, message, code string) *apiErr {
	return &apiErr{status: status, message: message, code: code}
}

// writeJSON writes v with <, > and & as they are, as the API does
// (recorded: an action's code "=>" comes back so, a picture URL keeps its
// "&"), where Go would escape them.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if v != nil {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
	}
}

// marshal is json.Marshal without escaping <, > and & (see writeJSON).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeErr writes the API's one error body, {statusCode, error, message,
// errorCode?}, on every route (reference §0.3).
func writeErr(w http.ResponseWriter, e *apiErr) {
	body := map[string]any{"statusCode": e.status, "error": http.StatusText(e.status), "message": e.message}
	if e.code != "" {
		body["errorCode"] = e.code
	}
	writeJSON(w, e.status, orderedError(body))
}

// orderedError keeps the observed key order: statusCode, error, message, errorCode.
func orderedError(m map[string]any) json.RawMessage {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range []string{"statusCode", "error", "message", "errorCode"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		if i > 0 {
			b.WriteString(",")
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		b.Write(kb)
		b.WriteString(":")
		b.Write(vb)
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

func noContent(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNoContent)
}

// body is a decoded write body, key by key.
type body map[string]json.RawMessage

// readBody decodes a JSON or form body. An empty body is an empty object.
func readBody(r *http.Request) (body, *apiErr) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, newErr(400, "Could not read the request body.", "invalid_body")
	}
	b := body{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, newErr(400, "Invalid form body.", "invalid_body")
		}
		for k, v := range vals {
			j, _ := json.Marshal(v[0])
			b[k] = j
		}
		return b, nil
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		return b, nil
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, newErr(400, "Payload validation error: 'Invalid JSON body'.", "invalid_body")
	}
	return b, nil
}

func payloadErr(reason, property string) *apiErr {
	msg := fmt.Sprintf("Payload validation error: '%s'", reason)
	if property != "" {
		msg += " on property " + property
	}
	return newErr(400, msg+".", "invalid_body")
}

// obj is a body seen at a property path, so that the errors about nested
// keys name their dotted path, as the API's message grammar does
// (reference §0.3): "... on property proof_of_possession.mechanism.".
type obj struct {
	b    body
	path string
}

// at sees b at the property path (the top level is "").
func (b body) at(path string) obj { return obj{b: b, path: path} }

// prop is the dotted path of key k.
func (o obj) prop(k string) string {
	if o.path == "" {
		return k
	}
	return o.path + "." + k
}

func (o obj) has(k string) bool { _, ok := o.b[k]; return ok }

func (o obj) isNull(k string) bool { return string(o.b[k]) == "null" }

// only refuses keys outside allowed, listing them comma-joined (reference §0.3).
func (o obj) only(allowed ...string) *apiErr {
	var extra []string
	for k := range o.b {
		if !contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return payloadErr("Additional properties not allowed: "+strings.Join(extra, ","), o.path)
	}
	return nil
}

// require refuses the first absent key of keys, naming the parent property.
func (o obj) require(keys ...string) *apiErr {
	for _, k := range keys {
		if !o.has(k) {
			return payloadErr("Missing required property: "+k, o.path)
		}
	}
	return nil
}

func (o obj) typeErr(k, want string) *apiErr {
	return payloadErr("Expected type "+want+" but found type "+jsonType(o.b[k]), o.prop(k))
}

// str reads a string property with length bounds (in characters). A null is
// a type error: callers for which null clears a value check isNull first.
func (o obj) str(k string, required bool, minLen, maxLen int) (string, *apiErr) {
	raw, ok := o.b[k]
	if !ok {
		if required {
			return "", payloadErr("Missing required property: "+k, o.path)
		}
		return "", nil
	}
	var s string
	if jsonType(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return "", o.typeErr(k, "string")
	}
	n := utf8.RuneCountInString(s)
	if n < minLen {
		return "", payloadErr(fmt.Sprintf("String is too short (%d chars), minimum %d", n, minLen), o.prop(k))
	}
	if maxLen > 0 && n > maxLen {
		return "", payloadErr(fmt.Sprintf("String is too long (%d chars), maximum %d", n, maxLen), o.prop(k))
	}
	return s, nil
}

// boolean reads an optional boolean; absent and null are nil.
func (o obj) boolean(k string) (*bool, *apiErr) {
	raw, ok := o.b[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var v bool
	if jsonType(raw) != "boolean" || json.Unmarshal(raw, &v) != nil {
		return nil, o.typeErr(k, "boolean")
	}
	return &v, nil
}

// boolReq reads a required boolean: absent is a missing property, null a
// type error.
func (o obj) boolReq(k string) (bool, *apiErr) {
	if e := o.require(k); e != nil {
		return false, e
	}
	if o.isNull(k) {
		return false, o.typeErr(k, "boolean")
	}
	v, e := o.boolean(k)
	if e != nil {
		return false, e
	}
	return *v, nil
}

func (o obj) integer(k string, lo, hi int64) (*int64, *apiErr) {
	raw, ok := o.b[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var v int64
	if jsonType(raw) != "number" || json.Unmarshal(raw, &v) != nil {
		return nil, o.typeErr(k, "integer")
	}
	if v < lo || v > hi {
		return nil, payloadErr(fmt.Sprintf("Value %d is out of range [%d, %d]", v, lo, hi), o.prop(k))
	}
	return &v, nil
}

// enum reads an optional string that must be one of values; absent and null
// are nil.
func (o obj) enum(k string, values ...string) (*string, *apiErr) {
	raw, ok := o.b[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if jsonType(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return nil, o.typeErr(k, "string")
	}
	if !contains(values, s) {
		return nil, payloadErr(fmt.Sprintf("No enum match for: \"%s\"", s), o.prop(k))
	}
	return &s, nil
}

// enumReq reads a required enum: absent is a missing property, null a type
// error.
func (o obj) enumReq(k string, values ...string) (string, *apiErr) {
	if e := o.require(k); e != nil {
		return "", e
	}
	if o.isNull(k) {
		return "", o.typeErr(k, "string")
	}
	v, e := o.enum(k, values...)
	if e != nil {
		return "", e
	}
	return *v, nil
}

// object reads a nested object; ok is false when k is absent or null.
func (o obj) object(k string) (_ obj, ok bool, _ *apiErr) {
	raw, has := o.b[k]
	if !has || string(raw) == "null" {
		return obj{}, false, nil
	}
	return asObject(raw, o.prop(k))
}

// array reads a nested array; ok is false when k is absent or null.
func (o obj) array(k string) (_ []json.RawMessage, ok bool, _ *apiErr) {
	raw, has := o.b[k]
	if !has || string(raw) == "null" {
		return nil, false, nil
	}
	var items []json.RawMessage
	if jsonType(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, false, o.typeErr(k, "array")
	}
	return items, true, nil
}

// asObject reads raw (an array item, say) as the object at path.
func asObject(raw json.RawMessage, path string) (obj, bool, *apiErr) {
	var m body
	if jsonType(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		return obj{}, false, payloadErr("Expected type object but found type "+jsonType(raw), path)
	}
	return obj{b: m, path: path}, true, nil
}

// The top-level forms of the obj readers.

func (b body) only(allowed ...string) *apiErr { return b.at("").only(allowed...) }
func (b body) has(k string) bool              { return b.at("").has(k) }
func (b body) isNull(k string) bool           { return b.at("").isNull(k) }
func (b body) str(k string, required bool, minLen, maxLen int) (string, *apiErr) {
	return b.at("").str(k, required, minLen, maxLen)
}
func (b body) boolean(k string) (*bool, *apiErr) { return b.at("").boolean(k) }
func (b body) integer(k string, lo, hi int64) (*int64, *apiErr) {
	return b.at("").integer(k, lo, hi)
}
func (b body) enum(k string, values ...string) (*string, *apiErr) {
	return b.at("").enum(k, values...)
}

func jsonType(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		return "null"
	case strings.HasPrefix(s, "\""):
		return "string"
	case strings.HasPrefix(s, "{"):
		return "object"
	case strings.HasPrefix(s, "["):
		return "array"
	case s == "true" || s == "false":
		return "boolean"
	default:
		return "number"
	}
}

// isURI reports whether s is an absolute URI: a scheme, a colon, and more.
func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Opaque != "" || u.Host != "" || u.Path != "") && !strings.ContainsAny(s, " \t\r\n")
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int) string {
	b := make([]byte, n)
	for i := range b {
		x, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alnum))))
		b[i] = alnum[x.Int64()]
	}
	return string(b)
}

func randomHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

func uuid4() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func millis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// nanos always shows nine fractional digits, as actions do (reference §0.2).
func nanos(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

// offsetPage reads page, per_page (1–100, default 50) and include_totals.
func offsetPage(r *http.Request) (page, perPage int, totals bool, e *apiErr) {
	q := r.URL.Query()
	page, perPage = 0, 50
	if v := q.Get("page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 {
			return 0, 0, false, newErr(400, "Query validation error: 'Expected type integer but found type string' on property page.", "invalid_query_string")
		}
		page = p
	}
	if v := q.Get("per_page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 100 {
			return 0, 0, false, newErr(400, fmt.Sprintf("Query validation error: 'Value %s is out of range [1, 100]' on property per_page.", v), "invalid_query_string")
		}
		perPage = p
	}
	return page, perPage, q.Get("include_totals") == "true", nil
}

// checkpoint reads take (1–100, default 50) and from, an opaque cursor
// (reference §0.6).
func checkpoint(r *http.Request) (take, offset int, e *apiErr) {
	q := r.URL.Query()
	take = 50
	if v := q.Get("take"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return 0, 0, newErr(400, "Query validation error: 'Value "+v+" is out of range [1, 100]' on property take.", "invalid_query_string")
		}
		take = n
	}
	if v := q.Get("from"); v != "" {
		n, ok := fromCursor(v)
		if !ok {
			return 0, 0, newErr(400, "Query validation error: 'Invalid checkpoint' on property from.", "invalid_query_string")
		}
		offset = n
	}
	return take, offset, nil
}

// window returns the slice bounds of one page over n items.
func window(n, page, perPage int) (int, int) {
	start := min(page*perPage, n)
	return start, min(start+perPage, n)
}
