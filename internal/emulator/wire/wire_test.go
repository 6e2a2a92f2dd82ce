package wire_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// An object keeps its key order, and <, > and & as they are.
func TestWriteJSON_orderAndEscaping(t *testing.T) {
	w := httptest.NewRecorder()
	wire.WriteJSON(w, 201, wire.Ordered{{K: "z", V: "a<b>&c"}, {K: "a", V: 1}})
	if got := strings.TrimSpace(w.Body.String()); w.Code != 201 || got != `{"z":"a<b>&c","a":1}` {
		t.Fatalf("%d %s", w.Code, got)
	}
}

// A body is read as JSON, or as a form, key by key; a value of the wrong
// type or out of its bounds is the API's 400 naming the property.
func TestReadBody_readers(t *testing.T) {
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":"ab","n":7,"flag":"yes"}`))
	b, e := wire.ReadBody(r)
	if e != nil {
		t.Fatal(e)
	}
	if _, e := b.Str("name", true, 3, 10); e == nil || e.Status != 400 || !strings.Contains(e.Message, "name") {
		t.Fatalf("a name under its bound: %v", e)
	}
	if n, e := b.Int("n", 1, 10); e != nil || *n != 7 {
		t.Fatalf("n: %v %v", n, e)
	}
	if _, e := b.Bool("flag"); e == nil || !strings.Contains(e.Message, "flag") {
		t.Fatalf("a string for a boolean: %v", e)
	}
	r = httptest.NewRequest("POST", "/", strings.NewReader("name=abc"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if b, e := wire.ReadBody(r); e != nil || string(b["name"]) != `"abc"` {
		t.Fatalf("form: %v %v", b, e)
	}
}

func TestCursor_roundTrip(t *testing.T) {
	if n, ok := wire.FromCursor(wire.Cursor(150)); !ok || n != 150 {
		t.Fatalf("%d %v", n, ok)
	}
	if _, ok := wire.FromCursor("not-a-cursor"); ok {
		t.Fatal("a token that is no cursor was read")
	}
}

// fields selects top-level keys; include_fields must be a boolean.
func TestReadFields(t *testing.T) {
	sel, e := wire.ReadFields(httptest.NewRequest("GET", "/?fields=id,name&include_fields=false", nil), true, false)
	if e != nil {
		t.Fatal(e)
	}
	got := sel.One(wire.Ordered{{K: "id", V: 1}, {K: "name", V: "x"}, {K: "other", V: true}})
	if b := wire.MustJSON(got); string(b) != `{"other":true}` {
		t.Fatalf("%s", b)
	}
	if _, e := wire.ReadFields(httptest.NewRequest("GET", "/?fields=id&include_fields=maybe", nil), true, false); e == nil || e.Status != 400 {
		t.Fatalf("include_fields=maybe: %v", e)
	}
	if sel, _ := wire.ReadFields(httptest.NewRequest("GET", "/?fields=id", nil), false, false); sel != nil {
		t.Fatal("a route that does not take fields applied them")
	}
}
