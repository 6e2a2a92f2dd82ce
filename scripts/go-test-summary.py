"""Reads `go test -json` on standard input (scripts/go-test.sh): prints a line
per package as it ends, the output of every test that fails, and at the end
the tests that skipped, each with its reason, and the counts."""
import json
import sys

MODULE = "github.com/tenant-iac/terraform-provider-tenant/"

output = {}  # (package, test) -> output lines
skipped = []  # (package, test, reason)
counts = {"pass": 0, "fail": 0, "skip": 0}


def short(pkg):
    if pkg == MODULE.rstrip("/"):
        return "."
    return pkg[len(MODULE):] if pkg.startswith(MODULE) else pkg


def reason(lines):
    """The skip's message: the test's output without go test's own lines."""
    said = [l.strip() for l in lines if l.strip() and not l.lstrip().startswith(("=== ", "--- "))]
    # "file_test.go:12: message": keep the message.
    return " / ".join(l.split(": ", 1)[1] if ".go:" in l.split(": ", 1)[0] else l for l in said) or "(no reason given)"


for raw in sys.stdin:
    try:
        ev = json.loads(raw)
    except ValueError:
        sys.stdout.write(raw)  # build errors and other plain text
        continue
    action, pkg, test = ev.get("Action"), ev.get("Package", ev.get("ImportPath", "")), ev.get("Test")
    if action == "build-output":
        sys.stdout.write(ev.get("Output", ""))
    elif action == "output":
        output.setdefault((pkg, test), []).append(ev.get("Output", ""))
    elif action in counts and test:
        counts[action] += 1
        lines = output.pop((pkg, test), [])
        if action == "fail":
            sys.stdout.write("".join(lines))
        elif action == "skip":
            skipped.append((short(pkg), test, reason(lines)))
    elif action in counts:  # a package ends
        lines = output.pop((pkg, None), [])
        if action == "fail":
            sys.stdout.write("".join(l for l in lines if not l.startswith(("=== ", "--- ", "PASS", "FAIL", "ok "))))
            print("FAIL  %s  %.1fs" % (short(pkg), ev.get("Elapsed", 0)))
        elif action == "skip":
            print("-     %s  (no tests)" % short(pkg))
        else:
            print("ok    %s  %.1fs" % (short(pkg), ev.get("Elapsed", 0)))
    sys.stdout.flush()

if skipped:
    print()
    print("Skipped tests (%d), and why:" % len(skipped))
    for pkg, test, why in skipped:
        print("  %s %s: %s" % (pkg, test, why))
print()
print("go test: %d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
