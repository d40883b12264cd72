"""pmu-harness parse: a log as JSON, and the damage found in it.

What this module offers the other subcommands:

    a = parse.analyse("run.log")      # never raises on bad input
    a = parse.analyse("run.log", on_result=f, keep_results=False)
                                      # each result to f as it is read,
                                      # none kept: any length of log
    a.log                             # the pmulog.Log (tools/lab/pmulog.py)
    a.tally                           # what the verdict needs of the results
    a.damage                          # [Damage(line, kind, message)], [] if intact
    a.time                            # the "# time:" line's fields, or None
    a.elapsed(result)                 # seconds a test took, where the log says
    a.missing                         # results the plan promised, not in the log
    a.in_flight                       # the test the log stops in, or None
    a.to_dict()                       # the JSON object `parse` prints
    parse.of_log(log)                 # the Analysis of a pmulog.Log
    parse.exit_status(analyses)       # 0 intact, 3 damaged, 2 unreadable

Damage is every pmulog parse error, classified by kind (DAMAGE_KINDS), and
what pmulog does not check: a last line without a line end (the capture
was cut mid-line), control characters and bytes that are not UTF-8 inside
the harness's lines, a summary that disagrees with the results counted,
and a plan that disagrees with the number of results.  A missing plan or
summary is reported at the input's last line (where the log stops).
Model deltas that do not add up (tools/lab/deltas.py) are damage too:
the harness never writes them so.

A log's verdict, in the JSON and in every other tool, is
tools/lab/verdict.py's judgement of its Analysis; parse exits with the
log's status (docs/lab.md, "Verdicts and exit statuses").

`parse` writes its JSON as the log is read (ResultSpool, write_object):
the text json.dumps writes of the whole document, in bounded memory, with
its progress on stderr (docs/lab.md, "Lab scale").

The log format is docs/log-format.md; the manual docs/lab.md (parse, junit).
"""

import functools
import json
import math
import os
import re
import struct
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from typing import Dict, List, Optional

from . import common, pmulog, verdict
from . import deltas as ldeltas

PROG = "parse"

# kind: what went wrong (docs/lab.md (parse, junit) lists them)
DAMAGE_KINDS = (
    "unreadable",       # the file cannot be read
    "no-tap",           # no "TAP version 13" line (empty file, harness never ran)
    "truncated",        # cut off: no plan and no summary, a YAML block open
                        # at the end, or no line end after the last line
    "missing-plan",     # a summary but no plan "1..N"
    "missing-summary",  # a plan but no "# summary:" line
    "restart",          # a second "TAP version 13": the harness started again
    "numbering",        # a result numbered out of order, or without a number
    "order",            # a result after the plan or the summary
    "duplicate",        # a second plan, summary or header line
    "yaml",             # a YAML block that is not YAML, or not a mapping
    "garbage",          # not a TAP line, an empty line, a malformed line,
                        # control characters, bytes that are not UTF-8
    "summary-mismatch",  # the summary's counts are not the results counted
    "plan-mismatch",    # the plan is not the number of results
    "model-delta",      # a model count or delta that does not add up
    "limit",            # over a limit of the parser (pmulog.MAX_*): a line
                        # too long, a YAML block too large, nested too
                        # deep, too many values or too long a value
)

# pmulog's messages (tools/lab/pmulog.py) -> kind.  First match wins.
_CLASSES = [
    (re.compile(r"over the limit of \d+ \(MAX_[A-Z_]+\)"), "limit"),
    (re.compile(r"^cannot read "), "unreadable"),
    (re.compile(r"^no 'TAP version 13' line"), "no-tap"),
    (re.compile(r"^second 'TAP version 13' line"), "restart"),
    (re.compile(r"^YAML block of result .* is not closed"), "truncated?"),
    (re.compile(r"^YAML block without a result line"), "garbage"),
    (re.compile(r"^YAML block of result "), "yaml"),
    (re.compile(r"^no '# summary:' line"), "missing-summary"),
    (re.compile(r"^no plan "), "missing-plan"),
    (re.compile(r"^result (without a number|numbered )"), "numbering"),
    (re.compile(r"^result after the "), "order"),
    (re.compile(r"^second (plan|summary)|^header '.*' given twice$"),
     "duplicate"),
]

