// Package wire is the emulator's reading and writing of the API's wire
// format, shared by the Management API routes and the token endpoint: the
// error body, JSON bodies read key by key, objects in the API's key order,
// ids and timestamps, pages and field selections.
package wire

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
	"strings"
	"time"
	"unicode/utf8"
)

// Error is a Management API error answer.
type Error struct {
	Status  int
	Message string
	Code    string // errorCode; omitted when empty
}

func (e *Error) Error() string { return e.Message }

// NewErr is an error answer: status, message, errorCode (omitted when empty).
func NewErr(status int, message, code string) *Error {
	return &Error{Status: status, Message: message, Code: code}
}

// WriteJSON writes v with <, > and & as they are, as the API does
// (recorded: an action's code "=>" comes back so, a picture URL keeps its
// "&"), where Go would escape them.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if v != nil {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
	}
}

// Marshal is json.Marshal without escaping <, > and & (see WriteJSON).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteErr writes the API's one error body, {statusCode, error, message,
// errorCode?}, on every route (reference §0.3).
func WriteErr(w http.ResponseWriter, e *Error) {
	body := map[string]any{"statusCode": e.Status, "error": http.StatusText(e.Status), "message": e.Message}
	if e.Code != "" {
		body["errorCode"] = e.Code
	}
	WriteJSON(w, e.Status, orderedError(body))
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

// NoContent answers 204.
func NoContent(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNoContent)
}

// Body is a decoded write body, key by key.
type Body map[string]json.RawMessage

// ReadBody decodes a JSON or form body. An empty body is an empty object.
func ReadBody(r *http.Request) (Body, *Error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, NewErr(400, "Could not read the request body.", "invalid_body")
	}
	b := Body{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, NewErr(400, "Invalid form body.", "invalid_body")
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
		return nil, NewErr(400, "Payload validation error: 'Invalid JSON body'.", "invalid_body")
	}
	return b, nil
}

// PayloadErr is the API's 400 for a body that fails its schema, naming the property.
func PayloadErr(reason, property string) *Error {
	msg := fmt.Sprintf("Payload validation error: '%s'", reason)
	if property != "" {
		msg += " on property " + property
	}
	return NewErr(400, msg+".", "invalid_body")
}

// Obj is a body seen at a property path, so that the errors about nested
// keys name their dotted path, as the API's message grammar does
// (reference §0.3): "... on property proof_of_possession.mechanism.".
type Obj struct {
	Body Body
	Path string
}

// At sees b at the property path (the top level is "").
func (b Body) At(path string) Obj { return Obj{Body: b, Path: path} }

// Prop is the dotted path of key k.
func (o Obj) Prop(k string) string {
	if o.Path == "" {
		return k
	}
	return o.Path + "." + k
}

// Has reports whether the object holds k.
func (o Obj) Has(k string) bool { _, ok := o.Body[k]; return ok }

// IsNull reports whether k is null.
func (o Obj) IsNull(k string) bool { return string(o.Body[k]) == "null" }

// Only refuses keys outside allowed, listing them comma-joined (reference §0.3).
func (o Obj) Only(allowed ...string) *Error {
	var extra []string
	for k := range o.Body {
		if !Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return PayloadErr("Additional properties not allowed: "+strings.Join(extra, ","), o.Path)
	}
	return nil
}

// Require refuses the first absent key of keys, naming the parent property.
func (o Obj) Require(keys ...string) *Error {
	for _, k := range keys {
		if !o.Has(k) {
			return PayloadErr("Missing required property: "+k, o.Path)
		}
	}
	return nil
}

// TypeErr is the API's 400 for k of another JSON type than want.
func (o Obj) TypeErr(k, want string) *Error {
	return PayloadErr("Expected type "+want+" but found type "+JSONType(o.Body[k]), o.Prop(k))
}

// Str reads a string property with length bounds (in characters). A null is
// a type error: callers for which null clears a value check isNull first.
func (o Obj) Str(k string, required bool, minLen, maxLen int) (string, *Error) {
	raw, ok := o.Body[k]
	if !ok {
		if required {
			return "", PayloadErr("Missing required property: "+k, o.Path)
		}
		return "", nil
	}
	var s string
	if JSONType(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return "", o.TypeErr(k, "string")
	}
	n := utf8.RuneCountInString(s)
	if n < minLen {
		return "", PayloadErr(fmt.Sprintf("String is too short (%d chars), minimum %d", n, minLen), o.Prop(k))
	}
	if maxLen > 0 && n > maxLen {
		return "", PayloadErr(fmt.Sprintf("String is too long (%d chars), maximum %d", n, maxLen), o.Prop(k))
	}
	return s, nil
}

