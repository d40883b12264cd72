"""pmu-harness junit: logs as JUnit XML for Jenkins and GitLab.

    xml_bytes = junit.render([parse.analyse(p) for p in paths])
    w = junit.SuiteWriter(0)          # or as the log is read:
    a = parse.analyse(path, on_result=w.add, keep_results=False)
    w.write(out.write, a, verdict.judge(a))

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
two demand together), and the project's tools/lab/junit.xsd; every text
node stays under MAX_TEXT bytes (libxml2 refuses one over 10 MB without
its "huge" option): the passed tests' values in <system-out> are cut,
with a note.  The XML is written as the logs are read, a testcase
spooled per result (docs/lab.md, "Lab scale").
The manual: docs/lab.md (parse, junit).
"""

import os
import re
import struct
import sys
import tempfile
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


def _secs(v):
    return f"{v:.3f}" if isinstance(v, float) else str(v)


# ------------------------------------------------------------ the XML
#
# The document is written as the logs are read, as text: what
# xml.etree.ElementTree.tostring wrote of the same tree after
# ElementTree.indent (two spaces a level), byte for byte, without holding
# the tree.  Each result's testcase goes to a temporary file as it comes
# (the suite's attributes and properties, written before its testcases,
# need the whole log); at the end the suite is written out from it.

# Every text node is kept under MAX_TEXT bytes (UTF-8): libxml2, which
# xmllint and many CI servers parse with, refuses a text node over
# 10,000,000 bytes unless told XML_PARSE_HUGE (xmllint --huge).  The
# passing tests' values in <system-out> stop before MAX_TEXT, and each
# passing test's block is cut at MAX_CASE_OUTPUT bytes; a note says what
# was left out (docs/lab.md, "junit": `pmu-harness parse` has it all).
MAX_TEXT = 4_000_000
MAX_CASE_OUTPUT = 16_384

_IND = "\n    "            # before an element inside a <testsuite>


def _attr(v) -> str:
    """An attribute value, cleaned and escaped as ElementTree does."""
    t = _text(clean(v))
    if '"' in t:
        t = t.replace('"', "&quot;")
    if "\n" in t:
        t = t.replace("\n", "&#10;")
    if "\t" in t:
        t = t.replace("\t", "&#09;")
    return t


def _text(t) -> str:
    """Character data, already cleaned, escaped as ElementTree does."""
    if "&" in t:
        t = t.replace("&", "&amp;")
    if "<" in t:
        t = t.replace("<", "&lt;")
    if ">" in t:
        t = t.replace(">", "&gt;")
    return t


def _utf8_len(t) -> int:
    return len(t) if t.isascii() else len(t.encode("utf-8"))


def _cut(t, limit, note) -> str:
    """t (cleaned) within limit bytes of UTF-8: cut at a line end where
    there is one, then note(bytes left out) on a line of its own."""
    if _utf8_len(t) <= limit:
        return t
    data = t.encode("utf-8")
    head = data[:limit].decode("utf-8", "ignore")
    nl = head.rfind("\n")
    if nl > 0:
        head = head[:nl + 1]
    elif head:
        head += "\n"
    return head + note(len(data) - _utf8_len(head)) + "\n"


def _capped(t, what="text") -> str:
    """A text node's text (cleaned) within MAX_TEXT bytes."""
    note = (lambda left: f"[pmu-harness junit: {what} truncated: {left} "
            f"more bytes left out, to keep this text under {MAX_TEXT} "
            "bytes (XML readers refuse a text node over 10 MB); "
            "pmu-harness parse has it all]")
    return _cut(clean(t), MAX_TEXT - 400, note)


def _start(tag, attrs) -> str:
    """"<tag a="v" ..." (attributes whose value is None left out)."""
    return "<" + tag + "".join(f' {k}="{_attr(v)}"' for k, v in attrs
                               if v is not None)


def _leaf(tag, attrs, text=None) -> str:
    """An element without children: its text (cleaned, escaped, within
    MAX_TEXT bytes), or " />" when there is none."""
    head = _start(tag, attrs)
    if not text:
        return head + " />"
    return head + ">" + _text(_capped(text, f"<{tag}>")) + "</" + tag + ">"


