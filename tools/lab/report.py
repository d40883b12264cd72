"""pmu-harness report LOG... -o report.html: one self-contained HTML page
for a row of machines.

The page (docs/lab.md, "report") has, in this order: a verdict per log
(tools/lab/verdict.py: HUNG and the test in flight, CUT, DAMAGED, FAILED
with the timeouts and tests not run, ERRORS with the "# error:" lines,
PASSED), worst first, at the top, on the first screen however many
regressions follow; with --baseline DIR the regressions against the
baseline logs of the same machines; a banner for every log that is
damaged or could not be read (with the line numbers), a summary per log
(machine, CPU, PMU kind, backend, passed/failed/skipped, run time), the
matrix of tests x logs (a missing result is "not chosen" in a finished
run, "lost" in one that stopped), and per PMU test the counts each log
read against the oracle's expectation as an inline SVG plot; last, per
log, where its counts depart from the reference model (tools/lab/
deltas.py: per event, the departures, what the model could not
predict; information, not a verdict).  Logs are
in the verdicts' order everywhere, worst first.  Counts of logs whose
backend is the reference model are marked "model counts, not hardware
counts" wherever they appear.

Large inputs are folded, so the page stays a page: past MAX_ROWS matrix
rows, the rows where every log passed or skipped are counted per group
instead of listed; past MAX_PLOTS plotted tests, only those with a count
off the oracle are drawn; long lists end in "... N more".

Each log is read once, a result at a time (LogData: a few bytes per
result and per test name); the results the page shows in full are read
again from the file, so a log of any length costs the page little
memory (docs/lab.md, "Lab scale").

This module collects what the page says, as plain data; the markup is
the jinja2 template templates/report.html.j2, which inlines the style
templates/report.css.  Nothing on the page is fetched: CSS and SVG are
inline, there is no script, and no src/href points outside the page.
Every text from a log is escaped by the template (jinja2's autoescape),
its control bytes made visible first (svg.clean); the SVG plots are
svg.py's markup, escaped there (svg.esc).

Offers add_parser(sub) for tools/lab/cli.py and render(logs) -> str.
Exit status: the run's status of the worst verdict on the page
(docs/lab.md, "Verdicts and exit statuses": 0 every log PASSED, 1 a
failure, 4 error lines, 77 untested, 3 a log that cannot be trusted,
each problem on
stderr with its line), the page written all the same; 2 bad arguments,
a log that cannot be read (the page is still written from the others),
an output file that cannot be written, or no python3-jinja2 (one line
says so; no page).
"""

import functools
import os
import tempfile
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

from . import common, pmulog, verdict
from . import compare as lcompare
from . import deltas as ldeltas
from . import parse as lparse
from .compare_tolerances import ToleranceError, load as load_tolerances
from .svg import PlotRow, clean, count_plot, cut

MODEL_WORDS = "model counts, not hardware counts"
MAX_PROBLEMS = 12       # parse errors shown per damaged log
MAX_TITLE = 1200        # characters of a matrix cell's tooltip
MAX_ROWS = 2000         # matrix rows listed before the quiet ones fold
MAX_PLOTS = 300         # tests plotted before only the off ones are
MAX_LISTED = 30         # errors, regressions, model deltas listed per log
MAX_EVENTS = 200        # events in a log's model-delta table
# Results of one test name in one log (a run that restarted repeats
# names) read for a cell's tooltip (it is cut at MAX_TITLE characters
# anyway) and drawn in the test's plot.
MAX_CELL_RESULTS = 100
MAX_PLOT_RESULTS = 100


def add_parser(sub):
    p = sub.add_parser(
        "report", help="one self-contained HTML page for a set of logs",
        description="Writes one HTML page (no network, no script needed): "
        "a summary per log, the tests x logs matrix, and per PMU test the "
        "counts read against the oracle as SVG plots, and a verdict per "
        "log.  Exit status (the page is written all the same): the run's "
        "status of the worst verdict, 0 every log PASSED, 1 a failure, "
        "77 untested, 3 a log cannot be trusted (its readable part is "
        "shown); 2 bad arguments, an unreadable log or output.  The "
        "words and statuses: docs/lab.md, \"Verdicts and exit "
        "statuses\".")
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help="serial captures or boot-volume log files")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the HTML file to write")
    p.add_argument("--title", default="pmu-harness report",
                   help="the page's title")
    p.add_argument("--baseline", metavar="DIR",
                   help="a directory of earlier logs (*.log): each log is "
                   "compared with the one of the same machine and backend "
                   "there, and the regressions head the page")
    p.set_defaults(run=run)
    return p


