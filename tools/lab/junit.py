"""pmu-harness junit: logs as JUnit XML for Jenkins and GitLab.

    xml_bytes = junit.render([parse.analyse(p) for p in paths])

One <testsuite> per log, named after the machine (lab.common.log_label),
with a model run's name ending "(model counts, not hardware counts)" and
the property backend=model; one <testcase> per result (classname: the
test's group, name: group/name, time: the seconds the log says it took,
else 0); a failed test's <failure> carries the YAML block; a damaged log
gets a "log/damaged" testcase whose <error> lists every damage with its
line, and "log/missing-results" for the results its plan promised but
the log never reached, so that a cut run shows as broken, not green; the
test in flight when the log stops (its last "# running" line, no result
after it) is a testcase of its own name with <error type="hung">; a run
with "# error:" lines gets "log/errors", an untested one "log/untested"
and one without a result "log/no-tests".  The suite's properties carry
the log's verdict (tools/lab/verdict.py), and the exit status is the
run's status of the worst verdict (docs/lab.md, "Verdicts and exit
statuses").

The output is valid against the schemas CI servers validate with:
Jenkins xUnit's junit-10.xsd and Ant's JUnit.xsd (windyroad/JUnit-Schema),
kept in tools/lab/tests/data/junit-schemas/ (README there says what the
two demand together), and the project's tools/lab/junit.xsd.
The manual: docs/lab.md (parse, junit).
"""

import os
import re
import sys
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

from . import common, verdict
from . import parse as lparse

PROG = "junit"
PACKAGE = "pmu-harness"     # testsuite@package (Ant's schema requires one)
UNKNOWN_TIME = "1970-01-01T00:00:00"    # timestamp when nothing tells it
MODEL_NOTE = "model counts, not hardware counts"
SCHEMA = Path(__file__).resolve().parent / "junit.xsd"