def _case(name, classname, t=0.0, child=None) -> str:
    """A <testcase> (Ant's schema requires classname and time), at the
    suite's indentation; child: its one element, or None."""
    head = _start("testcase", (("name", name), ("classname", classname),
                               ("time", f"{t:.3f}")))
    if child is None:
        return head + " />"
    return head + ">" + _IND + "  " + child + _IND + "</testcase>"


def _properties(a, v) -> str:
    log = a.log
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
    return _properties_of(rows)


def _properties_of(rows) -> str:
    return ("<properties>" + "".join(
        _IND + "  " + _leaf("property", (("name", n), ("value", v)))
        for n, v in rows) + _IND + "</properties>")


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


def _output(r, name) -> str:
    """A passed test's values in <system-out> (cleaned): "ok N - NAME",
    its YAML block, each line indented as in the log; a block over
    MAX_CASE_OUTPUT bytes is cut, with a note."""
    block = "".join(f"  {l}\n" for l in r.yaml_text.splitlines())
    block = _cut(clean(block), MAX_CASE_OUTPUT, lambda left: (
        f"  [pmu-harness junit: this block is cut at {MAX_CASE_OUTPUT} "
        f"bytes, {left} more left out; pmu-harness parse has it all]"))
    return clean(f"ok {r.number} - {name}\n  ---\n") + block + "  ...\n"


_RECORD = struct.Struct("<BIII")


class SuiteWriter:
    """One log's <testsuite>, written as the log is read: add(result) for
    each result (parse.analyse's on_result), then write(out, a, v) once
    the log is read: its attributes, properties, the testcases (spooled
    to a temporary file meanwhile), <system-out> and <system-err>."""

    def __init__(self, index):
        self.index = index
        self.cases = tempfile.TemporaryFile(prefix="pmu-junit-")
        self.count = 0
        self.time_sum = 0.0     # the testcases' times, in order
        self.out = []           # <system-out>'s parts (cleaned)
        self.out_bytes = 0
        self.out_full = None    # the first result left out of it
        self.out_left = 0       # passed results with values left out

    def add(self, r):
        name = r.name or f"(unnamed result {r.number})"
        body = r.yaml_text or ""
        if r.status == "skip":
            child = _leaf("skipped", (("message", r.reason or "skipped"),))
        elif r.status == "not ok":
            msg, kind = failure_message(r)
            child = _leaf("failure", (("message", msg), ("type", kind)),
                          body or f"not ok {r.number} - {r.name} (no YAML "
                                  "block)")
        else:
            child = None
            if body:
                self._output(r, name)
        head = _start("testcase", (("name", name), ("classname",
                                   common.test_group(name)))) + ' time="'
        tail = '" />' if child is None else \
            '">' + _IND + "  " + child + _IND + "</testcase>"
        t = lparse.own_elapsed(r)
        if t is not None:
            text = f"{head}{t:.3f}{tail}".encode()
            self.time_sum += float(f"{t:.3f}")
            self.cases.write(_RECORD.pack(0, 0, len(text), 0))
            self.cases.write(text)
        else:
            # the "# time:" line, at the end, may name it the slowest
            nm, h, tl = (name.encode("utf-8", "surrogatepass"),
                         head.encode(), tail.encode())
            self.cases.write(_RECORD.pack(1, len(nm), len(h), len(tl)))
            self.cases.write(nm + h + tl)
        self.count += 1

    def _output(self, r, name):
        if self.out_full is not None:
            self.out_left += 1
            return
        text = _output(r, name)
        n = _utf8_len(text)
        if self.out_bytes + n > MAX_TEXT - 1000:
            self.out_full = r.number if r.number is not None else r.line
            self.out_left += 1
            return
        self.out.append(text)
        self.out_bytes += n

    def _system_out(self) -> str:
        text = "".join(self.out)
        if self.out_left:
            text += (f"[pmu-harness junit: system-out truncated: the values "
                     f"of {self.out_left} more passed result(s), from result "
                     f"{self.out_full} on, are left out, to keep this text "
                     f"under {MAX_TEXT} bytes (XML readers refuse a text "
                     "node over 10 MB); pmu-harness parse has them all]\n")
        return text

    def write(self, out, a, v, progress=None):
        """Writes the suite with out(text) (v: the log's verdict)."""
        log = a.log
        extra, errors = [], 0
        if a.unreadable:
            props = _properties_of([("verdict", v.word)])
            extra.append(_case("log/unreadable", "log", child=_leaf(
                "error", (("message", log.read_error),
                          ("type", "unreadable")))))
            counts = (1, 0, 1, 0)
            err = ""
        else:
            props = _properties(a, v)
            extra = _damage_cases(a) + _run_cases(a, v)
            errors = len(extra)
            p, f, sk = a.counted
            counts = (a.results + errors, f, errors, sk)
            err = "".join(f"{a.path}:{e.line}: # error: {e.text}\n"
                          for e in log.error_lines)
        tests, failures, errs, skipped = counts
        secs = a.time["run_ms"] / 1000 if a.time else self.time_sum
        out(_start("testsuite", (
            ("name", suite_name(a)), ("package", PACKAGE),
            ("id", str(self.index)), ("hostname", hostname(a)),
            ("timestamp", suite_timestamp(a)), ("tests", str(tests)),
            ("failures", str(failures)), ("errors", str(errs)),
            ("skipped", str(skipped)), ("time", f"{secs:.3f}"))) + ">")
        out(_IND + props)
        if not a.unreadable:    # (a read that failed midway: no result)
            self._write_cases(out, a, progress)
        for case in extra:
            out(_IND + case)
        out(_IND + _leaf("system-out", (), self._system_out()))
        out(_IND + _leaf("system-err", (), err))
        out("\n  </testsuite>")

    def _write_cases(self, out, a, progress):
        f = self.cases
        f.seek(0)
        slowest = a.time["slowest"] if a.time else None
        late = a.slowest_elapsed(slowest) if slowest else None
        buf, size = [], 0
        for i in range(self.count):
            flag, n1, n2, n3 = _RECORD.unpack(f.read(_RECORD.size))
            if flag:
                data = f.read(n1 + n2 + n3)
                name = data[:n1].decode("utf-8", "surrogatepass")
                t = late if late is not None and name == slowest \
                    else 0.0
                text = (data[n1:n1 + n2].decode() + f"{t:.3f}" +
                        data[n1 + n2:].decode())
            else:
                text = f.read(n2).decode()
            buf.append(_IND)
            buf.append(text)
            size += len(text)
            if size > 1 << 20:
                out("".join(buf))
                buf, size = [], 0
                if progress is not None:
                    progress.writing(a.path, i + 1, self.count)
        out("".join(buf))

    def close(self):
        self.cases.close()