def baseline_logs(d):
    """The readable logs in directory d (*.log, sorted by name); raises
    OSError when d is not a directory."""
    paths = sorted(p for p in Path(d).iterdir() if p.name.endswith(".log")
                   and p.is_file())
    logs = []
    for p in paths:
        log = common.load(p)
        if log.read_error:
            common.warn("report", f"baseline {log.read_error}")
        else:
            logs.append(log)
    return logs


def compare_with_baseline(logs, base_logs, tol):
    """[(baseline log or None, compare.Comparison or None)] per log: the
    baseline of the same machine and backend (compare.machine), the one
    of the same file name if several, else the last by name."""
    out = []
    for log in logs:
        same = [b for b in base_logs
                if lcompare.machine(b) == lcompare.machine(log)]
        named = [b for b in same if _stem(b) == _stem(log)]
        base = (named or same or [None])[-1]
        if base is None or log.read_error:
            out.append((base, None))
        else:
            out.append((base, lcompare.compare_logs(base, log, tol)))
    return out


def run(args):
    try:
        template()
    except MissingJinja as e:
        common.warn("report", str(e))
        return common.EXIT_USAGE
    base_logs = tol = None
    if args.baseline is not None:
        try:
            base_logs = baseline_logs(args.baseline)
            tol = load_tolerances(lcompare.DEFAULT_TOLERANCES)
        except OSError as e:
            common.warn("report", f"--baseline {args.baseline}: "
                                  f"{e.strerror or e}")
            return common.EXIT_USAGE
        except ToleranceError as e:
            common.warn("report", str(e))
            return common.EXIT_USAGE
    # Each log is read once, a result at a time: the page keeps of it
    # what LogData keeps (where each result is, what its cell and plot
    # are); the few results the page shows in full are read again.
    progress = common.Progress("report")
    names = Names()
    read = []
    for path in args.logs:
        data = LogData(names)
        a = lparse.analyse(path, on_result=data.add, keep_results=False,
                           progress=progress, on_delta=data.deltas.add)
        progress.clear()
        lparse.report_damage("report", a)
        if a.unreadable:            # (a read that failed midway: nothing)
            data = LogData(names)
        read.append((a, data))
    baseline = None
    if base_logs is not None:
        # compare reads whole logs: each is read again, whole, for it
        baseline = (args.baseline, compare_with_baseline(
            [a.log if a.unreadable else common.load(a.path)
             for a, _ in read], base_logs, tol))
    ents = entries([a for a, _ in read], baseline[1] if baseline else None,
                   [d for _, d in read])
    progress.step("writing the page")
    page = render(ents, title=args.title, baseline=baseline)
    progress.clear()
    try:
        _write(args.output, page)
    except OSError as e:
        common.warn("report", f"cannot write {args.output}: "
                              f"{e.strerror or e}")
        return common.EXIT_USAGE
    return verdict.worst_status(e.verdict.status for e in ents)