# Characters that do not belong in a harness line: C0 controls but TAB
# (a lone CR among them: one left inside a line), and DEL.  Bytes that are
# not UTF-8 are found in the raw line (the text has U+FFFD for them).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


@dataclass
class Damage:
    line: int           # 1-based line of the input; 0: the whole input
    kind: str           # one of DAMAGE_KINDS
    message: str


@dataclass
class InFlight:
    """A "# running NAME: WHAT" line with no result after it."""
    name: str
    what: str
    line: int


def in_flight(log) -> Optional[InFlight]:
    """The log's test in flight (Analysis.in_flight) of a pmulog.Log."""
    last = log.results[-1].line if log.results else log.last_result_line
    for c in reversed(log.comments):
        if c.line < last:
            return None
        if c.text.startswith("running "):
            name, _, what = c.text[len("running "):].partition(": ")
            return InFlight(name.strip(), what, c.line)
    return None


@dataclass
class Analysis:
    """A log, parsed by pmulog, with its damage classified."""
    path: str
    log: pmulog.Log
    damage: List[Damage] = field(default_factory=list)
    time: Optional[dict] = None
    last_line: int = 0              # number of the input's last line
    size: int = 0                   # bytes read
    head: bytes = b""               # the file's first bytes (UTF-16?)
    ends_in_newline: bool = True    # the input's last byte is LF
    last_text: str = ""             # the last line, as pmulog read it
    # what is wrong with the characters of a harness line (line -> text)
    line_problems: Dict[int, str] = field(default_factory=dict)
    # what the verdict needs of the results, counted as they come (kept
    # in log.results or not)
    tally: verdict.Tally = field(default_factory=verdict.Tally)
    # the model deltas, read as the results come (deltas.Scan: their
    # damage; each Delta to on_delta, if given)
    deltas: Optional[ldeltas.Scan] = None
    on_delta: Optional[object] = None

    def add(self, r):
        """Counts a result (pmulog's on_result, in the log's order)."""
        self.tally.add(r)
        if self.deltas is None:
            self.deltas = ldeltas.Scan(self.log, keep=False,
                                       on_delta=self.on_delta)
        self.deltas.add(r)

    @property
    def unreadable(self) -> bool:
        return self.log.read_error is not None

    @property
    def counted(self):
        """(passed, failed, skipped) counted from the results."""
        return self.tally.counts()

    @property
    def results(self) -> int:
        """How many results the log has."""
        return self.tally.results

    @property
    def promised(self) -> Optional[int]:
        """How many results the log says it has: the plan, else the
        summary's total, else None."""
        if self.log.plan is not None:
            return self.log.plan
        s = self.log.summary
        return s.passed + s.failed + s.skipped if s else None

    @property
    def missing(self) -> int:
        """Results promised by the plan (or summary) that are not there."""
        p = self.promised
        return max(0, p - self.tally.results) if p is not None else 0

    @property
    def in_flight(self) -> Optional[InFlight]:
        """The test the log stops in: its last "# running NAME: ..." line
        (verbose=1, docs/log-format.md) when no result follows it, i.e.
        the run hung or was cut while that test ran; else None."""
        return in_flight(self.log)

    def elapsed(self, result) -> Optional[float]:
        """Seconds the test took, where the log has it: `elapsed_s` of a
        test stopped at its time limit, or the "# time:" line's slowest
        test; None otherwise."""
        v = own_elapsed(result)
        if v is not None:
            return v
        return self.slowest_elapsed(result.name)

    def slowest_elapsed(self, name) -> Optional[float]:
        """The "# time:" line's time of test name when it is the slowest
        test, else None (the line comes last: a reader that writes results
        as they come fills this in at the end)."""
        if self.time and self.time["slowest"] == name:
            return self.time["slowest_ms"] / 1000.0
        return None

    def to_dict(self) -> dict:
        return to_dict(self)


def own_elapsed(result) -> Optional[float]:
    """The `elapsed_s` of a result's own YAML block (a test stopped at
    its time limit), or None."""
    y = result.yaml if isinstance(result.yaml, dict) else None
    v = y.get("elapsed_s") if y else None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return None