def _run_cases(a, v) -> list:
    """The testcases that make a run no pass though none of its tests
    failed: an untested run (no PMU test ran: the summary's
    verdict=untested, or every result skipped), "# error:" lines (the run
    may not be the one asked for), no result at all."""
    out = []
    if v.untested is not None:
        out.append(_case("log/untested", "log", child=_leaf(
            "error", (("message", f"untested: {v.untested}"),
                      ("type", "untested")),
            "the run tested no PMU (docs/log-format.md, Verdicts)\n")))
    if a.log.error_lines:
        first = a.log.error_lines[0]
        out.append(_case("log/errors", "log", child=_leaf("error", (
            ("message", f"{len(a.log.error_lines)} '# error:' line(s), "
                        f"first at line {first.line}: {first.text}"),
            ("type", "errors")),
            "".join(f"{a.path}:{e.line}: # error: {e.text}\n"
                    for e in a.log.error_lines))))
    if not a.results and v.word == "NO TESTS":
        out.append(_case("log/no-tests", "log", child=_leaf(
            "error", (("message", "the run has no result"),
                      ("type", "no-tests")),
            "a run without a result fails (docs/log-format.md, "
            "Verdicts)\n")))
    return out


def _damage_cases(a) -> list:
    """The testcases that make a damaged or unfinished log show as an
    error."""
    out = []
    if a.damage:
        first = a.damage[0]
        lines = "\n".join(f"{a.path}:{d.line}: {d.kind}: {d.message}"
                          for d in a.damage)
        out.append(_case("log/damaged", "log", child=_leaf("error", (
            ("message", f"damaged log: {len(a.damage)} problem(s); first "
                        f"at line {first.line}: {first.message}"),
            ("type", first.kind)), lines + "\n")))
    if a.missing:
        out.append(_case("log/missing-results", "log", child=_leaf(
            "error", (("message", f"{a.missing} of {a.promised} results "
                                  "the plan promised are not in the log"),
                      ("type", "missing-results")),
            f"the log has {a.results} results, its plan (or summary) "
            f"{a.promised}; the run did not reach the rest\n")))
    for b in a.log.bail_outs:
        out.append(_case("log/bail-out", "log", child=_leaf(
            "error", (("message", f"Bail out! {b.text}"),
                      ("type", "bail-out")),
            f"{a.path}:{b.line}: Bail out! {b.text}\n")))
    hung = a.in_flight
    if hung is not None:
        # a cut inside the "# running " line itself leaves no name; a
        # testcase needs one (both CI schemas: minLength 1)
        name = hung.name or IN_FLIGHT_UNNAMED
        out.append(_case(name, common.test_group(name), child=_leaf(
            "error", (("message", f"in flight when the log stops: no "
                                  f"result after line {hung.line} "
                                  f"(# running {hung.name or '...'})"),
                      ("type", "hung")),
            f"{a.path}:{hung.line}: # running {hung.name}: "
            f"{hung.what}\n")))
    return out