// Bool reads an optional boolean; absent and null are nil.
func (o Obj) Bool(k string) (*bool, *Error) {
	raw, ok := o.Body[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var v bool
	if JSONType(raw) != "boolean" || json.Unmarshal(raw, &v) != nil {
		return nil, o.TypeErr(k, "boolean")
	}
	return &v, nil
}

// BoolReq reads a required boolean: absent is a missing property, null a
// type error.
func (o Obj) BoolReq(k string) (bool, *Error) {
	if e := o.Require(k); e != nil {
		return false, e
	}
	if o.IsNull(k) {
		return false, o.TypeErr(k, "boolean")
	}
	v, e := o.Bool(k)
	if e != nil {
		return false, e
	}
	return *v, nil
}

// Int reads an optional integer k within lo..hi.
func (o Obj) Int(k string, lo, hi int64) (*int64, *Error) {
	raw, ok := o.Body[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var v int64
	if JSONType(raw) != "number" || json.Unmarshal(raw, &v) != nil {
		return nil, o.TypeErr(k, "integer")
	}
	if v < lo || v > hi {
		return nil, PayloadErr(fmt.Sprintf("Value %d is out of range [%d, %d]", v, lo, hi), o.Prop(k))
	}
	return &v, nil
}

// Enum reads an optional string that must be one of values; absent and null
// are nil.
func (o Obj) Enum(k string, values ...string) (*string, *Error) {
	raw, ok := o.Body[k]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if JSONType(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return nil, o.TypeErr(k, "string")
	}
	if !Contains(values, s) {
		return nil, PayloadErr(fmt.Sprintf("No enum match for: \"%s\"", s), o.Prop(k))
	}
	return &s, nil
}

// EnumReq reads a required enum: absent is a missing property, null a type
// error.
func (o Obj) EnumReq(k string, values ...string) (string, *Error) {
	if e := o.Require(k); e != nil {
		return "", e
	}
	if o.IsNull(k) {
		return "", o.TypeErr(k, "string")
	}
	v, e := o.Enum(k, values...)
	if e != nil {
		return "", e
	}
	return *v, nil
}

// Object reads a nested object; ok is false when k is absent or null.
func (o Obj) Object(k string) (_ Obj, ok bool, _ *Error) {
	raw, has := o.Body[k]
	if !has || string(raw) == "null" {
		return Obj{}, false, nil
	}
	return AsObject(raw, o.Prop(k))
}

// Array reads a nested array; ok is false when k is absent or null.
func (o Obj) Array(k string) (_ []json.RawMessage, ok bool, _ *Error) {
	raw, has := o.Body[k]
	if !has || string(raw) == "null" {
		return nil, false, nil
	}
	var items []json.RawMessage
	if JSONType(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, false, o.TypeErr(k, "array")
	}
	return items, true, nil
}

// AsObject reads raw (an array item, say) as the object at path.
func AsObject(raw json.RawMessage, path string) (Obj, bool, *Error) {
	var m Body
	if JSONType(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		return Obj{}, false, PayloadErr("Expected type object but found type "+JSONType(raw), path)
	}
	return Obj{Body: m, Path: path}, true, nil
}

// The top-level forms of the obj readers.

func (b Body) Only(allowed ...string) *Error { return b.At("").Only(allowed...) }
func (b Body) Has(k string) bool             { return b.At("").Has(k) }
func (b Body) IsNull(k string) bool          { return b.At("").IsNull(k) }
func (b Body) Str(k string, required bool, minLen, maxLen int) (string, *Error) {
	return b.At("").Str(k, required, minLen, maxLen)
}
func (b Body) Bool(k string) (*bool, *Error) { return b.At("").Bool(k) }
func (b Body) Int(k string, lo, hi int64) (*int64, *Error) {
	return b.At("").Int(k, lo, hi)
}
func (b Body) Enum(k string, values ...string) (*string, *Error) {
	return b.At("").Enum(k, values...)
}

// JSONType names the JSON type of raw as the API's messages do.
func JSONType(raw json.RawMessage) string {
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

// IsURI reports whether s is an absolute URI: a scheme, a colon, and more.
func IsURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Opaque != "" || u.Host != "" || u.Path != "") && !strings.ContainsAny(s, " \t\r\n")
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// RandomString is n random letters and digits.
func RandomString(n int) string { return randomFrom(alnum, n) }

// RandomSecret is a client secret: 64 characters of the URL-safe alphabet [O].
func RandomSecret() string { return randomFrom(alnum+"-_", 64) }

func randomFrom(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		x, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		b[i] = alphabet[x.Int64()]
	}
	return string(b)
}

// RandomHex is n random hexadecimal digits.
func RandomHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

// UUID4 is a random UUID.
func UUID4() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Millis is t as the API shows most timestamps, to the millisecond.
func Millis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Nanos always shows nine fractional digits, as actions do (reference §0.2).
func Nanos(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

// Ordered is a JSON object that keeps its key order.
type Ordered []struct {
	K string
	V any
}

func (o Ordered) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString("{")
	for i, kv := range o {
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := Marshal(kv.K)
		v, err := Marshal(kv.V)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteString(":")
		b.Write(v)
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

// MustJSON is v as JSON; v always marshals.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Deref is *s, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Raw is v as a JSON value to store.
func Raw(v any) json.RawMessage { return MustJSON(v) }

// CompactJSON is raw without insignificant white space.
func CompactJSON(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Quote puts s in double quotes, escaping those in it.
func Quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
