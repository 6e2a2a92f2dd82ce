package e2e_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
)

// The guides under docs/guides are tested as users read them: the page as
// `make docs` generates it, each fenced block where the prose before it
// says it goes, the commands run in order in one folder with the
// environment they leave, against the emulator. The prose right before a
// block (its caption) gives the block its place; the caption ends with
//
//   - the file's path in backticks and a colon ("… in `main.tf`:"): the
//     block is that file, relative to the reader's folder;
//   - "prints:": the block is output of the command before it, compared
//     line by line ("..." stands for any text, digits for any digits);
//   - "logs:": the same, compared with the emulator's standard error;
//   - "for example:": an excerpt to read, not placed (an HCL excerpt must
//     be formatted as `terraform fmt` formats it);
//
// and a shell block with none of these is commands, run as they are. A
// block with no place fails the test, so a block added to a guide is
// placed, run and checked like the others, or the test says why not.

// blockRole is what a guide's block is to its reader.
type blockRole int

const (
	roleNone    blockRole = iota
	roleFile              // written to its path
	roleRun               // commands, run in the reader's folder
	rolePrints            // output of the commands before it
	roleLogs              // lines of the emulator's standard error
	roleExcerpt           // read only
)

func (r blockRole) String() string {
	return [...]string{"no place", "a file", "commands", "output", "log lines", "an excerpt"}[r]
}

// guideBlock is one fenced block of a guide, with the prose before it.
type guideBlock struct {
	N       int    // its position among the page's blocks, from 1
	Lang    string // the fence's info string
	Section string // the heading it is under
	Caption string // the paragraph right before it, on one line
	Prose   string // all the text since the block before it
	Text    string
	Role    blockRole
	Path    string // for a file
}

func (b *guideBlock) String() string {
	return fmt.Sprintf("block %d (```%s under %q, after %q)", b.N, b.Lang, b.Section, tailText(b.Caption, 90))
}

var (
	fenceLine   = regexp.MustCompile("^(\\s*)```([A-Za-z0-9_-]*)\\s*$")
	fileCaption = regexp.MustCompile("`([^`\\s]*[./][^`\\s]*)`:$")
	listMarker  = regexp.MustCompile(`^\s*(?:[-*+]|\d+\.)\s+`)
)

// readGuide parses docs/guides/<name>.md.
func readGuide(t *testing.T, name string) []*guideBlock {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "guides", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseGuide(string(b))
	if err != nil {
		t.Fatalf("docs/guides/%s.md: %v", name, err)
	}
	return blocks
}

func parseGuide(page string) ([]*guideBlock, error) {
	lines := strings.Split(page, "\n")
	var (
		blocks  []*guideBlock
		section string
		prose   []string // since the last block
		para    []string // the last paragraph
		ended   bool     // a blank line ended it
	)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		m := fenceLine.FindStringSubmatch(line)
		if m == nil {
			switch {
			case strings.HasPrefix(line, "#"):
				section = strings.TrimSpace(strings.TrimLeft(line, "#"))
				para, ended = nil, false
			case strings.TrimSpace(line) == "":
				ended = true
			default:
				if ended {
					para, ended = nil, false
				}
				para = append(para, strings.TrimSpace(listMarker.ReplaceAllString(line, "")))
			}
			prose = append(prose, line)
			continue
		}
		indent := m[1]
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			return nil, fmt.Errorf("line %d: a block that does not end", i+1)
		}
		b := &guideBlock{N: len(blocks) + 1, Lang: m[2], Section: section, Caption: strings.Join(para, " "),
			Prose: strings.Join(prose, "\n"), Text: strings.Join(body, "\n") + "\n"}
		b.Role, b.Path = placeOf(b)
		blocks = append(blocks, b)
		prose, para, ended = nil, nil, false
		i = j
	}
	return blocks, nil
}

// placeOf reads a block's place from its caption.
func placeOf(b *guideBlock) (blockRole, string) {
	c := strings.TrimSpace(b.Caption)
	switch {
	case strings.HasSuffix(c, "prints:"):
		return rolePrints, ""
	case strings.HasSuffix(c, "logs:"):
		return roleLogs, ""
	case strings.HasSuffix(c, "for example:"):
		return roleExcerpt, ""
	}
	if m := fileCaption.FindStringSubmatch(c); m != nil {
		return roleFile, m[1]
	}
	switch b.Lang {
	case "sh", "shell", "bash":
		return roleRun, ""
	}
	return roleNone, ""
}