def analyse(path, on_result=None, keep_results=True, progress=None,
            on_delta=None) -> Analysis:
    """Reads and parses the log at path; never raises on bad input.
    on_result(result) has each result as it is read, in the log's order;
    with keep_results=False the log keeps none (a.log.results is empty,
    a.tally counts them: the verdict, the damage and the counts are the
    same), so a log of any length costs what on_result keeps.  progress:
    a common.Progress, told how far the reading is; on_delta(delta) has
    each model delta (deltas.Delta) as it is read.  Each result has
    .offset, the byte offset of its line (pmulog.read_results reads it
    again)."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            a = _read(path, f, on_result, keep_results, progress, on_delta)
    except OSError as e:
        log = pmulog.Log(path=path, read_error=f"cannot read {path}: "
                                               f"{e.strerror or e}")
        log.parse_errors.append(pmulog.ParseError(0, log.read_error))
        a = Analysis(path, log)
        a.damage = [Damage(0, "unreadable", log.read_error)]
        return a
    return _judge(a)


# Lines read between two looks at the clock (progress)
_TICK_LINES = 4096


def _read(path, f, on_result=None, keep_results=True, progress=None,
          on_delta=None) -> Analysis:
    """Parses the file a line at a time (pmulog.Parser), checking each
    harness line's bytes as it goes: a long log costs its results, not
    its text."""
    a = Analysis(path, None, on_delta=on_delta)
    if on_result is None:
        add = a.add
    else:
        def add(r):
            a.add(r)
            on_result(r)
    parser = pmulog.Parser(path, keep_lines=False, on_result=add,
                           keep_results=keep_results)
    a.log = log = parser.log
    feed = parser.feed
    problems = a.line_problems
    total = 0
    if progress is not None:
        try:
            total = os.fstat(f.fileno()).st_size
        except (OSError, ValueError):
            total = 0
    n = size = 0
    raw = b""
    text = ""
    last = None
    for raw in f:
        n += 1
        start = size
        size += len(raw)
        if len(a.head) < 4:
            a.head += raw[:4 - len(a.head)]
        if n % _TICK_LINES == 0 and progress is not None:
            progress.reading(path, size, total, a.tally.results)
        line = raw[:-1] if raw[-1:] == b"\n" else raw
        if line[-1:] == b"\r":
            line = line[:-1]
        try:
            text = line.decode("utf-8")
            bad = False
        except UnicodeDecodeError:
            text = line.decode("utf-8", errors="replace")
            bad = True
        if log.found_version:
            feed(text)
            if parser.last_result is not last:       # a result line
                last = parser.last_result
                last.offset = start
            # (printable: no control character, the common case, seen
            # without the regular expression)
            if bad or not text.isprintable() and _CONTROL.search(text):
                problems[n] = _line_problem(text, line)
            continue
        feed(text)
        if log.found_version:
            # the "TAP version 13" line may follow firmware text
            text = text[text.find(pmulog.TAP_VERSION):]
            problem = _line_problem(text, line, first=True)
            if problem:
                problems[n] = problem
    a.last_line, a.size = n, size
    a.ends_in_newline = raw.endswith(b"\n") if n else True
    a.last_text = text if log.found_version else ""
    parser.finish()
    return a


def _judge(a) -> Analysis:
    """Classifies the damage of a parsed log."""
    log = a.log
    a.time = common.run_time(log)
    a.damage = _classify(a) + _cut_line(a) + _bad_chars(a) + \
        _disagreements(a) + _model_deltas(a)
    a.damage.sort(key=lambda d: d.line)
    return a


def _utf16(head: bytes) -> str:
    """"UTF-16LE (byte-order mark FF FE)" and the like when the first bytes
    are UTF-16 (a byte-order mark, or ASCII with a NUL after or before
    every byte), else ""."""
    if head[:2] == b"\xff\xfe":
        return "UTF-16LE (byte-order mark FF FE)"
    if head[:2] == b"\xfe\xff":
        return "UTF-16BE (byte-order mark FE FF)"
    if len(head) == 4 and head[1] == 0 and head[3] == 0 and head[0]:
        return "UTF-16LE (a NUL after every character)"
    if len(head) == 4 and head[0] == 0 and head[2] == 0 and head[1]:
        return "UTF-16BE (a NUL before every character)"
    return ""


def _classify(a) -> List[Damage]:
    """pmulog's parse errors, with a kind and a line (the last line for
    what is missing at the end)."""
    log, out = a.log, []
    no_end = log.plan is None and log.summary is None
    for e in log.parse_errors:
        kind = next((k for rx, k in _CLASSES if rx.search(e.message)),
                    "garbage")
        line = e.line
        if kind == "truncated?":
            kind = "truncated" if _at_end(a, e.line) else "garbage"
        elif kind in ("missing-plan", "missing-summary"):
            line = a.last_line
            kind = "truncated" if no_end else kind
        elif kind == "no-tap" and not a.size:
            e = pmulog.ParseError(0, e.message + " (the file is empty)")
        elif kind == "no-tap" and _utf16(a.head):
            e = pmulog.ParseError(0, "no 'TAP version 13' line: the file "
                                  f"is {_utf16(a.head)} text; the harness "
                                  "writes ASCII, so the log was re-encoded "
                                  "on its way (PowerShell's > writes "
                                  "UTF-16): keep its bytes as they came")
        out.append(Damage(line, kind, e.message))
    return out


def of_log(log) -> Analysis:
    """The Analysis of a log pmulog already parsed (from text, or a file
    read before): its damage but what only the file's bytes show (a last
    line without its end, bytes that are not UTF-8, control bytes)."""
    a = Analysis(log.path or "(input)", log, last_line=log.last_line)
    if log.read_error is not None:
        a.damage = [Damage(0, "unreadable", log.read_error)]
        return a
    for r in log.results:
        a.add(r)
    return _judge(a)


def _at_end(a, line):
    """Whether a YAML block left open at `line` ran to the end of input
    (the log was cut inside it) rather than being interrupted."""
    return line == a.last_line and a.last_text.startswith("  ")


def _cut_line(a) -> List[Damage]:
    """The last line has no line end: the capture stopped mid-line."""
    if not a.log.found_version or not a.size or a.ends_in_newline:
        return []
    tail = a.last_text
    return [Damage(a.last_line, "truncated",
                   f"the log ends mid-line (no line end after "
                   f"{_short(tail)})")]


def _bad_chars(a) -> List[Damage]:
    """Control characters and bytes that are not UTF-8 in the harness's
    lines (pmulog keeps them; they mean interleaved output or noise).
    One entry per line, and none where pmulog already flagged the line."""
    flagged = {e.line for e in a.log.parse_errors}
    return [Damage(n, "garbage", problem)
            for n, problem in a.line_problems.items() if n not in flagged]


def _line_problem(line, raw, first=False):
    """What is wrong with the characters of one line, or None."""
    if first:
        # the "TAP version 13" line may start after firmware output
        raw = raw[raw.find(b"TAP version 13"):]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return (f"bytes that are not UTF-8 (0x{raw[e.start]:02x} at "
                f"column {len(raw[:e.start].decode('utf-8', 'replace')) + 1})"
                f": {_short(line)}")
    m = _CONTROL.search(line)
    if m:
        what = "a lone CR" if m.group() == "\r" else \
            f"control character 0x{ord(m.group()):02x}"
        return f"{what} at column {m.start() + 1}: {_short(line)}"
    return None


def _disagreements(a) -> List[Damage]:
    """A summary or a plan that is not what the results add up to."""
    log, out = a.log, []
    s = log.summary
    if s is not None and (s.passed, s.failed, s.skipped) != a.counted:
        p, f, k = a.counted
        out.append(Damage(s.line, "summary-mismatch",
                          f"summary says passed={s.passed} failed={s.failed}"
                          f" skipped={s.skipped}, the results count "
                          f"passed={p} failed={f} skipped={k}"))
    if log.plan is not None and log.plan != a.results:
        out.append(Damage(log.plan_line, "plan-mismatch",
                          f"plan 1..{log.plan} but {a.results} "
                          "results"))
    return out


def _model_deltas(a) -> List[Damage]:
    """A model count or delta the harness would not have written
    (deltas.of_log): what the log says of its counts cannot be trusted."""
    scan = a.deltas or ldeltas.Scan(a.log, keep=False)
    return [Damage(d.line, "model-delta", f"{d.test} {d.key}: {d.message}")
            for d in scan.result().damage]


def _short(text, n=60):
    s = repr(text)
    return s if len(s) <= n else s[:n - 4] + "...'"


def jsonable(v):
    """A YAML value as JSON can hold it: string keys, dates as ISO text,
    bytes and non-finite floats as text."""
    if isinstance(v, dict):
        return {k if isinstance(k, str) else str(k): jsonable(x)
                for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [jsonable(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (datetime, date)):
        return v.isoformat()
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def _result(a, r) -> dict:
    return {"number": r.number, "name": r.name, "status": r.status,
            "directive": r.directive, "reason": r.reason,
            "yaml": jsonable(r.yaml), "line": r.line,
            "elapsed_s": a.elapsed(r)}


_RESULTS = object()     # where fields() puts the results


def fields(a) -> list:
    """The JSON object of one log as [(key, value)], the results as
    _RESULTS (to_dict puts them in, the streaming writer spools them)."""
    log = a.log
    s = log.summary
    p, f, k = a.counted
    v = verdict.judge(a)
    return [
        ("path", a.path),
        ("machine", common.machine_name(log)),
        ("label", common.log_label(log)),
        ("backend", common.backend(log)),
        ("model", common.is_model(log)),
        ("headers", {h.key: {"text": h.text, "words": h.words,
                             "fields": h.fields, "line": h.line}
                     for h in log.headers}),
        ("plan", log.plan),
        ("summary", None if s is None else {
            "passed": s.passed, "failed": s.failed, "skipped": s.skipped,
            "fields": s.fields, "line": s.line}),
        ("verdict", v.word),
        ("why", v.why),
        ("counts", {"passed": p, "failed": f, "skipped": k,
                    "results": a.results, "missing": a.missing}),
        ("time", a.time),
        ("bail_outs", [{"reason": b.text, "line": b.line}
                       for b in log.bail_outs]),
        ("errors", [{"text": e.text, "line": e.line}
                    for e in log.error_lines]),
        ("results", _RESULTS),
        ("in_flight", None if a.in_flight is None else asdict(a.in_flight)),
        ("damage", [{"line": d.line, "kind": d.kind, "message": d.message}
                    for d in a.damage]),
    ]


def to_dict(a) -> dict:
    """The JSON object of one log (docs/lab.md (parse, junit)), of an
    Analysis that kept its results."""
    return {k: ([_result(a, r) for r in a.log.results] if v is _RESULTS
                else v) for k, v in fields(a)}


# ------------------------------------------------------------ JSON text
#
# `parse` writes its JSON as the log is read: each result's text goes to
# a temporary file as it comes (the object's other keys, which come
# before the results, need the whole log), and is copied out at the end.
# The text is what json.dumps(doc, indent=N or None) writes, byte for byte
# (tests/test_parse.py holds it to that); json's own indenting encoder is
# Python, a tenth of the speed of its C one, which this uses for every
# mapping or list of plain values.

_ENC_STR = getattr(json.encoder, "c_encode_basestring_ascii", None) or \
    json.encoder.encode_basestring_ascii
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)


@functools.lru_cache(maxsize=64)
def _flat_encoder(item_separator):
    """json's C encoder (json.dumps without indent) with this item
    separator, for mappings and lists of plain values."""
    if _C_ENCODER is None:
        enc = json.JSONEncoder(separators=(item_separator, ": "))
        return lambda v: enc.encode(v)
    c = _C_ENCODER(None, None, _ENC_STR, None, ": ", item_separator,
                   False, False, True)
    return lambda v: "".join(c(v, 0))


def _plain(v) -> bool:
    """A value json's C encoder writes as jsonable() leaves it."""
    t = type(v)
    return t is str or t is int or t is bool or v is None or \
        (t is float and math.isfinite(v))


