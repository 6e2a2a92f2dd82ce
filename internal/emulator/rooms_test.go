package emulator

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The emulator's rooms import one way: each only the rooms below it, none
// the server or a room beside it, and only tests the tests' support.
func TestRooms_importGraph(t *testing.T) {
	const module = "github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	// A room's rank; a room imports only rooms of a greater rank.
	rank := map[string]int{
		"":              0, // the server, this package
		"mgmtapi":       1,
		"oauth":         1,
		"tenant":        2,
		"actionruntime": 3,
		"wire":          3,
	}
	for room := range rank {
		dir := filepath.Join(".", room)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path != module && !strings.HasPrefix(path, module+"/") {
					continue
				}
				to := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
				r, known := rank[to]
				switch {
				case !known:
					t.Errorf("%s imports %s, which is no room (test support is for tests only)", filepath.Join(dir, name), to)
				case r <= rank[room]:
					t.Errorf("%s (room %q) imports %q: a room imports only the rooms below it", filepath.Join(dir, name), room, to)
				}
			}
		}
	}
}