// reader follows a guide as a user does: a folder of their own, a home
// folder of their own (no CLI configuration but what a guide has them
// write), the terraform under test on PATH as `terraform`.
type reader struct {
	t    *testing.T
	dir  string // where files go and commands run
	home string
	env  []string // the environment each block starts from, besides what earlier blocks exported

	// rewrites adapt the guide to the test's machine (a free port for the
	// guide's fixed one, a temporary folder for /opt): each must apply
	// somewhere, or the guide changed and the test must follow.
	rewrites []*rewrite
	// hooks check what the guide claims around a block, or run it the
	// way the claim needs; each must find its block.
	hooks []*hook
	// steps are what the prose asks of the reader outside any block
	// (download an archive, install the provider as the README says),
	// done where the guide says so and not before.
	steps []*readerStep

	state   string // the exported environment and working folder blocks leave
	lastOut string
	printed map[string]string // values a reader copies from what was printed: keys of JSON objects
	servers []*guideServer
	left    []process // what blocks left running in the background, stopped at the end
	block   *guideBlock
}

// process is one process, by its id and its start (so that an id the
// system gave again to another process is not taken for it).
type process struct {
	pid   int
	start string
}

type rewrite struct {
	from, to string
	used     int
}

type hook struct {
	name   string
	match  func(b *guideBlock) bool
	before func(r *reader, b *guideBlock)
	// run replaces the reader's run of the block (it may call r.run).
	run   func(r *reader, b *guideBlock, text string)
	after func(r *reader, b *guideBlock)
	used  int
}

type readerStep struct {
	name   string
	phrase *regexp.Regexp
	do     func(r *reader)
	done   bool
}

// guideServer is an emulator a block started in the foreground.
type guideServer struct {
	cmd       *exec.Cmd
	out, errs string // files of its standard output and error
	exited    chan struct{}
}

// newReader makes the reader's folders and environment: the terraform the
// tests run, as `terraform` on PATH; the user's caches (Go's, npm's and
// the emulator's package cache), so nothing is downloaded again; nothing
// of the test's own Terraform or tenant settings.
func newReader(t *testing.T) *reader {
	t.Helper()
	r := &reader{t: t, dir: t.TempDir(), home: t.TempDir(), printed: map[string]string{}}
	bin := t.TempDir()
	if err := os.Symlink(terraformBinary(t), filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	realHome, _ := os.UserHomeDir()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "TENANT_") || strings.HasPrefix(name, "AUTH0_") ||
			name == "HOME" || name == "PATH" || name == "CHECKPOINT_DISABLE" {
			continue
		}
		r.env = append(r.env, kv)
	}
	r.env = append(r.env, "HOME="+r.home, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CHECKPOINT_DISABLE=1",
		"XDG_CACHE_HOME="+cache, "npm_config_cache="+filepath.Join(realHome, ".npm"))
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		r.env = append(r.env, name+"="+strings.TrimSpace(string(out)))
	}
	r.state = filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(r.state+".env", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.state+".cwd", []byte(r.dir), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.stop)
	return r
}

// rewrite makes the test replace from with to in every block.
func (r *reader) rewrite(from, to string) {
	r.rewrites = append(r.rewrites, &rewrite{from: from, to: to})
}

// hookOn adds a hook on the one block whose text holds marker (and, when
// role is not roleNone, that has that role).
func (r *reader) hookOn(marker string, role blockRole, h hook) {
	h.match = func(b *guideBlock) bool {
		return strings.Contains(b.Text, marker) && (role == roleNone || b.Role == role)
	}
	if h.name == "" {
		h.name = fmt.Sprintf("the %s block with %q", role, marker)
	}
	r.hooks = append(r.hooks, &h)
}

// step adds something the prose asks of the reader; it is done before the
// first block after a passage that matches phrase.
func (r *reader) step(name, phrase string, do func(r *reader)) {
	r.steps = append(r.steps, &readerStep{name: name, phrase: regexp.MustCompile(phrase), do: do})
}