def _scalar(v) -> str:
    """JSON text of a value that is neither a mapping nor a list, as
    json.dumps(jsonable(v))."""
    if isinstance(v, str):
        return _ENC_STR(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, float):
        return float.__repr__(v) if math.isfinite(v) else _ENC_STR(str(v))
    if isinstance(v, (datetime, date)):
        return _ENC_STR(v.isoformat())
    return _ENC_STR(str(v))


def _key(k) -> str:
    return _ENC_STR(k if isinstance(k, str) else str(k))


def encode(v, step=None, level=0) -> str:
    """json.dumps(jsonable(v), indent=len(step)) (step: the indentation,
    None for one line) of a value at nesting level: its lines after the
    first indented as json.dumps indents them at that depth."""
    if isinstance(v, dict):
        if not v:
            return "{}"
        flat = all(type(k) is str and _plain(x) for k, x in v.items())
        if step is None:
            if flat:
                return _flat_encoder(", ")(v)
            return "{" + ", ".join(_key(k) + ": " + encode(x)
                                   for k, x in v.items()) + "}"
        pad = "\n" + step * (level + 1)
        if flat:
            body = _flat_encoder("," + pad)(v)[1:-1]
        else:
            body = ("," + pad).join(_key(k) + ": " + encode(x, step,
                                                            level + 1)
                                    for k, x in v.items())
        return "{" + pad + body + "\n" + step * level + "}"
    if isinstance(v, (list, tuple, set)):
        if not v:
            return "[]"
        v = list(v)
        flat = all(_plain(x) for x in v)
        if step is None:
            if flat:
                return _flat_encoder(", ")(v)
            return "[" + ", ".join(encode(x) for x in v) + "]"
        pad = "\n" + step * (level + 1)
        if flat:
            body = _flat_encoder("," + pad)(v)[1:-1]
        else:
            body = ("," + pad).join(encode(x, step, level + 1) for x in v)
        return "[" + pad + body + "\n" + step * level + "]"
    return _scalar(v)


