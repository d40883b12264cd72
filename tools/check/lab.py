"""lab_check: `make check`'s "lab" stage.  The lab tools
(tools/lab/pmu-harness) and TAP's own consumer, Perl's prove, run on every
log the boot matrix and the kill stage just wrote, and must agree with what
the log says (docs/lab.md, docs/check.md).

For every log (serial capture and boot-volume file) under --logs:
  prove     `prove --merge --exec cat LOG` (PROVE) passes exactly when
            the log passes: a summary with failed=0, no Bail out!, no
            damage (pmulog)
  parse     `pmu-harness parse LOG` exits 0 for an intact log, 3 for a
            damaged one, and its JSON holds every result pmulog reads
  compare   `pmu-harness compare LOG LOG` (serial logs): clean, exit 0
            (3 for a damaged log), nothing changed
  capture   `pmu-harness capture --port LOG` (serial logs of boots whose
            volume log is the whole serial log, tools/check/matrix.yaml): the
            clean log it writes is byte for byte the harness's own log
            file from the boot volume
Over all serial logs at once:
  junit     `pmu-harness junit`: valid (xmllint) against tools/lab/junit.xsd
            and the schemas CI servers use, Jenkins xUnit's junit-10.xsd
            and Ant's JUnit.xsd (tools/lab/tests/data/junit-schemas/), one
            testsuite per log whose counts equal the log's; and the JUnit
            of a passing, a failing, a hung (a test in flight when the log
            stops: the kill stage's) and a damaged log, valid against the
            same three, the hung test an error of its own name
  report    `pmu-harness report`: rendered by headless Chromium; the DOM
            names every log's machine and shows its counts, and has a
            verdict per log, PASSED only for a log that passes

Prints one "ok - lab: ..." / "not ok - lab: ..." line per check; exits 0
only when every check passed and at least one ran.

Starting a tool (Python's imports, Perl's) costs more than its work on one
log, so the per-log checks run each tool once over many logs (batch_*
below), and a log's check is still judged on what the tool did with that
log:
  prove     one prove over the logs pmulog finds no Bail out! in: its
            per-file line ("LOG .... ok" or a failure) is exactly what
            prove on LOG alone exits 0 or not for (TAP::Parser's
            has_problems), and its exit status must agree; a Bail out!
            stops prove, so those logs run alone
  parse     one call for the intact logs: exit 0 for all of them is exit
            0 for each (the status is the worst log's); the JSON has one
            entry per log, as alone (--indent 0: the same JSON on one
            line).  Each damaged log runs alone (exit 3 for a set would
            not show that every one of them gives 3)
  compare   one call with every intact serial log as a pair LOG LOG
            (compare takes several pairs): exit 0 for all is exit 0 for
            each, one text block per pair; damaged logs run alone
  capture   one capture with a --port per log (a row of machines): exit
            0, 77 (untested) or 1 for all is one of them for each; its last lines name each
            port's clean log
When a batch's result cannot be read per log (a status not wanted, prove
bailing out, a line or block missing), every log of it is checked alone,
as before batching, so a failure is still pinned on its log.

    python3 -m tools.check.lab --logs DIR [--out DIR]
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.lab import browser, common, pmulog
from tools.lab import parse as lparse

from . import boottable

HERE = Path(__file__).resolve().parent
LAB = HERE.parent / "lab"
TOOL = [sys.executable, str(LAB / "pmu-harness")]
XSD = LAB / "junit.xsd"
CI_SCHEMAS = LAB / "tests" / "data" / "junit-schemas"
XSDS = (XSD, CI_SCHEMAS / "junit-10.xsd", CI_SCHEMAS / "JUnit.xsd")
LIMIT = 300             # seconds any one command may take
# prove reads each log through cat.  --merge: cat's stderr (empty unless
# the log cannot be read, and then cat fails the file anyway) joins the
# TAP stream, so prove reads one pipe instead of select()ing two per
# line: the verdicts are the same, prove takes a sixth less time.
PROVE = ["prove", "--merge", "--exec", "cat"]


class Checks:
    def __init__(self):
        self.passed = self.failed = 0
        self.lock = threading.Lock()

    def say(self, ok, text, detail=""):
        with self.lock:
            self._say(ok, text, detail)

    def _say(self, ok, text, detail):
        print(f"{'ok' if ok else 'not ok'} - lab: {text}", flush=True)
        if not ok:
            for line in str(detail).strip().splitlines()[-20:]:
                print(f"#   {line}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run(argv, **kw):
    """(exit status, stdout, stderr) of argv; never a shell."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           errors="replace", timeout=LIMIT,
                           stdin=subprocess.DEVNULL, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, "", f"{argv[0]}: {e}"
    return p.returncode, p.stdout, p.stderr


