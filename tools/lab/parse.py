"""pmu-harness parse: a log as JSON, and the damage found in it.

What this module offers the other subcommands:

    a = parse.analyse("run.log")      # never raises on bad input
    a.log                             # the pmulog.Log (tools/lab/pmulog.py)
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

The log format is docs/log-format.md; the manual docs/lab.md (parse, junit).
"""

import json
import math
import re
import sys
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
    last = log.results[-1].line if log.results else 0
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
    ends_in_newline: bool = True    # the input's last byte is LF
    last_text: str = ""             # the last line, as pmulog read it
    # what is wrong with the characters of a harness line (line -> text)
    line_problems: Dict[int, str] = field(default_factory=dict)

    @property
    def unreadable(self) -> bool:
        return self.log.read_error is not None

    @property
    def counted(self):
        """(passed, failed, skipped) counted from the results."""
        return self.log.counts()

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
        return max(0, p - len(self.log.results)) if p is not None else 0

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
        y = result.yaml if isinstance(result.yaml, dict) else {}
        v = y.get("elapsed_s")
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        if self.time and self.time["slowest"] == result.name:
            return self.time["slowest_ms"] / 1000.0
        return None

    def to_dict(self) -> dict:
        return to_dict(self)


def analyse(path) -> Analysis:
    """Reads and parses the log at path; never raises on bad input."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            a = _read(path, f)
    except OSError as e:
        log = pmulog.Log(path=path, read_error=f"cannot read {path}: "
                                               f"{e.strerror or e}")
        log.parse_errors.append(pmulog.ParseError(0, log.read_error))
        a = Analysis(path, log)
        a.damage = [Damage(0, "unreadable", log.read_error)]
        return a
    return _judge(a)


def _read(path, f) -> Analysis:
    """Parses the file a line at a time (pmulog.Parser), checking each
    harness line's bytes as it goes: a long log costs its results, not
    its text."""
    parser = pmulog.Parser(path, keep_lines=False)
    a = Analysis(path, parser.log)
    for raw in f:
        a.last_line += 1
        a.size += len(raw)
        a.ends_in_newline = raw.endswith(b"\n")
        body = raw[:-1] if a.ends_in_newline else raw
        line = body[:-1] if body.endswith(b"\r") else body
        text = line.decode("utf-8", errors="replace")
        first = not parser.log.found_version
        parser.feed(text)
        if not parser.log.found_version:
            continue
        if first:       # the "TAP version 13" line may follow firmware text
            text = text[text.find(pmulog.TAP_VERSION):]
        a.last_text = text
        problem = _line_problem(text, body, first=first)
        if problem:
            a.line_problems[a.last_line] = problem
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
    if log.plan is not None and log.plan != len(log.results):
        out.append(Damage(log.plan_line, "plan-mismatch",
                          f"plan 1..{log.plan} but {len(log.results)} "
                          "results"))
    return out


def _model_deltas(a) -> List[Damage]:
    """A model count or delta the harness would not have written
    (deltas.of_log): what the log says of its counts cannot be trusted."""
    return [Damage(d.line, "model-delta", f"{d.test} {d.key}: {d.message}")
            for d in ldeltas.of_log(a.log).damage]


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


def to_dict(a) -> dict:
    """The JSON object of one log (docs/lab.md (parse, junit))."""
    log = a.log
    s = log.summary
    p, f, k = a.counted
    v = verdict.judge(a)
    return {
        "path": a.path,
        "machine": common.machine_name(log),
        "label": common.log_label(log),
        "backend": common.backend(log),
        "model": common.is_model(log),
        "headers": {h.key: {"text": h.text, "words": h.words,
                            "fields": h.fields, "line": h.line}
                    for h in log.headers},
        "plan": log.plan,
        "summary": None if s is None else {
            "passed": s.passed, "failed": s.failed, "skipped": s.skipped,
            "fields": s.fields, "line": s.line},
        "verdict": v.word,
        "why": v.why,
        "counts": {"passed": p, "failed": f, "skipped": k,
                   "results": len(log.results), "missing": a.missing},
        "time": a.time,
        "bail_outs": [{"reason": b.text, "line": b.line}
                      for b in log.bail_outs],
        "errors": [{"text": e.text, "line": e.line}
                   for e in log.error_lines],
        "results": [_result(a, r) for r in log.results],
        "in_flight": None if a.in_flight is None else asdict(a.in_flight),
        "damage": [{"line": d.line, "kind": d.kind, "message": d.message}
                   for d in a.damage],
    }


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
        "docs/lab.md, \"Verdicts and exit statuses\".")
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("--indent", type=int, default=2, metavar="N",
                   help="JSON indent (default 2; 0: one line)")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    if args.indent < 0:
        common.warn(PROG, f"--indent {args.indent}: must be 0 or more")
        return common.EXIT_USAGE
    analyses = [analyse(path) for path in args.logs]
    doc = {"logs": [to_dict(a) for a in analyses]}
    # One write: json.dump writes token by token, a system call each
    # when stdout is unbuffered (PYTHONUNBUFFERED), seconds for many logs.
    sys.stdout.write(json.dumps(doc, indent=args.indent or None) + "\n")
    sys.stdout.flush()
    for a in analyses:
        report_damage(PROG, a)
    return exit_status(analyses)