def _write(path, text):
    """Writes text to path whole or not at all (a temporary file renamed)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".report-", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --------------------------------------------------------------- the data

@dataclass
class Entry:
    """A log and its place on the page."""
    n: int                          # 1-based, the argument's position
    analysis: object                # parse.Analysis
    log: object                     # pmulog.Log, analysis.log
    stem: str
    label: str
    model: bool
    data: object = None             # LogData: its results, compactly
    verdict: object = None          # verdict.Verdict
    base: object = None             # the baseline log compared, or None
    cmp: object = None              # its compare.Comparison, or None
    finished: bool = True           # verdict.finished(analysis)
    deltas: object = None           # deltas.Summary
    delta_log: object = None        # deltas.LogDeltas: backend, damage
                                    # (its counters in deltas)


# What LogData.cells says of a test in a log (bits): it has a result of
# that name; one is ok; one is not ok; a not-ok one timed out; a not-ok
# one has a YAML mapping; a not-ok one has a mapping without not_run;
# more than one result has the name.
_PRESENT, _OK, _NOTOK, _TIMED, _NOTOK_Y, _NOTOK_RUN, _MULTI = \
    1, 2, 4, 8, 16, 32, 64
# LogData.plots: a result of that name has counters with an oracle; one
# of them is off the oracle.
_ROWS, _OFF = 1, 2


class Names:
    """Test names, each given a number in the order first seen (shared by
    the logs of a page)."""

    def __init__(self):
        self.ids: Dict[str, int] = {}
        self.names: List[str] = []

    def id(self, name) -> int:
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.names)
            self.names.append(name)
        return i


class LogData:
    """What the page needs of one log's results, collected a result at a
    time (add, parse.analyse's on_result), in a few bytes each: per test
    name what its matrix cell is and whether it has counts to plot (and
    off the oracle), the names in the order this log first has them, and
    where each result is (its name, line, byte offset), so that the few
    results the page shows in full (a failed cell's tooltip, a drawn
    plot) are read again (fetch).  keep: hold the results themselves
    instead (a log parsed from text)."""

    def __init__(self, names, keep=False):
        self.names = names
        self.ids = array("i")           # name of each result
        self.lines = array("i")         # its line
        self.offsets = array("q")       # its line's byte offset
        self.results = [] if keep else None
        self.cells = bytearray()        # per name: _PRESENT, _OK, ...
        self.plots = bytearray()        # per name: _ROWS, _OFF
        self.first_seen = array("i")    # names in this log's order
        self.deltas = ldeltas.Summary(MAX_LISTED)

    def cell(self, i) -> int:
        return self.cells[i] if i < len(self.cells) else 0

    def plot(self, i) -> int:
        return self.plots[i] if i < len(self.plots) else 0

    def add(self, r):
        i = self.names.id(r.name)
        self.ids.append(i)
        self.lines.append(r.line)
        self.offsets.append(getattr(r, "offset", -1))
        if self.results is not None:
            self.results.append(r)
        grow = len(self.names.names) - len(self.cells)
        if grow > 0:
            self.cells.extend(bytes(grow))
            self.plots.extend(bytes(grow))
        c = self.cells[i]
        if c:
            c |= _MULTI
        else:
            c = _PRESENT
            self.first_seen.append(i)
        st = r.status
        y = r.yaml if isinstance(r.yaml, dict) else None
        if st == "ok":
            c |= _OK
        elif st == "not ok":
            c |= _NOTOK
            if y is not None:
                c |= _NOTOK_Y
                if y.get("timed_out") is True:
                    c |= _TIMED
                if "not_run" not in y:
                    c |= _NOTOK_RUN
        self.cells[i] = c
        if y:
            found = common.counts(r)
            if found:
                pl = self.plots[i] | _ROWS
                if any(x.value is not None and x.lo is not None and
                       not x.lo <= x.value <= x.hi for x in found):
                    pl |= _OFF
                self.plots[i] = pl

    def fetch(self, path, wanted, limit) -> Dict[int, tuple]:
        """name -> ([results], how many in all): the log's results of the
        names in wanted, the first limit of each in the log's order, read
        again from path (a result the file no longer has is left out)."""
        idx, seen = [], {}
        for k, i in enumerate(self.ids):
            if i in wanted:
                n = seen[i] = seen.get(i, 0) + 1
                if n <= limit:
                    idx.append(k)
        if self.results is not None:
            got = [self.results[k] for k in idx]
        else:
            got = pmulog.read_results(path, [(self.offsets[k],
                                              self.lines[k]) for k in idx])
        out: Dict[int, tuple] = {i: ([], n) for i, n in seen.items()}
        for k, r in zip(idx, got):
            if r is not None and r.name == self.names.names[self.ids[k]]:
                out[self.ids[k]][0].append(r)
        return out


def _kind_of(c) -> str:
    """A cell's class (_kind) from its LogData.cells bits."""
    if c & _NOTOK:
        if c & _TIMED:
            return "t"
        if c & _NOTOK_Y and not c & _NOTOK_RUN:
            return "n"
        return "f"
    return "p" if c & _OK else "s"


def _stem(log):
    name = Path(log.path).name if log.path else "(input)"
    for suffix in (".log", ".txt"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def entries(logs, baseline=None, data=None) -> List[Entry]:
    """The logs (parse.Analysis, or pmulog.Log: judged without their
    bytes, parse.of_log) as entries, worst verdict first (argument order
    within a verdict); baseline: [(base, comparison)] per log, or None;
    data: each log's LogData, collected as it was read (Analyses that
    kept no results), or None: collected here from their results."""
    names = data[0].names if data else Names()
    out = []
    for n, a in enumerate(logs, 1):
        if not isinstance(a, lparse.Analysis):
            a = lparse.of_log(a)
        log = a.log
        e = Entry(n, a, log, _stem(log), common.log_label(log),
                  common.is_model(log))
        if data:
            e.data = data[n - 1]
        else:
            e.data = LogData(names, keep=True)
            for r in log.results:
                e.data.add(r)
            for d in ldeltas.of_log(log).counters:
                e.data.deltas.add(d)
        if baseline is not None:
            e.base, e.cmp = baseline[n - 1]
        e.verdict = verdict.judge(a, e.cmp.regressions if e.cmp else 0)
        e.finished = verdict.finished(a)
        e.deltas = e.data.deltas
        e.delta_log = a.deltas.result() if a.deltas else \
            ldeltas.Scan(log, keep=False).result()
        out.append(e)
    out.sort(key=lambda e: (e.verdict.rank, e.n))
    return out


def test_groups(ents) -> Dict[str, List[int]]:
    """group -> test names (Names numbers), both in the order first seen
    across the logs."""
    groups: Dict[str, List[int]] = {}
    seen = set()
    names = ents[0].data.names.names if ents else []
    for e in ents:
        for i in e.data.first_seen:
            if i not in seen:
                seen.add(i)
                groups.setdefault(common.test_group(names[i]), []).append(i)
    return groups


# --------------------------------------------------------------- the page
#
# The markup is templates/report.html.j2, the style templates/report.css
# (the template inlines it).  What follows gives the template plain data:
# texts from the logs cut to length (never escaped here: jinja2 escapes
# every value, after _visible made its control bytes visible), numbers
# and lists; the one piece of markup is each plot's SVG (svg.count_plot).

TEMPLATES = Path(__file__).resolve().parent / "templates"
PAGE = "report.html.j2"


class MissingJinja(Exception):
    """python3-jinja2 is not installed: no page can be made."""


def _visible(value):
    """Every {{ value }} of the template before jinja2 escapes it: text
    with its control bytes and lone surrogates made visible (svg.clean);
    markup the template marked safe (the SVG plots) left alone."""
    return value if hasattr(value, "__html__") else clean(value)


@functools.lru_cache(maxsize=None)
def template():
    """The page's template; raises MissingJinja without python3-jinja2."""
    try:
        import jinja2
    except ImportError:
        raise MissingJinja("no page: python3-jinja2 is not installed "
                           "(make deps-check, or apt-get install "
                           "python3-jinja2)") from None
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
        finalize=_visible, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["plural"] = lambda n: "" if n == 1 else "s"
    env.globals.update(MODEL_WORDS=MODEL_WORDS, MAX_ROWS=MAX_ROWS,
                       MAX_PLOTS=MAX_PLOTS)
    return env.get_template(PAGE)


def render(logs, title="pmu-harness report", baseline=None) -> str:
    """The whole page for a list of parse.Analysis or pmulog.Log, or of
    the Entry list entries() made of them; baseline: (DIR, [(base log,
    compare.Comparison)] per log) or None.  Raises MissingJinja."""
    page = template()
    ents = logs if logs and isinstance(logs[0], Entry) else \
        entries(logs, baseline[1] if baseline else None)
    groups = test_groups(ents)
    names = ents[0].data.names.names if ents else []
    return page.render(
        title=title, logs=len(ents),
        tests=sum(len(v) for v in groups.values()),
        regressions=regressions(ents, baseline[0]) if baseline else None,
        verdicts=verdicts(ents),
        damaged=[_damaged(e) for e in ents if e.analysis.damage],
        models=[(e.n, e.stem) for e in ents if e.model],
        machines=[_machine(e) for e in ents],
        matrix=matrix(ents, groups, names),
        plots=count_plots(ents, groups, names),
        deltas=[_log_deltas(e) for e in ents])


def _first(items, limit=MAX_LISTED, each=lambda x: x):
    """The first limit items (each(item)), how many were left off, and
    how many there are."""
    return {"listed": [each(x) for x in items[:limit]],
            "more": max(0, len(items) - limit), "count": len(items)}


# --------------------------------------------------- what is seen first

_BAD = ("UNREADABLE", "HUNG", "CUT", "DAMAGED", "BAIL OUT", "FAILED",
        "REGRESSED")


def _badge(v):
    """A verdict's word and its colour: good (PASSED), bad, or warn."""
    return {"word": v.word,
            "cls": "good" if v.green else "bad" if v.word in _BAD else "warn"}


def verdicts(ents):
    """One line per log, worst first: the verdict, the machine, why; the
    "# error:" lines under it."""
    out = []
    for e in ents:
        v = e.verdict
        out.append({
            "n": e.n, "label": e.label, "badge": _badge(v),
            "why": cut(v.why, 400),
            "hung": None if v.hung is None else {
                "name": v.hung.name, "what": cut(v.hung.what, 200)},
            "errors": _first(v.errors, each=lambda c: {
                "line": c.line, "text": cut(c.text, 300)})})
    return {"passed": sum(1 for e in ents if e.verdict.green), "logs": out}


def regressions(ents, base_dir):
    """The regressions against the baseline logs, per log (most first),
    at the top: status regressions first (compare's sorted_entries); the
    tests this run's tests= did not choose in a folded group of their
    own, never among the regressions."""
    out = []
    for e in sorted(ents, key=lambda e: (-(e.cmp.regressions if e.cmp
                                           else 0), e.verdict.rank, e.n)):
        rg = (e.cmp.sorted_entries((lcompare.REGRESSION,)) if e.cmp
              else [])
        ns = e.cmp.not_selected if e.cmp else []
        out.append({"n": e.n, "label": e.label,
                    "has_base": e.base is not None,
                    "base": e.base.path if e.base is not None else "",
                    "compared": e.cmp is not None, "count": len(rg),
                    "regressions": _first(rg, each=lambda x:
                                          cut(x.text(), 300)),
                    # tests the baseline ran that this run's tests= did
                    # not choose: no regression, folded apart
                    "not_selected": _first(ns, each=lambda x: x.test),
                    "n_not_selected": len(ns)})
    return {"base_dir": base_dir, "logs": out,
            "total": sum(e.cmp.regressions for e in ents if e.cmp)}


def _problem(e):
    where = f"line {e.line}: " if e.line else ""
    return cut(f"{where}{e.message}", 300)


def _damaged(e):
    """A log that is damaged or unreadable: its problems, with the lines."""
    errs = e.analysis.damage
    return {"n": e.n, "label": e.label, "path": e.log.path,
            "unreadable": bool(e.log.read_error), "count": len(errs),
            "problems": _first(errs, MAX_PROBLEMS, _problem)}


def _cpu(log):
    """The "# cpu:" line's numbers (the name is in the log's label) and
    the brand string; None without the line."""
    f = common.cpu_fields(log)
    if not f:
        return None
    extra = log.header("cpu-extra")
    return {"line": log.header("cpu").text, "vendor": f.get("vendor", ""),
            "detail": " ".join(f"{k}={f[k]}" for k in
                               ("family", "model", "stepping", "signature")
                               if k in f),
            "brand": extra.fields.get("brand", "") if extra else ""}


def _pmu(log):
    h = log.header("pmu")
    if not h:
        return None
    f = h.fields
    return {"line": h.text, "kind": f.get("kind", "?"),
            "detail": " ".join(f"{k}={f[k]}" for k in
                               ("version", "counters", "width", "fixed",
                                "present") if k in f)}


def _backend(log):
    h = log.header("backend")
    if not h:
        return None
    return {"name": common.backend(log) or "?",
            "reason": h.fields.get("reason", "")}


def _time(log):
    t = common.run_time(log)
    if not t:
        return None
    slowest = t["slowest"]
    return {"ms": t["run_ms"],
            "tip": f"slowest: {slowest} {t['slowest_ms']} ms"
                   if slowest else ""}


def _notes(e):
    """What else the machine's row says, each a {"kind": ...}."""
    log, notes = e.log, []
    if log.read_error:
        notes.append({"kind": "unreadable", "text": log.read_error})
    elif e.analysis.damage:
        damage = e.analysis.damage
        notes.append({"kind": "damaged", "count": len(damage),
                      "first": next((d.line for d in damage if d.line), 0)})
    for b in log.bail_outs:
        notes.append({"kind": "bail-out", "text": cut(b.text, 200),
                      "line": b.line})
    s = log.summary
    if s and (s.passed, s.failed, s.skipped) != e.analysis.counted:
        notes.append({"kind": "summary", "line": s.line, "passed": s.passed,
                      "failed": s.failed, "skipped": s.skipped})
    if s and s.logfile_error:
        notes.append({"kind": "log-file", "text": cut(s.logfile_error, 200)})
    untested = e.verdict.untested
    if untested is not None:
        notes.append({"kind": "untested", "text": cut(untested, 200)})
    inj = log.header("inject")
    if inj and inj.words[:1] == ["active"]:
        notes.append({"kind": "inject", "text": inj.text})
    return notes


def _machine(e):
    """The log's row of the machines table."""
    p, f, s = e.analysis.counted
    return {"n": e.n, "label": e.label, "path": e.log.path,
            "cls": " ".join(c for c in ("log", "m" if e.model else "",
                                        "damaged" if e.analysis.damage
                                        else "") if c),
            "badge": _badge(e.verdict), "model": e.model,
            "cpu": _cpu(e.log), "pmu": _pmu(e.log),
            "backend": _backend(e.log), "time": _time(e.log),
            "passed": p, "failed": f, "skipped": s, "notes": _notes(e)}


# ------------------------------------------------------------- the matrix

_FAIL_KEYS = ("error", "exception", "vector", "error_code", "rip_in_image",
              "timed_out", "limit_s", "stopped", "not_run")


def _yaml_list(v):
    return v if isinstance(v, list) else [v]


def _result_tip(r) -> str:
    """A result's tooltip: status and line; a skip's reason; a failure's
    messages and the runner's keys (exception, time limit)."""
    if r.status == "skip":
        return f"SKIP (line {r.line}): {r.reason}"
    if r.status == "ok":
        return f"ok (line {r.line})"
    lines = [f"not ok (line {r.line})"]
    y = r.yaml if isinstance(r.yaml, dict) else {}
    if "failed_checks" in y:
        lines.append(f"failed_checks: {y['failed_checks']}")
    for msg in _yaml_list(y.get("failures", [])):
        lines.append(f"- {msg}")
    for k in _FAIL_KEYS:
        if k in y:
            lines.append(f"{k}: {y[k]}")
    return "\n".join(lines)


_MARKS = {"p": "\u2713", "f": "\u2717", "s": "\u2013", "t": "\u25f4",
          "n": "\u2205", "h": "!", "l": "?"}


def _missing_cell(e, name):
    """No result of this name in e's log: in flight when it stopped (h),
    lost to a run that stopped (l), or not chosen in a finished run
    (blank: other tests= globs, another PMU generation's group)."""
    hung = e.verdict.hung
    if hung is not None and hung.name == name:
        return {"cls": "h", "mark": _MARKS["h"],
                "title": f"in flight when the log stops: line {hung.line}, "
                         "no result after it"}
    if e.finished or e.log.read_error:
        # (an unreadable log: its banner says it)
        return {"cls": "", "mark": "", "title": ""}
    return {"cls": "l", "mark": _MARKS["l"],
            "title": "no result: the run stopped before it (lost, not run)"}


def _tipped(c) -> bool:
    """Whether a cell (its LogData.cells bits) has a tooltip: all but a
    test's single pass."""
    return bool(c) and (c & _MULTI or _kind_of(c) != "p")


def _cell(e, i, name, fetched):
    """A matrix cell of test i (Names), name: its class, mark and tooltip
    ("": none); fetched: ([its log's results of the test], how many in
    all) (LogData.fetch), when the cell has a tooltip."""
    c = e.data.cell(i)
    if not c:
        return _missing_cell(e, name)
    cls = _kind_of(c)
    if not _tipped(c):
        return {"cls": cls, "mark": _MARKS[cls], "title": ""}
    results, count = fetched
    tip = "\n".join(_result_tip(r) for r in results)
    if count > len(results):
        tip = f"{count} results of this name (the first {len(results)}):" \
            f"\n{tip}"
    elif len(results) > 1:
        tip = f"{len(results)} results of this name:\n{tip}"
    return {"cls": cls, "mark": _MARKS[cls], "title": cut(tip, MAX_TITLE)}


def _quiet(ents, i) -> bool:
    """Every log that has test i passed or skipped it, and no log lost it
    or stopped in it: a row that can fold."""
    for e in ents:
        c = e.data.cell(i)
        if c:
            if _kind_of(c) not in ("p", "s"):
                return False
        elif not e.finished and not e.log.read_error:
            return False
    return True


def _head(e):
    """A log's column: its number and stem, its label (and the model's
    words) as the tooltip; under it the backend, M for the model."""
    b = common.backend(e.log)
    return {"n": e.n, "stem": cut(e.stem, 40),
            "title": e.label + (f" \u2014 {MODEL_WORDS}" if e.model else ""),
            "backend": b or "no backend line",
            "mark": "M" if e.model else
                    {"hw": "hw", None: "?"}.get(b, "\u2013")}


def matrix(ents, groups, names):
    """Tests x logs, per group; past MAX_ROWS rows the quiet ones fold
    into a count per group.  The results behind the cells with a tooltip
    are read again (LogData.fetch)."""
    total = sum(len(v) for v in groups.values())
    fold = total > MAX_ROWS
    listed = 0
    rows_of = []
    for group, ids in groups.items():
        rows = []
        folded = over = 0
        for i in ids:
            if fold and _quiet(ents, i):
                folded += 1
                continue
            if listed >= MAX_ROWS:
                over += 1
                continue
            listed += 1
            rows.append(i)
        rows_of.append((group, len(ids), rows, folded, over))
    # the cells with a tooltip: not a single pass
    wanted = {e.n: {i for _, _, rows, _, _ in rows_of for i in rows
                    if _tipped(e.data.cell(i))}
              for e in ents}
    fetched = {e.n: e.data.fetch(e.log.path, wanted[e.n], MAX_CELL_RESULTS)
               if wanted[e.n] else {} for e in ents}
    out = []
    for group, count, rows, folded, over in rows_of:
        out.append({"name": group, "tests": count, "rows": [
            {"name": names[i], "shown": cut(names[i], 80),
             "cells": [_cell(e, i, names[i], fetched[e.n].get(i, ([], 0)))
                       for e in ents]} for i in rows],
            "folded": folded, "over": over})
    return {"heads": [_head(e) for e in ents], "columns": len(ents) + 1,
            "total": total, "groups": out}


# ----------------------------------------------------------- the counts

def plot_rows(ents, name, fetched) -> List[PlotRow]:
    """The counters every log read for test name, log by log; fetched:
    per log (Entry.n) its results of the test (LogData.fetch)."""
    rows = []
    for e in ents:
        for r in fetched[e.n]:
            y = r.yaml if isinstance(r.yaml, dict) else {}
            for c in common.counts(r):
                rows.append(PlotRow(
                    log=e.n, stem=e.stem, key=c.key, value=c.value,
                    raw=str(y.get(c.key)), lo=c.lo, hi=c.hi,
                    oracle_text=c.oracle_text, config=c.config,
                    model=e.model))
    return rows


def _plot(name, rows, left=0):
    """A PMU test's plot: how many counts and logs, how many off the
    oracle, and the SVG (svg.count_plot's markup); left: results of the
    test not drawn (past MAX_PLOT_RESULTS in a log)."""
    off = sum(1 for r in rows if r.within is False)
    unknown = sum(1 for r in rows if r.within is None)
    verdict = (f"{off} off the oracle" if off else
               "all within the oracle")
    if unknown:
        verdict += f", {unknown} not comparable"
    if left:
        verdict += (f"; {left} more results of this test not drawn "
                    f"(only the first {MAX_PLOT_RESULTS} of a log are)")
    return {"name": name, "off": off, "verdict": verdict,
            "counts": len(rows), "logs": len({r.log for r in rows}),
            "models": sum(1 for r in rows if r.model),
            "svg": count_plot(rows,
                              caption=f"{name}: counts against the oracle")}


def count_plots(ents, groups, names):
    """Per group, the plots of its PMU tests; past MAX_PLOTS tests only
    those with a count off the oracle (at most MAX_PLOTS).  The results
    of the tests drawn are read again (LogData.fetch)."""
    plots = {group: [i for i in ids
                     if any(e.data.plot(i) & _ROWS for e in ents)]
             for group, ids in groups.items()}
    plotted = sum(len(v) for v in plots.values())
    fold = plotted > MAX_PLOTS
    drawn = skipped = 0
    shown = {}
    for group, ids in plots.items():
        for i in ids:
            if fold and (drawn >= MAX_PLOTS or
                         not any(e.data.plot(i) & _OFF for e in ents)):
                skipped += 1
                continue
            drawn += 1
            shown.setdefault(group, []).append(i)
    wanted = {i for ids in shown.values() for i in ids}
    fetched, left = {}, {}
    for e in ents:
        fetched[e.n] = e.data.fetch(e.log.path, {i for i in wanted
                                                 if e.data.plot(i) & _ROWS},
                                    MAX_PLOT_RESULTS)
        for i, (got, count) in fetched[e.n].items():
            left[i] = left.get(i, 0) + count - len(got)
    out = []
    for group, ids in shown.items():
        out.append({"name": group, "plots": [
            _plot(names[i], plot_rows(
                ents, names[i], {n: f.get(i, ([], 0))[0] for n, f in
                                 fetched.items()}), left.get(i, 0))
            for i in ids]})
    return {"groups": out, "skipped": skipped, "plotted": plotted}


# ------------------------------------------------------- the model deltas

def _deltas_listed(items, count=None):
    """deltas.Delta or deltas.Damage items, the first MAX_LISTED (count:
    how many there are, when items are only the first)."""
    out = _first(items, each=lambda d: {"test": d.test, "key": d.key,
                                        "text": cut(d.text(), 300)})
    if count is not None:
        out["count"] = count
        out["more"] = max(0, count - MAX_LISTED)
    return out


def _event(s):
    """A row of a log's model-delta table: one event (config)."""
    return {"config": s.config, "shown": cut(s.config, 200),
            "compared": s.compared, "agreed": s.agreed,
            "range": ldeltas.range_text(s), "departed": s.departed,
            "none": s.none}


def _log_deltas(e):
    """Per log, where its counts depart from the reference model's: per
    event the counters compared, agreed, the least and greatest delta;
    the departures largest first; the counts the model could not
    predict, with why.  Information, not a verdict."""
    d, sm = e.delta_log, e.deltas
    out = {"n": e.n, "label": e.label, "backend": d.backend,
           "without_model": d.without_model if d.applicable else 0,
           "damage": _deltas_listed(d.damage)}
    if d.backend == "model":
        out["state"] = "model"
    elif not d.applicable:
        out["state"] = "not applicable"
    elif not sm.counters:
        out["state"] = "no model counts"
    else:
        out.update(state="compared", compared=sm.compared,
                   agreed=sm.agreed,
                   events=_first(sm.by_event(), MAX_EVENTS, _event),
                   departed=_deltas_listed(sm.departures(), sm.departed),
                   none=_deltas_listed(sm.none, sm.nones))
    return out