def passes(log):
    """The log's own verdict: complete, intact, nothing failed."""
    s = log.summary
    return (not log.parse_errors and not log.bail_outs and s is not None
            and s.failed == 0 and s.passed + s.skipped > 0)


def check_prove(c, path, log):
    rc, out, err = run(PROVE + [str(path)])
    say_prove(c, path, log, rc == 0 if rc >= 0 else None, out + err)


def say_prove(c, path, log, passed, detail):
    """passed: prove's verdict on the log (None: prove did not run)."""
    want = passes(log)
    c.say(passed is not None and passed == want,
          f"{path.name}: prove {'PASS' if passed else 'FAIL'}, the log "
          f"{'passes' if want else 'does not pass'}", detail)


# After a file's name, prove's dots: "LOG ......... ok".
_PROVE_DOTS = re.compile(r" \.+ (.*)")


def prove_lines(out, paths):
    """{path: (passed, its lines of output)} for the logs whose verdict
    prove's per-file output tells for sure.  A file's line is "LOG ..... "
    then "ok" (TAP::Parser found no problem: `prove LOG` alone exits 0)
    or, from the next line on, what the problems are (`prove LOG` alone
    fails); "skipped: ..." (a skip_all plan) is printed whatever the
    problems, so it tells nothing, nor does anything else."""
    lines = out.splitlines()
    heads = {}                  # line number -> (path, what follows)
    for i, line in enumerate(lines):
        for path in paths:
            name = str(path)
            m = line.startswith(name + " ") and \
                _PROVE_DOTS.fullmatch(line, len(name))
            if m:
                heads[i] = (path, m[1])
    starts = sorted(heads) + [len(lines)]
    verdicts = {}
    for i, end in zip(starts, starts[1:]):
        path, rest = heads[i]
        if rest == "ok":
            verdicts[path] = (True, lines[i:end])
        elif rest == "" and end > i + 1:
            verdicts[path] = (False, lines[i:end])
    return verdicts


def batch_prove(c, paths, logs):
    """One prove over paths (none with a Bail out! pmulog sees).  Its
    exit status must agree with the per-file lines (0 exactly when every
    file has an "ok" line); a log without a verdict runs alone."""
    if not paths:
        return
    rc, out, err = run(PROVE + [str(p) for p in paths])
    verdicts = prove_lines(out, paths)
    all_ok = len(verdicts) == len(paths) and \
        all(passed for passed, _ in verdicts.values())
    if rc not in (0, 1) or (rc == 0) != all_ok or \
            "Bailout called." in out + err:
        verdicts = {}           # prove stopped, or said what we cannot read
    for path in paths:
        if path in verdicts:
            passed, block = verdicts[path]
            say_prove(c, path, logs[path], passed, "\n".join(block))
        else:
            check_prove(c, path, logs[path])


def check_parse(c, path, log):
    rc, out, err = run(TOOL + ["parse", str(path)])
    try:
        entry = json.loads(out)["logs"][0]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        c.say(False, f"{path.name}: parse wrote no usable JSON ({e})",
              err)
        return
    say_parse(c, path, log, rc, entry, err)


def say_parse(c, path, log, rc, entry, err):
    """entry: the log's object in parse's JSON; rc: parse's exit."""
    want_rc = common.EXIT_DAMAGED if log.parse_errors else common.EXIT_OK
    try:
        got = [(r["name"], r["status"]) for r in entry["results"]]
    except (KeyError, TypeError) as e:
        c.say(False, f"{path.name}: parse wrote no usable JSON ({e})",
              err)
        return
    want = [(r.name, r.status) for r in log.results]
    c.say(rc == want_rc and got == want,
          f"{path.name}: parse exit {rc} (want {want_rc}), "
          f"{len(got)} results (pmulog reads {len(want)})", err)