_RECORD = struct.Struct("<BII")


class ResultSpool:
    """A log's results as JSON text (at nesting level, indentation step),
    spooled to a temporary file as the log is read (add, pmulog's
    on_result), then written out in order (write_to) once the "# time:"
    line, which comes last, says which test was the slowest: a result
    whose block has no `elapsed_s` waits for it."""

    def __init__(self, step, level):
        self.step, self.level = step, level
        self.f = tempfile.TemporaryFile(prefix="pmu-parse-")
        self.count = 0
        if step is None:
            self.end = "}"
            self.key = ', "elapsed_s": '
        else:
            self.end = "\n" + step * level + "}"
            self.key = ",\n" + step * (level + 1) + '"elapsed_s": '

    def add(self, r):
        # encode() of {"number": ..., "line": ...}, written out: the same
        # text at a fifth of the cost
        step, level = self.step, self.level
        sep = ", " if step is None else ",\n" + step * (level + 1)
        head = "".join((
            "{" if step is None else "{\n" + step * (level + 1),
            '"number": ', _scalar(r.number), sep,
            '"name": ', _scalar(r.name), sep,
            '"status": ', _scalar(r.status), sep,
            '"directive": ', _scalar(r.directive), sep,
            '"reason": ', _scalar(r.reason), sep,
            '"yaml": ', encode(r.yaml, step, level + 1), sep,
            '"line": ', _scalar(r.line), self.key))
        own = own_elapsed(r)
        if own is not None:
            data = (head + float.__repr__(own) + self.end).encode()
            self.f.write(_RECORD.pack(0, 0, len(data)))
        else:
            name = (r.name or "").encode("utf-8", "surrogatepass")
            data = head.encode()
            self.f.write(_RECORD.pack(1, len(name), len(data)))
            self.f.write(name)
        self.f.write(data)
        self.count += 1

    def write_to(self, out, a, progress=None):
        """Writes the results, a JSON list at level - 1, with out(text);
        a: the log's Analysis (its "# time:" line)."""
        step, f = self.step, self.f
        if not self.count:
            out("[]")
            return
        if step is None:
            first, sep, last = "[", ", ", "]"
        else:
            pad = "\n" + step * self.level
            first, sep, last = "[" + pad, "," + pad, \
                "\n" + step * (self.level - 1) + "]"
        slowest = a.time["slowest"] if a.time else None
        late = {}
        f.seek(0)
        buf, size = [first], 0
        for i in range(self.count):
            flag, nlen, dlen = _RECORD.unpack(f.read(_RECORD.size))
            name = f.read(nlen).decode("utf-8", "surrogatepass") \
                if nlen else ""
            text = f.read(dlen).decode()
            if i:
                buf.append(sep)
            buf.append(text)
            if flag:
                if slowest is not None and name == slowest:
                    if name not in late:
                        late[name] = float.__repr__(a.slowest_elapsed(name))
                    buf.append(late[name])
                else:
                    buf.append("null")
                buf.append(self.end)
            size += dlen
            if size > 1 << 20:
                out("".join(buf))
                buf, size = [], 0
                if progress is not None:
                    progress.writing(a.path, i + 1, self.count)
        buf.append(last)
        out("".join(buf))

    def close(self):
        self.f.close()


