"""A large log for the scale tests (docs/lab.md, "Lab scale"), made of a
real one: the results of a source log (by default the verbose Nehalem
serial capture of tools/testing/fixtures/lab/, with its firmware output,
CR LF line ends and "# running" lines) repeated and renumbered until the
log reaches a size; its header, "# time:" line, plan and summary are kept
(plan and summary counting the results written), so the log is as
intact as its source; its "# error:" lines are left out unless asked
for, so that the log PASSES.  Copy k > 0 of a test is named NAME-kK, so that
every name is distinct (a lab's row of many logs has many tests); with
unique=False the names repeat, as a run that restarted repeats them.

    python3 -m tools.lab.tests.biglog OUT.log [MB] [--repeat-names]

writes a log of about MB megabytes (default 200: about 372,000
results).  Nothing large is committed: the tests build theirs in a
temporary directory.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "tools/testing/fixtures/lab/nehalem-verbose.serial.log"

_RESULT = re.compile(rb"^(not ok|ok) (\d+) - (.*?)( # (?:SKIP|TODO)\b.*)?$",
                     re.S)
_SUMMARY = re.compile(rb"^# summary: passed=\d+ failed=\d+ skipped=\d+(.*)$",
                      re.S)


def _split(source):
    """(head, body chunks, tail) of a log's lines (bytes with their line
    ends): the chunks are the results, each with the comments before it
    and its YAML block; tail from the "# time:" line (or the plan) on."""
    lines = Path(source).read_bytes().splitlines(keepends=True)
    text = [l.rstrip(b"\r\n") for l in lines]
    first = next(i for i, t in enumerate(text)
                 if t.startswith(b"# running ") or _RESULT.match(t))
    last = next(i for i, t in enumerate(text)
                if t.startswith(b"# time:") or re.match(rb"^1\.\.\d+$", t))
    chunks, cur = [], []
    for line, t in zip(lines[first:last], text[first:last]):
        cur.append(line)
        if _RESULT.match(t):
            chunks.append(cur)
            cur = []
        elif chunks and not cur[:-1] and not t.startswith(b"#"):
            # a YAML line after a result: it belongs to that result
            chunks[-1].append(cur.pop())
    assert not cur, "comments after the last result"
    return lines[:first], chunks, lines[last:]


def write(path, megabytes=200, source=SOURCE, unique=True, errors=False):
    """Writes the log to path; returns (results, bytes).  errors: keep
    the source's "# error:" lines (the Nehalem capture has three: the
    log is then ERRORS, not PASSED)."""
    head, chunks, tail = _split(source)
    if not errors:
        head = [l for l in head if not l.startswith(b"# error:")]
    target = int(megabytes * 1e6)
    counts = {"ok": 0, "not ok": 0, "skip": 0}
    n = size = 0
    with open(path, "wb") as out:
        for line in head:
            out.write(line)
            size += len(line)
        budget = target - size - sum(map(len, tail))
        copy = 0
        while size < budget:
            suffix = b"-k%d" % copy if unique and copy else b""
            for chunk in chunks:
                for line in chunk:
                    eol = line[len(line.rstrip(b"\r\n")):]
                    m = _RESULT.match(line.rstrip(b"\r\n"))
                    if m:
                        n += 1
                        status, _, name, directive = m.groups()
                        line = b"%s %d - %s%s%s%s" % (
                            status, n, name, suffix, directive or b"", eol)
                        skip = directive and directive.startswith(b" # SKIP")
                        counts["skip" if status == b"ok" and skip else
                               "ok" if status == b"ok" or
                               (directive or b"").startswith(b" # TODO")
                               else "not ok"] += 1
                    out.write(line)
                    size += len(line)
            copy += 1
        for line in tail:
            eol = line[len(line.rstrip(b"\r\n")):]
            t = line.rstrip(b"\r\n")
            if re.match(rb"^1\.\.\d+$", t):
                line = b"1..%d%s" % (n, eol)
            m = _SUMMARY.match(t)
            if m:
                line = b"# summary: passed=%d failed=%d skipped=%d%s%s" % (
                    counts["ok"], counts["not ok"], counts["skip"],
                    m.group(1), eol)
            out.write(line)
            size += len(line)
    return n, size


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args or len(args) > 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    n, size = write(args[0], float(args[1]) if len(args) > 1 else 200,
                    unique="--repeat-names" not in argv)
    print(f"{args[0]}: {n} results, {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