// walk follows the guide's blocks in order.
func (r *reader) walk(blocks []*guideBlock) {
	t := r.t
	t.Helper()
	for _, b := range blocks {
		r.block = b
		for _, s := range r.steps {
			if !s.done && s.phrase.MatchString(b.Prose) {
				t.Logf("%s: %s", b, s.name)
				s.do(r)
				s.done = true
			}
		}
		text := b.Text
		for _, rw := range r.rewrites {
			if strings.Contains(text, rw.from) {
				rw.used++
				text = strings.ReplaceAll(text, rw.from, rw.to)
			}
		}
		var hooks []*hook
		for _, h := range r.hooks {
			if h.match(b) {
				h.used++
				hooks = append(hooks, h)
			}
		}
		for _, h := range hooks {
			if h.before != nil {
				h.before(r, b)
			}
		}
		ran := false
		for _, h := range hooks {
			if h.run != nil {
				h.run(r, b, text)
				ran = true
			}
		}
		if !ran {
			r.place(b, text)
		}
		for _, h := range hooks {
			if h.after != nil {
				h.after(r, b)
			}
		}
	}
	for _, h := range r.hooks {
		if h.used != 1 {
			t.Errorf("%s: %d blocks of the guide match it, want 1: the guide changed; make the test follow it", h.name, h.used)
		}
	}
	for _, rw := range r.rewrites {
		if rw.used == 0 {
			t.Errorf("no block holds %q any more, which the test replaces with %q: make the test follow the guide", rw.from, rw.to)
		}
	}
	for _, s := range r.steps {
		if !s.done {
			t.Errorf("the guide no longer says (before a block) what the test looks for to %s: %s", s.name, s.phrase)
		}
	}
}

// place does with a block what its place says.
func (r *reader) place(b *guideBlock, text string) {
	t := r.t
	t.Helper()
	switch b.Role {
	case roleFile:
		r.write(b.Path, text)
	case roleRun:
		if server := emulatorCommand.MatchString(strings.TrimSpace(stripComments(text))); server {
			r.serve(text)
			return
		}
		out, err := r.run(text)
		if err != nil {
			t.Fatalf("%s failed (%v):\n%s\n%s", b, err, text, out)
		}
	case rolePrints:
		if err := matchLines(text, r.lastOut); err != nil {
			t.Fatalf("%s is not what the command before it printed: %v\nprinted:\n%s", b, err, r.lastOut)
		}
	case roleLogs:
		if len(r.servers) == 0 {
			t.Fatalf("%s shows log lines, and no block started an emulator", b)
		}
		logs := r.serverLog(r.servers[len(r.servers)-1])
		if err := matchLines(text, logs); err != nil {
			t.Fatalf("%s is not in the emulator's log: %v\nthe log:\n%s", b, err, logs)
		}
	case roleExcerpt:
		if b.Lang == "terraform" || b.Lang == "hcl" {
			cmd := exec.Command(terraformBinary(t), "fmt", "-")
			cmd.Stdin = strings.NewReader(text)
			out, err := cmd.Output()
			if err != nil || string(out) != text {
				t.Fatalf("%s is not formatted as terraform fmt formats it (%v):\n%s", b, err, out)
			}
		}
	default:
		t.Fatalf("%s has no place: end the prose before it with the file's path (\"`path`:\"), \"prints:\", \"logs:\" "+
			"or \"for example:\", or make it a shell block of commands (docs/guides are tested as users read them; see CONTRIBUTING.md)", b)
	}
}

// emulatorCommand is a block that starts the emulator in the foreground,
// where it serves until it is stopped: the reader leaves it running.
var emulatorCommand = regexp.MustCompile(`^\./tenant-emulator\b[^&\n]*$`)

func stripComments(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// write writes a file of the reader's folder.
func (r *reader) write(path, text string) {
	r.t.Helper()
	full := filepath.Join(r.dir, path)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// read reads a file of the reader's folder.
func (r *reader) read(path string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, path))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

var placeholder = regexp.MustCompile(`<([a-z][a-z0-9_]*)>`)

// fill puts in what a reader copies from earlier output: <client_id> is
// the client_id a JSON object printed before.
func (r *reader) fill(text string) string {
	r.t.Helper()
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		key := m[1 : len(m)-1]
		v, ok := r.printed[key]
		if !ok {
			r.t.Fatalf("%s asks for %s, which nothing printed before it", r.block, m)
		}
		return v
	})
}

// run runs commands in the reader's shell: they start where the block
// before left (its exported variables, its folder) and leave theirs to the
// next. It returns their output (standard output and error together).
func (r *reader) run(text string, extra ...string) (string, error) {
	out, err := r.shell(r.fill(text), true, extra)
	r.lastOut = out
	r.remember(out)
	return out, err
}