def write_object(out, a, spool, step, level, progress=None):
    """Writes the JSON object of one log at nesting level (fields(a),
    the results from spool)."""
    if step is None:
        first, sep, last = "{", ", ", "}"
    else:
        pad = "\n" + step * (level + 1)
        first, sep, last = "{" + pad, "," + pad, "\n" + step * level + "}"
    out(first)
    for i, (k, v) in enumerate(fields(a)):
        if i:
            out(sep)
        out(_ENC_STR(k) + ": ")
        if v is _RESULTS:
            if a.unreadable:        # (a read that failed midway: none)
                out("[]")
            else:
                spool.write_to(out, a, progress)
        else:
            out(encode(v, step, level + 1))
    out(last)


def report_damage(prog, a) -> None:
    """One stderr line per damage: "pmu-harness PROG: FILE:LINE: what"."""
    for d in a.damage:
        where = f"{a.path}:{d.line}" if d.line else a.path
        common.warn(prog, f"{where}: {d.message}")


def exit_status(analyses) -> int:
    """parse's status: the worst of the logs' own (verdict.log_status):
    2 a log cannot be read, 3 one cannot be trusted, else 0."""
    return verdict.worst_status(verdict.judge(a).log_status
                                for a in analyses)


# --indent above this is refused (a usage error): json.dumps would
# indent every line of a 200 MB log's JSON by it.
MAX_INDENT = 16