def batch_parse(c, paths, logs):
    """One parse over intact logs; wanted: exit 0, one entry per log."""
    if not paths:
        return
    # --indent 0: one line of JSON, the same objects; half the bytes to
    # write and read for 100+ logs.
    rc, out, err = run(TOOL + ["parse", "--indent", "0", *map(str, paths)])
    try:
        entries = json.loads(out)["logs"]
        ok = rc == common.EXIT_OK and [e["path"] for e in entries] == \
            [str(p) for p in paths]
    except (ValueError, KeyError, TypeError):
        ok = False
    for i, path in enumerate(paths):
        if ok:
            say_parse(c, path, logs[path], rc, entries[i], err)
        else:
            check_parse(c, path, logs[path])


def check_compare_self(c, path, log):
    rc, out, err = run(TOOL + ["compare", str(path), str(path)])
    say_compare(c, path, log, rc, out, err)


def say_compare(c, path, log, rc, out, err):
    """out: compare's text about the pair LOG LOG; rc: its exit."""
    want_rc = common.EXIT_DAMAGED if log.parse_errors else common.EXIT_OK
    c.say(rc == want_rc and "REGRESSION" not in out,
          f"{path.name}: compared with itself, exit {rc} (want {want_rc})",
          out + err)


def batch_compare(c, paths, logs):
    """One compare of the pairs LOG LOG of intact logs; wanted: exit 0
    and per pair one text block (blocks are separated by an empty line
    and start with "A: " and the log's label)."""
    if not paths:
        return
    rc, out, err = run(TOOL + ["compare"] +
                       [str(p) for p in paths for _ in "AB"])
    blocks = out.split("\n\n")
    ok = rc == common.EXIT_OK and len(blocks) == len(paths) and all(
        b.startswith(f"A: {common.log_label(logs[p])} (")
        for b, p in zip(blocks, paths))
    for i, path in enumerate(paths):
        if ok:
            say_compare(c, path, logs[path], rc, blocks[i], err)
        else:
            check_compare_self(c, path, logs[path])


def volume_of(path):
    return path.with_name(path.name[:-len(".log")] + ".volume.log")


def check_capture(c, path, out_dir):
    """The serial capture, read as a port: its clean log must be the
    boot volume's log file."""
    d = out_dir / "capture" / path.name[:-len(".log")]
    d.mkdir(parents=True, exist_ok=True)
    for old in d.iterdir():
        old.unlink()
    rc, out, err = run(TOOL + ["capture", "--port", str(path), "--out",
                               str(d), "--progress", "never"])
    logs = sorted(d.glob("*.log"))
    if len(logs) != 1:
        c.say(False, f"{path.name}: capture wrote {len(logs)} logs "
              f"(exit {rc})", out + err)
        return
    say_capture(c, path, rc, logs[0], out + err)


def say_capture(c, path, rc, clean, detail, ports=1):
    """rc: the exit of a capture of `ports` ports, this log one of them."""
    same = clean.read_bytes() == volume_of(path).read_bytes()
    of = f" for all {ports} ports" if ports > 1 else ""
    c.say(same and rc in (common.EXIT_OK, common.EXIT_FAIL,
                          common.EXIT_ERRORS, common.EXIT_UNTESTED),
          f"{path.name}: captured as a port (exit {rc}{of}), the clean log "
          f"{clean.name} is the boot volume's log file", detail)


def captured_logs(out, paths, d):
    """{port: its clean log} from capture's last lines, one per port:
    "PORT: D/NAME.log: passed=..." (stdout, complete captures)."""
    found = {}
    for path in paths:
        rx = re.compile(re.escape(f"{path}: {d}/") + r"([^/]+?\.log): ")
        names = [m[1] for m in map(rx.match, out.splitlines()) if m]
        if len(names) == 1:
            found[path] = d / names[0]
    return found


def batch_capture(c, paths, out_dir):
    """One capture with every serial log as a --port; wanted: exit 0 or
    1 (0 or 1 for every port), one clean log per port, each named."""
    if not paths:
        return
    d = out_dir / "capture"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    argv = TOOL + ["capture", "--out", str(d), "--progress", "never"]
    for path in paths:
        argv += ["--port", str(path)]
    rc, out, err = run(argv)
    found = captured_logs(out, paths, d)
    ok = rc in (common.EXIT_OK, common.EXIT_FAIL, common.EXIT_ERRORS,
                common.EXIT_UNTESTED) and \
        len(found) == len(paths) and \
        sorted(found.values()) == sorted(d.glob("*.log"))
    for path in paths:
        if ok:
            say_capture(c, path, rc, found[path],
                        lines_naming(out + err, path, found[path]),
                        len(paths))
        else:
            check_capture(c, path, out_dir)