// terraform runs terraform with args in the reader's shell, outside the
// guide's blocks (keeping nothing for them), and fails the test when it
// fails.
func (r *reader) terraform(args string) string {
	r.t.Helper()
	out, err := r.runOnce("terraform " + args)
	if err != nil {
		r.t.Fatalf("terraform %s: %v\n%s", args, err, out)
	}
	return out
}

// runOnce runs commands as run does, with extra variables, and keeps
// nothing for the next block: a run the test makes besides the reader's.
func (r *reader) runOnce(text string, extra ...string) (string, error) {
	return r.shell(r.fill(text), false, extra)
}

func (r *reader) shell(text string, keep bool, extra []string) (string, error) {
	r.t.Helper()
	dir := r.t.TempDir()
	block := filepath.Join(dir, "block.sh")
	if err := os.WriteFile(block, []byte(text), 0o600); err != nil {
		r.t.Fatal(err)
	}
	wrapper := fmt.Sprintf("set -e -o pipefail\nsource %[1]q\ncd \"$(cat %[2]q)\"\n", r.state+".env", r.state+".cwd")
	for _, kv := range extra {
		name, value, _ := strings.Cut(kv, "=")
		wrapper += fmt.Sprintf("export %s=%q\n", name, value)
	}
	wrapper += fmt.Sprintf("source %q\n", block)
	if keep {
		wrapper += fmt.Sprintf("export -p >%[1]q\npwd >%[2]q\n", r.state+".env", r.state+".cwd")
	}
	outFile := filepath.Join(dir, "out")
	f, err := os.Create(outFile)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", wrapper)
	cmd.Env = r.env
	// A prompt ("Do you want to perform these actions?") gets the answer a
	// reader types; commands that run in the background keep writing to
	// the file, and the block is over when the shell is.
	cmd.Stdin = strings.NewReader(strings.Repeat("yes\n", 20))
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	err = cmd.Wait()
	r.left = append(r.left, groupMembers(cmd.Process.Pid)...)
	out, _ := os.ReadFile(outFile)
	return ansi.ReplaceAllString(string(out), ""), err
}

// ansi matches the colours terraform prints without -no-color, which the
// guides' commands leave on, as a reader does.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// groupMembers are the processes of a process group, read from /proc
// (none where there is no /proc: a block's background processes then
// outlive the test).
func groupMembers(pgid int) []process {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []process
	for _, path := range stats {
		if p, group, ok := readStat(path); ok && group == pgid {
			out = append(out, p)
		}
	}
	return out
}

// readStat reads a process's id, group and start from /proc/<pid>/stat.
func readStat(path string) (process, int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return process{}, 0, false
	}
	// pid (comm) state ppid pgrp ... starttime is the 22nd field; comm
	// may hold spaces, so fields are counted after its closing parenthesis.
	s := string(b)
	i := strings.LastIndex(s, ")")
	if i < 0 {
		return process{}, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return process{}, 0, false
	}
	var pid, group int
	if _, err := fmt.Sscan(strings.Fields(s[:i])[0], &pid); err != nil {
		return process{}, 0, false
	}
	if _, err := fmt.Sscan(f[2], &group); err != nil {
		return process{}, 0, false
	}
	return process{pid: pid, start: f[19]}, group, true
}

// remember keeps the values of the JSON objects output holds, one a line.
func (r *reader) remember(out string) {
	for _, line := range strings.Split(out, "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(strings.TrimSpace(line)), &obj) != nil {
			continue
		}
		for k, v := range obj {
			switch v := v.(type) {
			case string:
				r.printed[k] = v
			case float64:
				r.printed[k] = fmt.Sprint(v)
			}
		}
	}
}