def add_parser(sub):
    p = sub.add_parser(
        "parse", help="print logs as JSON, with their damage",
        description="Prints the logs as one JSON object {\"logs\": [...]}: "
        "headers, plan, summary, verdict, results with their YAML, "
        "timing, and the damage found (one line each also on stderr). "
        "Exit status: the log's (parse reads logs, it does not judge "
        "runs): 0 every log can be trusted, whatever its tests did; 3 a "
        "log cannot be trusted (HUNG, CUT, DAMAGED: its readable part is "
        "in the JSON); 2 a file cannot be read or bad arguments.  The "
        "verdict words and exit statuses of every subcommand: "
        "docs/lab.md, \"Verdicts and exit statuses\".  A long log shows "
        "its progress on stderr (docs/lab.md, \"Lab scale\").")
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("--indent", type=int, default=2, metavar="N",
                   help=f"JSON indent, 0 to {MAX_INDENT} (default 2; 0: "
                   "one line)")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    if not 0 <= args.indent <= MAX_INDENT:
        common.warn(PROG, f"--indent {args.indent}: must be 0 to "
                          f"{MAX_INDENT}")
        return common.EXIT_USAGE
    step = " " * args.indent if args.indent else None
    progress = common.Progress(PROG)
    # Written as it is made: each log's results are spooled while it is
    # read, then copied out in chunks; nothing holds a whole log.
    out = sys.stdout.write
    if step is None:
        out('{"logs": [')
        sep, last = ", ", "]}"
    else:
        out("{\n" + step + '"logs": [\n' + step * 2)
        sep, last = ",\n" + step * 2, "\n" + step + "]\n}"
    analyses = []
    for i, path in enumerate(args.logs):
        spool = ResultSpool(step, 4)
        try:
            a = analyse(path, on_result=spool.add, keep_results=False,
                        progress=progress)
            if i:
                out(sep)
            write_object(out, a, spool, step, 2, progress)
        finally:
            spool.close()
        analyses.append(a)
    out(last + "\n")
    sys.stdout.flush()
    progress.clear()
    for a in analyses:
        report_damage(PROG, a)
    return exit_status(analyses)
