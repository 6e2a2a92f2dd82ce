package wire

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Cursor encodes a checkpoint-pagination offset as an opaque token.
func Cursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(offset)))
}

// FromCursor reads a Cursor back.
func FromCursor(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "o:"))
	return n, err == nil && strings.HasPrefix(string(b), "o:") && n >= 0
}

// PathID returns the {id} path value; a double-escaped value is decoded by
// the lookups that accept it.
func PathID(r *http.Request) string { return r.PathValue("id") }

// UnescapeOnce decodes a path value once, when it holds an escape.
func UnescapeOnce(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return "", false
	}
	u, err := url.PathUnescape(s)
	return u, err == nil
}

// OffsetPage reads page, per_page (1–100, default 50) and include_totals.
func OffsetPage(r *http.Request) (page, perPage int, totals bool, e *Error) {
	q := r.URL.Query()
	page, perPage = 0, 50
	if v := q.Get("page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 {
			return 0, 0, false, NewErr(400, "Query validation error: 'Expected type integer but found type string' on property page.", "invalid_query_string")
		}
		page = p
	}
	if v := q.Get("per_page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 100 {
			return 0, 0, false, NewErr(400, fmt.Sprintf("Query validation error: 'Value %s is out of range [1, 100]' on property per_page.", v), "invalid_query_string")
		}
		perPage = p
	}
	return page, perPage, q.Get("include_totals") == "true", nil
}

// Checkpoint reads take (1–100, default 50) and from, an opaque cursor
// (reference §0.6).
func Checkpoint(r *http.Request) (take, offset int, e *Error) {
	q := r.URL.Query()
	take = 50
	if v := q.Get("take"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return 0, 0, NewErr(400, "Query validation error: 'Value "+v+" is out of range [1, 100]' on property take.", "invalid_query_string")
		}
		take = n
	}
	if v := q.Get("from"); v != "" {
		n, ok := FromCursor(v)
		if !ok {
			return 0, 0, NewErr(400, "Query validation error: 'Invalid checkpoint' on property from.", "invalid_query_string")
		}
		offset = n
	}
	return take, offset, nil
}

// Window returns the slice bounds of one page over n items.
func Window(n, page, perPage int) (int, int) {
	start := min(page*perPage, n)
	return start, min(start+perPage, n)
}