# The testcase of a test in flight whose "# running" line the log cut
# before its name.
IN_FLIGHT_UNNAMED = "log/in-flight-unnamed"

HEAD = "<?xml version='1.0' encoding='utf-8'?>\n<testsuites>"
TAIL = "\n</testsuites>\n"


def render(analyses, verdicts=None) -> bytes:
    """The JUnit XML document for these logs (UTF-8 bytes), of Analyses
    that kept their results; verdicts: theirs, judged here when not
    given.  The root has no attributes: Ant's schema allows none (the
    totals are the suites' sums)."""
    verdicts = verdicts or [verdict.judge(a) for a in analyses]
    parts = [HEAD]
    for i, (a, v) in enumerate(zip(analyses, verdicts)):
        w = SuiteWriter(i)
        try:
            for r in a.log.results:
                w.add(r)
            parts.append("\n  ")
            w.write(parts.append, a, v)
        finally:
            w.close()
    parts.append(TAIL)
    return "".join(parts).encode("utf-8")


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
        "\"Verdicts and exit statuses\".  Each text is kept under "
        f"{MAX_TEXT} bytes (the passed tests' values in system-out are "
        "cut, with a note); a long log shows its progress on stderr.")
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the XML here (default: standard output)")
    p.set_defaults(run=run)
    return p


class _Output:
    """The XML's destination, opened when the first readable log is read
    (no log readable: nothing written, the file untouched)."""

    def __init__(self, path):
        self.path = path
        self.f = None
        self.error = None

    def open(self):
        if self.path:
            self.f = open(self.path, "wb")
        else:
            self.f = sys.stdout.buffer

    def write(self, text):
        self.f.write(text.encode("utf-8"))

    def close(self):
        if self.f is None:
            return
        self.f.flush()
        if self.path:
            self.f.close()


def run(args) -> int:
    progress = common.Progress(PROG)
    dest = _Output(args.output)
    waiting = []        # unreadable logs' suites, before the output opens
    statuses = []
    failed = None       # why the output cannot be written
    for i, path in enumerate(args.logs):
        w = SuiteWriter(i)
        try:
            a = lparse.analyse(path, on_result=None if failed else w.add,
                               keep_results=False, progress=progress)
            progress.clear()
            lparse.report_damage(PROG, a)
            v = verdict.judge(a)
            statuses.append(v.status)
            if failed:
                continue
            if dest.f is None and a.unreadable:
                waiting.append((i, a, v))
                continue
            try:
                if dest.f is None:
                    dest.open()
                    dest.write(HEAD)
                    for j, wa, wv in waiting:
                        wait = SuiteWriter(j)
                        dest.write("\n  ")
                        wait.write(dest.write, wa, wv)
                        wait.close()
                dest.write("\n  ")
                w.write(dest.write, a, v, progress)
            except OSError as e:
                failed = f"cannot write {args.output or 'standard output'}" \
                    f": {e.strerror or e}"
        finally:
            w.close()
    progress.clear()
    if failed is None and dest.f is None:
        common.warn(PROG, "no log could be read: no XML written")
        return common.EXIT_USAGE
    if failed is None:
        try:
            dest.write(TAIL)
            dest.close()
        except OSError as e:
            failed = f"cannot write {args.output or 'standard output'}: " \
                f"{e.strerror or e}"
    if failed is not None:
        try:
            dest.close()
        except OSError:
            pass
        common.warn(PROG, failed)
        return common.EXIT_USAGE
    return verdict.worst_status(statuses)