# XML 1.0 (section 2.2, "Char") allows TAB, LF, CR and these ranges only;
# CR is replaced too (a parser would turn it into LF).
_NOT_XML = re.compile("[^\t\n\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_STAMP = re.compile(r"(\d{8}-\d{6})")


def clean(text) -> str:
    """Text XML 1.0 can hold: each character it forbids becomes \\xNN
    (\\uNNNN above 0xff)."""
    def sub(m):
        c = ord(m.group())
        return f"\\x{c:02x}" if c <= 0xff else f"\\u{c:04x}"
    return _NOT_XML.sub(sub, str(text))


def _el(parent, tag, attrs=None, text=None):
    e = ET.SubElement(parent, tag, {k: clean(v) for k, v in
                                    (attrs or {}).items() if v is not None})
    if text:
        e.text = clean(text)
    return e


def timestamp(a):
    """ISO 8601 start of the run, from the log file's name
    (YYYYMMDD-HHMMSS.log: console logfile= or the path), or None."""
    if a.unreadable:
        return None
    h = a.log.header("console")
    for cand in ((h.fields.get("logfile", "") if h else ""),
                 Path(a.path).name):
        m = _STAMP.search(cand)
        if m:
            try:
                return datetime.strptime(m.group(1), "%Y%m%d-%H%M%S") \
                    .isoformat()
            except ValueError:
                continue
    return None


def suite_timestamp(a) -> str:
    """What testsuite@timestamp says (both schemas require it): the run's
    start (timestamp()), else when the log file was last written (local
    time, as Ant writes it), else UNKNOWN_TIME."""
    stamp = timestamp(a)
    if stamp:
        return stamp
    try:
        return datetime.fromtimestamp(int(os.stat(a.path).st_mtime)) \
            .isoformat()
    except (OSError, ValueError, OverflowError):
        return UNKNOWN_TIME


def hostname(a) -> str:
    """testsuite@hostname: the machine the log came from; "localhost"
    (what Ant's schema asks for when unknown) without a # cpu: line."""
    name = common.machine_name(a.log)
    return "localhost" if name == "unknown machine" else name


def suite_name(a) -> str:
    label = common.log_label(a.log)
    return f"{label} ({MODEL_NOTE})" if common.is_model(a.log) else label


def _counts_note(log) -> str:
    b = common.backend(log)
    return {"model": MODEL_NOTE, "hw": "hardware counts",
            "none": "no counters (backend none)"}.get(b, "unknown backend")


def _properties(suite, a, v):
    log = a.log
    props = _el(suite, "properties")
    b = log.header("backend")
    rows = [("verdict", v.word), ("verdict-why", v.why),
            ("backend", common.backend(log) or "unknown"),
            ("counts", _counts_note(log)),
            ("machine", common.machine_name(log)),
            ("log", a.path)]
    for h in log.headers:
        key = "backend-line" if h.key == "backend" else h.key
        rows.append((key, h.text))
    if b is None:
        rows.append(("backend-line", "(none in the log)"))
    if log.plan is not None:
        rows.append(("plan", str(log.plan)))
    if log.summary is not None:
        s = log.summary
        rows.append(("summary", f"passed={s.passed} failed={s.failed} "
                                f"skipped={s.skipped}"))
    for name, value in rows:
        _el(props, "property", {"name": name, "value": value})


def _secs(v):
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def failure_message(r):
    """(message, type) of a failed result: its first failure line."""
    y = r.yaml if isinstance(r.yaml, dict) else {}
    fl = y.get("failures")
    if isinstance(fl, list) and fl:
        return str(fl[0]), "failed_check"
    if y.get("timed_out") is True:
        return (f"timed out: {_secs(y.get('elapsed_s'))} s, limit "
                f"{_secs(y.get('limit_s'))} s"), "timeout"
    for key in ("not_run", "exception", "error"):
        if key in y:
            return f"{key}: {y[key]}", key
    if y.get("failed_checks"):
        return f"failed_checks: {y['failed_checks']}", "failed_check"
    return "not ok", "failure"


def _case(suite, name, classname, t=0.0):
    """A <testcase>: Ant's schema requires classname and time."""
    return _el(suite, "testcase", {"name": name, "classname": classname,
                                   "time": f"{t:.3f}"})


def _testcase(suite, a, r, out):
    """A result's testcase; a passed test's YAML block goes to out (the
    suite's system-out: Ant's schema has none in a testcase)."""
    name = r.name or f"(unnamed result {r.number})"
    case = _case(suite, name, common.test_group(name), a.elapsed(r) or 0.0)
    body = r.yaml_text or ""
    if r.status == "skip":
        _el(case, "skipped", {"message": r.reason or "skipped"})
    elif r.status == "not ok":
        msg, kind = failure_message(r)
        _el(case, "failure", {"message": msg, "type": kind},
            body or f"not ok {r.number} - {r.name} (no YAML block)")
    elif body:
        block = "".join(f"  {l}\n" for l in body.splitlines())
        out.append(f"ok {r.number} - {name}\n  ---\n{block}  ...\n")
    return case


def _run_cases(suite, a, v):
    """The testcases that make a run no pass though none of its tests
    failed: an untested run (no PMU test ran: the summary's
    verdict=untested, or every result skipped), "# error:" lines (the run
    may not be the one asked for), no result at all.  Returns the errors
    added."""
    n = 0
    if v.untested is not None:
        case = _case(suite, "log/untested", "log")
        _el(case, "error", {"message": f"untested: {v.untested}",
                            "type": "untested"},
            "the run tested no PMU (docs/log-format.md, Verdicts)\n")
        n += 1
    if a.log.error_lines:
        first = a.log.error_lines[0]
        case = _case(suite, "log/errors", "log")
        _el(case, "error", {
            "message": f"{len(a.log.error_lines)} '# error:' line(s), first "
                       f"at line {first.line}: {first.text}",
            "type": "errors"},
            "".join(f"{a.path}:{e.line}: # error: {e.text}\n"
                    for e in a.log.error_lines))
        n += 1
    if not a.log.results and v.word == "NO TESTS":
        case = _case(suite, "log/no-tests", "log")
        _el(case, "error", {"message": "the run has no result",
                            "type": "no-tests"},
            "a run without a result fails (docs/log-format.md, "
            "Verdicts)\n")
        n += 1
    return n


def _damage_cases(suite, a):
    """The testcases that make a damaged or unfinished log show as an
    error: (errors added)."""
    n = 0
    if a.damage:
        first = a.damage[0]
        lines = "\n".join(f"{a.path}:{d.line}: {d.kind}: {d.message}"
                          for d in a.damage)
        case = _case(suite, "log/damaged", "log")
        _el(case, "error", {
            "message": f"damaged log: {len(a.damage)} problem(s); first at "
                       f"line {first.line}: {first.message}",
            "type": first.kind}, lines + "\n")
        n += 1
    if a.missing:
        case = _case(suite, "log/missing-results", "log")
        _el(case, "error", {
            "message": f"{a.missing} of {a.promised} results the plan "
                       "promised are not in the log",
            "type": "missing-results"},
            f"the log has {len(a.log.results)} results, its plan (or "
            f"summary) {a.promised}; the run did not reach the rest\n")
        n += 1
    for b in a.log.bail_outs:
        case = _case(suite, "log/bail-out", "log")
        _el(case, "error", {"message": f"Bail out! {b.text}",
                            "type": "bail-out"},
            f"{a.path}:{b.line}: Bail out! {b.text}\n")
        n += 1
    hung = a.in_flight
    if hung is not None:
        # a cut inside the "# running " line itself leaves no name; a
        # testcase needs one (both CI schemas: minLength 1)
        name = hung.name or IN_FLIGHT_UNNAMED
        case = _case(suite, name, common.test_group(name))
        _el(case, "error", {
            "message": f"in flight when the log stops: no result after "
                       f"line {hung.line} (# running {hung.name or '...'})",
            "type": "hung"},
            f"{a.path}:{hung.line}: # running {hung.name}: {hung.what}\n")
        n += 1
    return n


# The testcase of a test in flight whose "# running" line the log cut
# before its name.
IN_FLIGHT_UNNAMED = "log/in-flight-unnamed"


def testsuite(root, a, index, v=None):
    """One <testsuite> for one log (v: its verdict.Verdict, judged here
    when not given); returns (tests, failures, errors, skipped).  Attributes and children as both CI schemas require
    (tools/lab/tests/data/junit-schemas/README.md): properties,
    testcase*, system-out, system-err, in that order, each present."""
    log = a.log
    v = v or verdict.judge(a)
    suite = _el(root, "testsuite", {
        "name": suite_name(a), "package": PACKAGE, "id": str(index),
        "hostname": hostname(a), "timestamp": suite_timestamp(a)})
    out, err = [], ""
    if a.unreadable:
        props = _el(suite, "properties")
        _el(props, "property", {"name": "verdict", "value": v.word})
        case = _case(suite, "log/unreadable", "log")
        _el(case, "error", {"message": log.read_error,
                            "type": "unreadable"})
        counts = (1, 0, 1, 0)
    else:
        _properties(suite, a, v)
        for r in log.results:
            _testcase(suite, a, r, out)
        errors = _damage_cases(suite, a) + _run_cases(suite, a, v)
        p, f, s = a.counted
        counts = (len(log.results) + errors, f, errors, s)
        err = "".join(f"{a.path}:{e.line}: # error: {e.text}\n"
                      for e in log.error_lines)
    _el(suite, "system-out", None, "".join(out))
    _el(suite, "system-err", None, err)
    tests, failures, errors, skipped = counts
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    if a.time:
        secs = a.time["run_ms"] / 1000
    else:
        secs = sum(float(c.get("time")) for c in suite.iter("testcase"))
    suite.set("time", f"{secs:.3f}")
    return counts


def render(analyses, verdicts=None) -> bytes:
    """The JUnit XML document for these logs (UTF-8 bytes); verdicts:
    theirs, judged here when not given.  The root has no attributes:
    Ant's schema allows none (the totals are the suites' sums)."""
    root = ET.Element("testsuites")
    verdicts = verdicts or [verdict.judge(a) for a in analyses]
    for i, (a, v) in enumerate(zip(analyses, verdicts)):
        testsuite(root, a, i, v)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def add_parser(sub):
    p = sub.add_parser(
        "junit", help="write logs as JUnit XML (Jenkins, GitLab)",
        description="Writes JUnit XML: one testsuite per log, one testcase "
        "per result; a damaged log adds an erroring log/damaged testcase "
        "(every damage with its line) and log/missing-results, an "
        "untested run log/untested, '# error:' lines log/errors; each "
        "suite's properties name its verdict.  Exit status: the run's "
        "status of the worst verdict: 0 PASSED, 1 a test failed or the "
        "run is no pass (BAIL OUT, NO TESTS), 4 ERRORS ('# error:' "
        "lines, nothing failed), 77 UNTESTED, 3 a "
        "log cannot be trusted (HUNG, CUT, DAMAGED), 2 a file cannot be "
        "read or bad arguments; the XML is written whenever any log "
        "could be read.  The words and statuses: docs/lab.md, "
        "\"Verdicts and exit statuses\".")
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the XML here (default: standard output)")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    analyses = [lparse.analyse(path) for path in args.logs]
    for a in analyses:
        lparse.report_damage(PROG, a)
    if all(a.unreadable for a in analyses):
        common.warn(PROG, "no log could be read: no XML written")
        return common.EXIT_USAGE
    verdicts = [verdict.judge(a) for a in analyses]
    doc = render(analyses, verdicts)
    if args.output:
        try:
            with open(args.output, "wb") as f:
                f.write(doc)
        except OSError as e:
            common.warn(PROG, f"cannot write {args.output}: "
                              f"{e.strerror or e}")
            return common.EXIT_USAGE
    else:
        sys.stdout.buffer.write(doc)
        sys.stdout.flush()
    return verdict.worst_status(v.status for v in verdicts)
