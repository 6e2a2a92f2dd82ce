package acctest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestCLIWorkDoneBy: every test a CLIWorkDoneBy call names exists, in one
// package, and is not itself marked to run once (by OnceAcrossCLIs or
// CLIWorkDoneBy).
func TestCLIWorkDoneBy(t *testing.T) {
	files := map[string]string{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		files[path] = ""
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	calls, problems := cliWorkClaims(t, files)
	if calls == 0 {
		t.Fatal("no CLIWorkDoneBy call found: the walk of the test files found nothing")
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestCLIWorkDoneBy_refuses: a call naming no test, a name that is no test
// or that two packages define, and a test itself marked to run once are
// reported.
func TestCLIWorkDoneBy_refuses(t *testing.T) {
	files := map[string]string{"a_test.go": `package a
func TestA(t *testing.T) { acctest.CLIWorkDoneBy(t, "TestB", "TestMissing") }
func TestB(t *testing.T) { acctest.OnceAcrossCLIs(t) }
func TestC(t *testing.T) { acctest.CLIWorkDoneBy(t, "TestD") }
func TestD(t *testing.T) {}
func TestE(t *testing.T) { acctest.CLIWorkDoneBy(t) }
func TestF(t *testing.T) { acctest.CLIWorkDoneBy(t, "TestTwice") }
`, "b_test.go": `package b
func TestTwice(t *testing.T) {}
`, "c_test.go": `package c
func TestTwice(t *testing.T) {}
`}
	calls, problems := cliWorkClaims(t, files)
	want := []string{
		"a_test.go: TestA names TestB, which does not run with every CLI",
		"a_test.go: TestA names TestMissing, which is no test function",
		"a_test.go: TestE names no test",
		"a_test.go: TestF names TestTwice, which 2 packages define",
	}
	if calls != 4 || fmt.Sprint(problems) != fmt.Sprint(want) {
		t.Fatalf("got %d calls, %q; want 2, %q", calls, problems, want)
	}
}

// cliWorkClaims parses the files (path to source; an empty source is read
// from the path) and checks every CLIWorkDoneBy call's names.
func cliWorkClaims(t *testing.T, files map[string]string) (calls int, problems []string) {
	t.Helper()
	fset := token.NewFileSet()
	funcs := map[string][]*ast.FuncDecl{}
	type claim struct{ file, test, named string }
	var claims []claim
	for path, src := range files {
		var source any
		if src != "" {
			source = src
		}
		f, err := parser.ParseFile(fset, path, source, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			funcs[fn.Name.Name] = append(funcs[fn.Name.Name], fn)
			for _, args := range callsOf(fn, "CLIWorkDoneBy") {
				calls++
				if len(args) < 2 {
					problems = append(problems, fmt.Sprintf("%s: %s names no test", path, fn.Name.Name))
				}
				for _, a := range args[1:] {
					name, err := "", fmt.Errorf("not a literal")
					if lit, ok := a.(*ast.BasicLit); ok {
						name, err = strconv.Unquote(lit.Value)
					}
					if err != nil {
						problems = append(problems, fmt.Sprintf("%s: %s names a test by a value that is not a string literal", path, fn.Name.Name))
						continue
					}
					claims = append(claims, claim{path, fn.Name.Name, name})
				}
			}
		}
	}
	for _, c := range claims {
		fns := funcs[c.named]
		switch {
		case len(fns) == 0:
			problems = append(problems, fmt.Sprintf("%s: %s names %s, which is no test function", c.file, c.test, c.named))
		case len(fns) > 1:
			problems = append(problems, fmt.Sprintf("%s: %s names %s, which %d packages define", c.file, c.test, c.named, len(fns)))
		case len(callsOf(fns[0], "OnceAcrossCLIs"))+len(callsOf(fns[0], "CLIWorkDoneBy")) > 0:
			problems = append(problems, fmt.Sprintf("%s: %s names %s, which does not run with every CLI", c.file, c.test, c.named))
		}
	}
	sort.Strings(problems)
	return calls, problems
}

// callsOf returns the arguments of each call of acctest.<name> in fn.
func callsOf(fn *ast.FuncDecl, name string) [][]ast.Expr {
	var out [][]ast.Expr
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "acctest" {
				out = append(out, call.Args)
			}
		}
		return true
	})
	return out
}