// serve starts a block that serves in the foreground, as a reader leaves
// it running in a terminal of its own, and waits for its JSON line.
func (r *reader) serve(text string) {
	t := r.t
	t.Helper()
	dir := t.TempDir()
	s := &guideServer{out: filepath.Join(dir, "out"), errs: filepath.Join(dir, "err"), exited: make(chan struct{})}
	stdout, err := os.Create(s.out)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr, err := os.Create(s.errs)
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	wrapper := fmt.Sprintf("source %q\ncd \"$(cat %q)\"\nexec %s", r.state+".env", r.state+".cwd", strings.TrimSpace(stripComments(r.fill(text))))
	s.cmd = exec.Command("bash", "--noprofile", "--norc", "-c", wrapper)
	s.cmd.Env, s.cmd.Stdout, s.cmd.Stderr = r.env, stdout, stderr
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.servers = append(r.servers, s)
	go func() { s.cmd.Wait(); close(s.exited) }()
	// The deadline only ends a test whose emulator never starts.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(s.out)
		if strings.Contains(string(b), "\n") {
			r.lastOut = string(b)
			r.remember(r.lastOut)
			return
		}
		select {
		case <-s.exited:
			t.Fatalf("%s: the emulator exited: %s", r.block, r.serverLog(s))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the emulator printed no line in two minutes: %s", r.block, r.serverLog(s))
		}
	}
}

func (r *reader) serverLog(s *guideServer) string {
	b, _ := os.ReadFile(s.errs)
	return string(b)
}

// stop stops every process the guide started and left running (what blocks
// left in the background, the emulators it started in the foreground), as
// a reader closes their terminals: each by its id, if it is still the
// process the block left.
func (r *reader) stop() {
	for _, p := range r.left {
		if q, _, ok := readStat(fmt.Sprintf("/proc/%d/stat", p.pid)); ok && q.start == p.start {
			_ = syscall.Kill(p.pid, syscall.SIGTERM)
		}
	}
	for _, s := range r.servers {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second): // only so that a stuck emulator does not hold the test
			_ = s.cmd.Process.Kill()
		}
	}
}

// matchLines checks that every line of example is, in order, a line of
// output: "..." stands for any text, a run of digits for any digits.
func matchLines(example, output string) error {
	var got []string
	for _, l := range strings.Split(output, "\n") {
		got = append(got, strings.TrimSpace(l))
	}
	i := 0
	for _, want := range strings.Split(strings.TrimSpace(example), "\n") {
		want = strings.TrimSpace(want)
		if want == "" {
			continue
		}
		re := regexp.MustCompile("^" + linePattern(want) + "$")
		for i < len(got) && !re.MatchString(got[i]) {
			i++
		}
		if i == len(got) {
			return fmt.Errorf("no line like %q (after the lines before it)", want)
		}
		i++
	}
	return nil
}

var digits = regexp.MustCompile(`[0-9]+`)

func linePattern(line string) string {
	parts := strings.Split(line, "...")
	for i, p := range parts {
		parts[i] = digits.ReplaceAllString(regexp.QuoteMeta(p), "[0-9]+")
	}
	return strings.Join(parts, ".*")
}

// platform is this machine's, as release archives name it.
func platform() string { return runtime.GOOS + "_" + runtime.GOARCH }

func tailText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// exitCode is the exit status of a command that failed, 0 when err is nil,
// -1 when it did not run.
func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// openTofuHost rewrites registry.terraform.io for OpenTofu, as the README
// says to, when the tests run OpenTofu.
func openTofuHost(t testing.TB, s string) string {
	t.Helper()
	if acctest.OpenTofu(t) {
		return strings.ReplaceAll(s, "registry.terraform.io", "registry.opentofu.org")
	}
	return s
}

// walkedGuides are the guides a test follows; a guide with commands or
// files must be one of them.
var walkedGuides = map[string]string{
	"testing": "TestTestingGuide", "emulator": "TestEmulatorGuide", "ci": "TestCIGuide",
	"adopt": "TestAdoptGuide", "migrate": "TestMigrateGuide",
}

// TestGuides_everyBlockHasAPlace: every block of every guide has a place
// its prose gives, whatever the tests of each guide can run here (a newer
// Terraform, the incumbent provider), and a guide with commands or files
// to follow has a test that follows it.
func TestGuides_everyBlockHasAPlace(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "guides", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no guides: %v", err)
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".md")
		followed := false
		for _, b := range readGuide(t, name) {
			switch b.Role {
			case roleNone:
				t.Errorf("docs/guides/%s.md: %s has no place: end the prose before it with the file's path (\"`path`:\"), "+
					"\"prints:\", \"logs:\" or \"for example:\", or make it a shell block of commands (see CONTRIBUTING.md)", name, b)
			case roleFile, roleRun:
				followed = true
			}
		}
		if _, ok := walkedGuides[name]; followed && !ok {
			t.Errorf("docs/guides/%s.md has commands or files, and no test follows it: add one beside %v", name, walkedGuides)
		}
	}
}