def lines_naming(text, *names):
    """The lines of text that name one of names: a port's own lines in
    the output of a capture of many."""
    names = [str(n) for n in names]
    return "\n".join(l for l in text.splitlines()
                     if any(n in l for n in names))


def same_volume_boots(logs_dir):
    """Serial logs of the matrix boots whose volume log must equal the
    serial TAP text (volume_log: same), with both files present."""
    boots, _ = boottable.load(HERE / "matrix.yaml")   # errors: matrix's
    out = []
    for b in boots:
        serial = logs_dir / f"{b.name}.log"
        if b.volume_log == "same" and serial.exists() and \
                serial.with_name(f"{b.name}.volume.log").exists():
            out.append(serial)
    return out


def junit_counts(suite):
    """(passed, failed, skipped) of a testsuite's test cases for the log's
    tests (the log/* cases stand for damage, not tests); (-1,) when the
    suite's own attributes disagree with its test cases."""
    p = f = s = 0
    cases = suite.findall("testcase")
    for tc in cases:
        if tc.get("name", "").startswith("log/") or any(
                e.get("type") == "hung" for e in tc.findall("error")):
            continue            # damage, and the test the log stops in
        if tc.find("skipped") is not None:
            s += 1
        elif tc.find("failure") is not None or tc.find("error") is not None:
            f += 1
        else:
            p += 1
    attrs = [int(suite.get(k, -1)) for k in ("tests", "skipped")]
    if attrs != [len(cases), sum(tc.find("skipped") is not None
                                 for tc in cases)]:
        return (-1,)
    return p, f, s


def check_junit(c, serial, logs, out_dir):
    xml_path = out_dir / "junit.xml"
    rc, out, err = run(TOOL + ["junit", "-o", str(xml_path)]
                       + [str(p) for p in serial])
    if not xml_path.exists():
        c.say(False, f"junit: no XML written (exit {rc})", err)
        return
    say_valid(c, xml_path)
    try:
        suites = ET.parse(xml_path).getroot().findall("testsuite")
    except ET.ParseError as e:
        c.say(False, f"junit: {xml_path.name} is not XML: {e}")
        return
    c.say(len(suites) == len(serial), f"junit: {len(suites)} testsuites "
          f"for {len(serial)} logs")
    for suite, path in zip(suites, serial):
        log = logs[path]
        p, f, s = log.counts()
        got = junit_counts(suite)
        c.say(got == (p, f, s),
              f"junit: {path.name}: the suite's test cases pass, fail "
              f"and skip as the log's results ({p} {f} {s})", str(got))


def say_valid(c, xml_path):
    """xml_path validated against each schema of XSDS."""
    for xsd in XSDS:
        xrc, xout, xerr = run(["xmllint", "--noout", "--schema", str(xsd),
                               str(xml_path)])
        c.say(xrc == 0, f"junit: {xml_path.name} valid against {xsd.name}",
              xout + xerr)


def pick_kinds(paths, logs):
    """{kind: path} of a passing, a failing, a hung and a damaged log
    among paths (the first of each; a kind missing when none is)."""
    tests = {
        "passing": passes,
        "failing": lambda log: not log.parse_errors and log.summary is
        not None and log.summary.failed > 0,
        "hung": lambda log: lparse.in_flight(log) is not None,
        "damaged": lambda log: bool(log.parse_errors) and
        lparse.in_flight(log) is None,
    }
    out = {}
    for kind, test in tests.items():
        for p in paths:
            if test(logs[p]):
                out[kind] = p
                break
    return out


