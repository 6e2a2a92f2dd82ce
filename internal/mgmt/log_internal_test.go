package mgmt

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestLog_secretValuesMaskedWhateverTheJSON: the secret values a request
// carries are masked as values, wherever they stand in the body (here the
// value comes before the name, which a key-order pattern would miss).
func TestLog_secretValuesMaskedWhateverTheJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"tok","token_type":"Bearer","expires_in":3600}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c, err := New(Config{Domain: srv.URL, ClientID: "id", ClientSecret: "client-secret-value"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	const value = "order-s3cret"
	body := map[string]any{"secrets": []map[string]string{{"value": value, "name": "K"}}}
	if _, err := c.do(ctx, request{method: http.MethodPatch, path: "/actions/actions/a1", body: body, secrets: []string{value}}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "request body") {
		t.Fatalf("no request body logged:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), value) {
		t.Fatalf("the secret value is in the logs:\n%s", buf.String())
	}
}