def check_junit_kinds(c, paths, logs, out_dir):
    """The JUnit of a passing, a failing, a hung and a damaged log, in
    one document, against every schema; the hung test is named."""
    kinds = pick_kinds(paths, logs)
    for kind in ("passing", "failing", "hung", "damaged"):
        c.say(kind in kinds, f"junit: a {kind} log among the logs: "
              f"{kinds[kind].name if kind in kinds else 'none'}")
    if not kinds:
        return
    xml_path = out_dir / "junit-kinds.xml"
    order = list(kinds.values())
    rc, _, err = run(TOOL + ["junit", "-o", str(xml_path)]
                     + [str(p) for p in order])
    if not xml_path.exists():
        c.say(False, f"junit: no XML written (exit {rc})", err)
        return
    say_valid(c, xml_path)
    if "hung" not in kinds:
        return
    try:
        suites = ET.parse(xml_path).getroot().findall("testsuite")
        suite = suites[order.index(kinds["hung"])]
    except (ET.ParseError, IndexError) as e:
        c.say(False, f"junit: {xml_path.name} has no hung log's suite: {e}")
        return
    name = lparse.in_flight(logs[kinds["hung"]]).name
    hung = [tc.get("name") for tc in suite.findall("testcase")
            if any(e.get("type") == "hung" for e in tc.findall("error"))]
    c.say(hung == [name], f"junit: {kinds['hung'].name}: the test in "
          f"flight, {name}, is an error of its own", str(hung))


def check_report(c, serial, logs, out_dir):
    html = out_dir / "report.html"
    rc, out, err = run(TOOL + ["report", "-o", str(html)]
                       + [str(p) for p in serial])
    if not html.exists():
        c.say(False, f"report: no page written (exit {rc})", err)
        return
    try:
        dom = browser.dump_dom(html)
    except browser.BrowserError as e:
        c.say(False, f"report: headless Chromium could not render it: {e}")
        return
    c.say("<svg" in dom, "report: Chromium rendered the page, with SVG "
          "plots", dom[:400])
    for path in serial:
        log = logs[path]
        label = common.log_label(log)
        c.say(browser.text_in_dom(dom, label),
              f"report: the page shows {label}")
    words = {int(n): w for n, w in _VERDICT.findall(dom)}
    green = [serial[n - 1] for n, w in words.items()
             if w == "PASSED" and 0 < n <= len(serial)]
    wrong = [p.name for p in green if not passes(logs[p])]
    c.say(sorted(words) == list(range(1, len(serial) + 1)) and not wrong,
          f"report: a verdict for each of the {len(serial)} logs, PASSED "
          f"for {len(green)} that pass", f"{sorted(words)} {wrong}")


# A verdict line of the report's DOM (tools/lab/templates/report.html.j2,
# "verdicts").
_VERDICT = re.compile(r'<li class="v" data-log="(\d+)" '
                      r'data-verdict="([A-Z ]+)"')


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", required=True, type=Path)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    out_dir = a.out or a.logs / "lab"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = sorted(p for p in a.logs.glob("**/*.log")
                   if out_dir not in p.parents)
    serial = [p for p in paths if not p.name.endswith(".volume.log")
              and p.parent == a.logs]
    c = Checks()
    if not paths:
        c.say(False, f"no logs under {a.logs}: run the matrix first")
        return 1
    logs = {p: pmulog.parse_file(p) for p in paths}
    intact = [p for p in paths if not logs[p].parse_errors]
    damaged = [p for p in paths if logs[p].parse_errors]
    bailing = [p for p in paths if logs[p].bail_outs]
    captured = same_volume_boots(a.logs)
    # The batches first, the longest (prove) first, then the logs that
    # run alone.
    jobs = [lambda: batch_prove(c, [p for p in paths if p not in bailing],
                                logs),
            lambda: batch_parse(c, intact, logs),
            lambda: batch_compare(c, [p for p in intact if p in serial],
                                  logs),
            lambda: batch_capture(c, captured, out_dir)]
    # junit, its schemas and report over every log: subprocesses too,
    # beside the batches
    jobs += [lambda: check_junit(c, serial, logs, out_dir),
             lambda: check_junit_kinds(c, paths, logs, out_dir),
             lambda: check_report(c, serial, logs, out_dir)]
    jobs += [lambda p=p: check_prove(c, p, logs[p]) for p in bailing]
    jobs += [lambda p=p: check_parse(c, p, logs[p]) for p in damaged]
    jobs += [lambda p=p: check_compare_self(c, p, logs[p])
             for p in damaged if p in serial]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda job: job(), jobs))
    if not captured:
        c.say(False, "capture: no boot of tools/check/matrix.yaml left a "
              "serial and a volume log to compare")
    print(f"# lab: passed={c.passed} failed={c.failed}")
    return 0 if c.failed == 0 and c.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
