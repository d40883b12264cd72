"""pmu-harness report LOG... -o report.html: one self-contained HTML page
for a row of machines.

The page (docs/lab.md, "report") has, in this order: with --baseline DIR
the regressions against the baseline logs of the same machines; a
verdict per log (tools/lab/verdict.py: HUNG and the test in flight, CUT,
DAMAGED, FAILED with the timeouts and tests not run, ERRORS with the
"# error:" lines, PASSED), worst first; a banner for every log that is
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

Nothing on the page is fetched: CSS and SVG are inline, there is no
script, and no src/href points outside the page.  Every text from a log
goes through svg.esc.

Offers add_parser(sub) for tools/lab/cli.py and render(logs) -> str.
Exit status: 0 the page was written; 3 it was written but a log is
damaged (each problem on stderr with its line); 2 bad arguments, a log
that cannot be read (the page is still written from the others) or an
output file that cannot be written.  A failed test is not an error of
the report: it is on the page.
"""

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from . import common, verdict
from . import compare as lcompare
from . import deltas as ldeltas
from .compare_tolerances import ToleranceError, load as load_tolerances
from .svg import PlotRow, count_plot, cut, esc

MODEL_WORDS = "model counts, not hardware counts"
MAX_PROBLEMS = 12       # parse errors shown per damaged log
MAX_TITLE = 1200        # characters of a matrix cell's tooltip
MAX_ROWS = 2000         # matrix rows listed before the quiet ones fold
MAX_PLOTS = 300         # tests plotted before only the off ones are
MAX_LISTED = 30         # errors, regressions, model deltas listed per log
MAX_EVENTS = 200        # events in a log's model-delta table


def add_parser(sub):
    p = sub.add_parser(
        "report", help="one self-contained HTML page for a set of logs",
        description="Writes one HTML page (no network, no script needed): "
        "a summary per log, the tests x logs matrix, and per PMU test the "
        "counts read against the oracle as SVG plots.  Exit 0 when it was "
        "written, 3 when a log is damaged (its readable part is shown), 2 "
        "for bad arguments or an unreadable log or output.")
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
    logs = [common.load(p) for p in args.logs]
    bad_deltas = False
    for log in logs:
        common.report_damage("report", log)
        for d in ldeltas.of_log(log).damage:
            bad_deltas = True
            common.warn("report", f"{log.path}:{d.line}: {d.test} {d.key}: "
                                  f"{d.message}")
    baseline = None
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
        baseline = (args.baseline,
                    compare_with_baseline(logs, base_logs, tol))
    page = render(logs, title=args.title, baseline=baseline)
    try:
        _write(args.output, page)
    except OSError as e:
        common.warn("report", f"cannot write {args.output}: "
                              f"{e.strerror or e}")
        return common.EXIT_USAGE
    status = common.exit_status(logs)
    if status == common.EXIT_OK and bad_deltas:
        return common.EXIT_DAMAGED
    return status


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
    log: object                     # pmulog.Log
    stem: str
    label: str
    model: bool
    by_name: Dict[str, list] = field(default_factory=dict)
    verdict: object = None          # verdict.Verdict
    base: object = None             # the baseline log compared, or None
    cmp: object = None              # its compare.Comparison, or None
    finished: bool = True           # verdict.finished(log)
    deltas: object = None           # deltas.LogDeltas


def _stem(log):
    name = Path(log.path).name if log.path else "(input)"
    for suffix in (".log", ".txt"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def entries(logs, baseline=None) -> List[Entry]:
    """The logs as entries, worst verdict first (argument order within a
    verdict); baseline: [(base, comparison)] per log, or None."""
    out = []
    for n, log in enumerate(logs, 1):
        e = Entry(n, log, _stem(log), common.log_label(log),
                  common.is_model(log))
        if baseline is not None:
            e.base, e.cmp = baseline[n - 1]
        e.verdict = verdict.of(log, e.cmp.regressions if e.cmp else 0)
        e.finished = verdict.finished(log)
        e.deltas = ldeltas.of_log(log)
        for r in log.results:
            e.by_name.setdefault(r.name, []).append(r)
        out.append(e)
    out.sort(key=lambda e: (e.verdict.rank, e.n))
    return out


def test_groups(ents) -> Dict[str, List[str]]:
    """group -> test names, both in the order first seen across the logs."""
    groups: Dict[str, List[str]] = {}
    seen = set()
    for e in ents:
        for r in e.log.results:
            if r.name not in seen:
                seen.add(r.name)
                groups.setdefault(common.test_group(r.name), []).append(r.name)
    return groups


# --------------------------------------------------------------- the page

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#111}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #999}
table{border-collapse:collapse}
.sum td,.sum th{border:1px solid #bbb;padding:2px 6px;vertical-align:top}
.sum th{background:#eee}.num{text-align:right}
.sum small{color:#555}
.np{background:#d9f2d9}.nf{background:#f8c8c8}.ns{background:#eee}
.model{background:#fff0b3;border:1px solid #c90;padding:0 4px;
 border-radius:3px;font-size:.85em;white-space:nowrap}
.banner{border:2px solid #b00;background:#fee;padding:.4em 1em;margin:1em 0}
.banner.mnote{border-color:#c90;background:#fff8dc}
.banner h2{margin:0;border:0;font-size:1.1em}
.banner li{font-family:monospace;white-space:pre-wrap}
.bad{color:#b00;font-weight:bold}
.mx{font-size:12px}
.mx td{border:1px solid #ddd;width:16px;height:16px;padding:0;
 text-align:center}
.mx th.tn{text-align:left;font-weight:normal;padding-right:8px;
 white-space:nowrap;font-family:monospace}
.mx thead th{position:sticky;top:0;background:#fff;vertical-align:bottom;
 border-bottom:1px solid #999}
.mx thead th.lh{writing-mode:vertical-rl;transform:rotate(180deg);
 font-weight:normal;white-space:nowrap;max-height:14em;overflow:hidden;
 text-align:left}
.mx thead tr.be th{top:auto;font-size:10px;color:#555}
.mx tr.grp th{text-align:left;background:#e8e8f0;padding:4px}
.mx td.p{background:#c8ecc8;color:#060}
.mx td.f{background:#f5a0a0;color:#600;font-weight:bold}
.mx td.s{background:#e4e4e4;color:#666}
.mx td.t,.mx td.n{background:#f5a0a0;color:#600;font-weight:bold}
.mx td.h{background:#b00;color:#fff;font-weight:bold}
.mx td.l{background:#fff;color:#b00;border:1px dashed #b00}
.mx tr.fold td{text-align:left;width:auto;color:#555;font-style:italic;
 padding:2px 6px}
.vd{font-weight:bold;padding:0 6px;border-radius:3px;white-space:nowrap}
.vd.bad{background:#b00;color:#fff}.vd.warn{background:#e90;color:#000}
.vd.good{background:#2a2;color:#fff}
#verdicts li,#regressions li{margin:.2em 0}
#verdicts ul.err,#regressions ul.rg{font-family:monospace;font-size:12px;
 white-space:pre-wrap;overflow-wrap:anywhere}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;
 border:1px solid #ccc}
details.pt{margin:.3em 0}
details.pt>summary{cursor:pointer;font-family:monospace}
details.pt.off>summary{color:#b00;font-weight:bold}
svg.plot{display:block;margin:.3em 0 .8em 0;background:#fcfcfc}
svg.plot text{font:11px monospace;fill:#222}
svg.plot g.r text{text-anchor:end}
svg.plot g.r text.v{text-anchor:start}
svg.plot text.tl{text-anchor:middle;fill:#666}
svg.plot text.key{font-weight:bold}
svg.plot line.tick{stroke:#ddd}
svg.plot rect.exact{fill:#36c}
svg.plot rect.band{fill:#9bd;fill-opacity:.7;stroke:#36c}
svg.plot circle{stroke-width:2}
svg.plot g.in circle{fill:#2a2;stroke:#060}
svg.plot g.off circle{fill:#e22;stroke:#700}
svg.plot g.m circle{fill:#fff}
svg.plot g.off text.v{fill:#b00;font-weight:bold}
svg.plot tspan.mw{fill:#960;font-style:italic}
.md td.dep{background:#fde2c8}
#model-deltas ul{font-family:monospace;font-size:12px;white-space:pre-wrap;
 overflow-wrap:anywhere}
"""


def render(logs, title="pmu-harness report", baseline=None) -> str:
    """The whole page for a list of pmulog.Log; baseline: (DIR, [(base
    log, compare.Comparison)] per log) or None."""
    ents = entries(logs, baseline[1] if baseline else None)
    groups = test_groups(ents)
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{esc(title)}</title>"
        "<meta name=\"viewport\" content=\"width=device-width\">"
        f"<style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{len(ents)} log{'s' if len(ents) != 1 else ''}, "
        f"{sum(len(v) for v in groups.values())} tests.</p>",
        regressions(ents, baseline[0]) if baseline else "",
        verdicts(ents),
        damage_banner(ents),
        model_banner(ents),
        summary_table(ents),
        matrix(ents, groups),
        count_plots(ents, groups),
        model_deltas(ents),
        "</body></html>\n",
    ]
    return "\n".join(p for p in parts if p)


# --------------------------------------------------- what is seen first

_BAD = ("UNREADABLE", "HUNG", "CUT", "DAMAGED", "BAIL OUT", "FAILED",
        "REGRESSED")


def verdict_badge(v) -> str:
    cls = "good" if v.green else "bad" if v.word in _BAD else "warn"
    return f'<span class="vd {cls}">{esc(v.word)}</span>'


def _more(items, shown):
    n = len(items) - shown
    return f"<li>... and {n} more</li>" if n > 0 else ""


def verdicts(ents) -> str:
    """One line per log, worst first: the verdict, the machine, why; the
    "# error:" lines under it."""
    bad = sum(1 for e in ents if not e.verdict.green)
    out = ['<section id="verdicts"><h2>Verdicts</h2>'
           f"<p>{len(ents) - bad} of {len(ents)} log"
           f"{'s' if len(ents) != 1 else ''} passed.</p><ul>"]
    for e in ents:
        v = e.verdict
        out.append(f'<li class="v" data-log="{e.n}" data-verdict='
                   f'"{esc(v.word)}">{verdict_badge(v)} '
                   f'<a href="#log-{e.n}">{esc(e.label)}</a>: '
                   f"{esc(cut(v.why, 400))}")
        if v.hung is not None:
            out.append(f'<br>in flight: <strong class="hung">'
                       f"{esc(v.hung.name)}</strong> ({esc(cut(v.hung.what, 200))})")
        if v.errors:
            out.append('<ul class="err">')
            for c in v.errors[:MAX_LISTED]:
                out.append(f"<li>line {c.line}: # error: "
                           f"{esc(cut(c.text, 300))}</li>")
            out.append(_more(v.errors, MAX_LISTED) + "</ul>")
        out.append("</li>")
    out.append("</ul></section>")
    return "".join(out)


def regressions(ents, base_dir) -> str:
    """The regressions against the baseline logs, per log, at the top."""
    total = sum(e.cmp.regressions for e in ents if e.cmp)
    out = ['<section class="banner" id="regressions"><h2>'
           f"{total} regression{'s' if total != 1 else ''} against the "
           f"baseline {esc(base_dir)}</h2><ul>"]
    for e in sorted(ents, key=lambda e: (-(e.cmp.regressions if e.cmp
                                           else 0), e.verdict.rank, e.n)):
        head = f'<li data-log="{e.n}"><a href="#log-{e.n}">{esc(e.label)}</a>: '
        if e.base is None:
            out.append(head + "no baseline log of this machine and backend"
                       "</li>")
            continue
        if e.cmp is None:
            out.append(head + "not compared (the log cannot be read)</li>")
            continue
        rg = e.cmp.sorted_entries((lcompare.REGRESSION,))
        out.append(head + f'<span class="{"bad" if rg else ""}">'
                   f"{len(rg)} regression{'s' if len(rg) != 1 else ''}"
                   f"</span> against {esc(e.base.path)}")
        if rg:
            out.append('<ul class="rg">')
            out.extend(f"<li>{esc(cut(x.text(), 300))}</li>"
                       for x in rg[:MAX_LISTED])
            out.append(_more(rg, MAX_LISTED) + "</ul>")
        out.append("</li>")
    out.append("</ul></section>")
    return "".join(out)


def _problem(e):
    where = f"line {e.line}: " if e.line else ""
    return f"{where}{e.message}"


def damage_banner(ents) -> str:
    """One block per log that is damaged or unreadable, with the lines."""
    bad = [e for e in ents if common.is_damaged(e.log)]
    if not bad:
        return ""
    out = [f'<section class="banner" id="damage"><h2>{len(bad)} '
           f"damaged or unreadable log{'s' if len(bad) != 1 else ''}"
           "</h2>"]
    for e in bad:
        errs = e.log.parse_errors
        what = ("cannot be read: nothing from it is shown"
                if e.log.read_error else
                "damaged: what could be read is shown")
        out.append(f'<div class="dmg" id="damage-{e.n}" data-log="{e.n}">'
                   f'<a href="#log-{e.n}">{esc(e.label)}</a> '
                   f'<span class="bad">{what}</span> '
                   f"({len(errs)} problem{'s' if len(errs) != 1 else ''}, "
                   f"{esc(e.log.path)})<ul>")
        for pe in errs[:MAX_PROBLEMS]:
            out.append(f"<li>{esc(cut(_problem(pe), 300))}</li>")
        if len(errs) > MAX_PROBLEMS:
            out.append(f"<li>... and {len(errs) - MAX_PROBLEMS} more "
                       "(pmu-harness parse lists them all)</li>")
        out.append("</ul></div>")
    out.append("</section>")
    return "".join(out)


def model_banner(ents) -> str:
    models = [e for e in ents if e.model]
    if not models:
        return ""
    names = ", ".join(f'<a href="#log-{e.n}">{esc(e.stem)}</a>'
                      for e in models)
    return (f'<section class="banner mnote" id="model-note"><h2>Model '
            f"results</h2><p>{len(models)} of {len(ents)} logs ran on the "
            "reference model (backend model): their counts are "
            f'<span class="model">{MODEL_WORDS}</span>. {names}</p>'
            "</section>")


def _cpu_cell(log):
    """The "# cpu:" line's numbers (the name is in the log's label) and
    the brand string."""
    f = common.cpu_fields(log)
    if not f:
        return '<span class="bad">no # cpu: line</span>'
    detail = " ".join(f"{k}={f[k]}" for k in
                      ("family", "model", "stepping", "signature") if k in f)
    extra = log.header("cpu-extra")
    brand = extra.fields.get("brand", "") if extra else ""
    return (f'<small title="{esc(log.header("cpu").text)}">'
            f"{esc(f.get('vendor', ''))} {esc(detail)}"
            f"{'<br>' + esc(brand) if brand else ''}</small>")


def _pmu_cell(log):
    h = log.header("pmu")
    if not h:
        return '<span class="bad">no # pmu: line</span>'
    f = h.fields
    more = " ".join(f"{k}={f[k]}" for k in
                    ("version", "counters", "width", "fixed", "present")
                    if k in f)
    return (f'<span title="{esc(h.text)}">{esc(f.get("kind", "?"))}</span>'
            f"<br><small>{esc(more)}</small>")


def _backend_cell(e):
    h = e.log.header("backend")
    if not h:
        return '<span class="bad">no # backend: line</span>'
    name = common.backend(e.log) or "?"
    reason = h.fields.get("reason", "")
    model = f'<br><span class="model">{MODEL_WORDS}</span>' if e.model else ""
    return f'<span title="{esc(reason)}">{esc(name)}</span>{model}'


def _time_cell(log):
    t = common.run_time(log)
    if not t:
        return "\u2014"
    ms, slowest, slow_ms = t["run_ms"], t["slowest"], t["slowest_ms"]
    tip = f"slowest: {slowest} {slow_ms} ms" if slowest else ""
    return f'<span title="{esc(tip)}">{ms} ms</span>'


def _notes(e):
    log, notes = e.log, []
    if log.read_error:
        notes.append(f'<span class="bad">{esc(log.read_error)}</span>')
    elif common.is_damaged(log):
        first = next((pe.line for pe in log.parse_errors if pe.line), 0)
        at = f", first at line {first}" if first else ""
        notes.append(f'<a class="bad" href="#damage-{e.n}">damaged: '
                     f"{len(log.parse_errors)} problem"
                     f"{'s' if len(log.parse_errors) != 1 else ''}{at}</a>")
    for b in log.bail_outs:
        notes.append(f'<span class="bad">Bail out! {esc(cut(b.text, 200))} '
                     f"(line {b.line})</span>")
    s = log.summary
    if s and (s.passed, s.failed, s.skipped) != log.counts():
        notes.append(f'<span class="bad">the summary line (line {s.line}) '
                     f"says passed={s.passed} failed={s.failed} "
                     f"skipped={s.skipped}</span>")
    if s and s.logfile_error:
        notes.append(f"log file: {esc(cut(s.logfile_error, 200))}")
    untested = common.untested_reason(log)
    if untested is not None:
        notes.append('<span class="bad">untested (no pass): '
                     f"{esc(cut(untested, 200))}</span>")
    inj = log.header("inject")
    if inj and inj.words[:1] == ["active"]:
        notes.append(f'<span title="{esc(inj.text)}">inject= active: '
                     "results include injected faults</span>")
    return "<br>".join(notes)


def summary_table(ents) -> str:
    out = ['<h2 id="summary">Machines</h2><table class="sum"><thead><tr>'
           "<th>#</th><th>verdict</th><th>log</th><th>CPU</th><th>PMU</th><th>backend</th>"
           "<th>passed</th><th>failed</th><th>skipped</th><th>time</th>"
           "<th>notes</th></tr></thead><tbody>"]
    for e in ents:
        p, f, s = e.log.counts()
        cls = " ".join(c for c in ("log", "m" if e.model else "",
                                   "damaged" if common.is_damaged(e.log)
                                   else "") if c)
        out.append(
            f'<tr id="log-{e.n}" class="{cls}" data-log="{e.n}">'
            f'<td class="num">{e.n}</td>'
            f"<td>{verdict_badge(e.verdict)}</td>"
            f'<td><strong class="label">{esc(e.label)}</strong><br>'
            f"<small>{esc(e.log.path)}</small></td>"
            f"<td>{_cpu_cell(e.log)}</td><td>{_pmu_cell(e.log)}</td>"
            f"<td>{_backend_cell(e)}</td>"
            f'<td class="num np">{p}</td>'
            f'<td class="num{" nf" if f else ""}">{f}</td>'
            f'<td class="num ns">{s}</td>'
            f'<td class="num">{_time_cell(e.log)}</td>'
            f"<td>{_notes(e)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


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


def _kind(results) -> str:
    """A cell's class: p passed, f failed, t timed out, n not run for the
    whole-run limit, s skipped."""
    statuses = [r.status for r in results]
    if "not ok" in statuses:
        ys = [r.yaml for r in results if r.status == "not ok"
              and isinstance(r.yaml, dict)]
        if any(y.get("timed_out") is True for y in ys):
            return "t"
        if ys and all("not_run" in y for y in ys):
            return "n"
        return "f"
    return "p" if "ok" in statuses else "s"


_MARKS = {"p": "\u2713", "f": "\u2717", "s": "\u2013", "t": "\u23f1",
          "n": "\u2205", "h": "!", "l": "?"}


def _missing_cell(e, name) -> str:
    """No result of this name in e's log: in flight when it stopped (h),
    lost to a run that stopped (l), or not chosen in a finished run
    (blank: other tests= globs, another PMU generation's group)."""
    hung = e.verdict.hung
    if hung is not None and hung.name == name:
        return (f'<td class="h" title="in flight when the log stops: '
                f'line {hung.line}, no result after it">!')
    if e.finished or e.log.read_error:
        return "<td>"           # (an unreadable log: its banner says it)
    return ('<td class="l" title="no result: the run stopped before it '
            '(lost, not run)">?')


def _cell(e, name) -> str:
    results = e.by_name.get(name)
    if not results:
        return _missing_cell(e, name)
    cls = _kind(results)
    mark = _MARKS[cls]
    if cls == "p" and len(results) == 1:
        return f'<td class="{cls}">{mark}'
    tip = "\n".join(_result_tip(r) for r in results)
    if len(results) > 1:
        tip = f"{len(results)} results of this name:\n{tip}"
    return f'<td class="{cls}" title="{esc(cut(tip, MAX_TITLE))}">{mark}'


def _quiet(ents, name) -> bool:
    """Every log that has the test passed or skipped it, and no log lost
    it or stopped in it: a row that can fold."""
    for e in ents:
        results = e.by_name.get(name)
        if results:
            if _kind(results) not in ("p", "s"):
                return False
        elif not e.finished and not e.log.read_error:
            return False
    return True


def matrix(ents, groups) -> str:
    n = len(ents)
    out = ['<h2 id="matrix">Tests x logs</h2><p class="legend">'
           '<span class="p">\u2713 passed</span>'
           '<span class="f">\u2717 failed</span>'
           '<span class="s">\u2013 skipped (not applicable)</span>'
           '<span class="t">\u23f1 timed out</span>'
           '<span class="n">\u2205 not run: whole-run limit</span>'
           '<span class="h">! in flight when the log stops</span>'
           '<span class="l">? lost: the run stopped before it</span>'
           "<span>blank: not chosen in a finished run (tests=, another "
           "PMU generation)</span> Hover a cell for the skip reason "
           "or the failure messages and the log line; M under a column: "
           f"the model backend ({MODEL_WORDS}). Logs are in the verdicts' "
           "order, worst first.</p>"
           '<table class="mx"><thead><tr><th>test</th>']
    for e in ents:
        tip = e.label + (f" \u2014 {MODEL_WORDS}" if e.model else "")
        out.append(f'<th class="lh" title="{esc(tip)}">'
                   f'<a href="#log-{e.n}">{e.n} {esc(cut(e.stem, 40))}</a>')
    out.append('</tr><tr class="be"><th>backend</th>')
    for e in ents:
        b = common.backend(e.log)
        mark = "M" if e.model else {"hw": "hw", None: "?"}.get(b, "\u2013")
        out.append(f'<th title="{esc(b or "no backend line")}">{mark}')
    out.append("</tr></thead><tbody>")
    total = sum(len(v) for v in groups.values())
    fold = total > MAX_ROWS
    listed = 0
    for group, names in groups.items():
        out.append(f'<tr class="grp"><th colspan="{n + 1}">{esc(group)} '
                   f"({len(names)} tests)</th></tr>")
        folded = over = 0
        for name in names:
            if fold and _quiet(ents, name):
                folded += 1
                continue
            if listed >= MAX_ROWS:
                over += 1
                continue
            listed += 1
            out.append(f'<tr data-test="{esc(name)}"><th class="tn">'
                       f"{esc(cut(name, 80))}</th>")
            out.extend(_cell(e, name) for e in ents)
        if folded:
            out.append(f'<tr class="fold"><td colspan="{n + 1}">{folded} '
                       "tests passed or skipped on every log that ran them"
                       f" (folded: {total} tests are more than {MAX_ROWS}; "
                       "pmu-harness parse lists them)</td></tr>")
        if over:
            out.append(f'<tr class="fold"><td colspan="{n + 1}">{over} '
                       f"more tests not listed (the page lists {MAX_ROWS}; "
                       "pmu-harness parse and junit have them all)"
                       "</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


# ----------------------------------------------------------- the counts

def plot_rows(ents, name) -> List[PlotRow]:
    """The counters every log read for test name, log by log."""
    rows = []
    for e in ents:
        for r in e.by_name.get(name, ()):
            y = r.yaml if isinstance(r.yaml, dict) else {}
            for c in common.counts(r):
                rows.append(PlotRow(
                    log=e.n, stem=e.stem, key=c.key, value=c.value,
                    raw=str(y.get(c.key)), lo=c.lo, hi=c.hi,
                    oracle_text=c.oracle_text, config=c.config,
                    model=e.model))
    return rows


def _plot_block(name, rows) -> str:
    off = sum(1 for r in rows if r.within is False)
    unknown = sum(1 for r in rows if r.within is None)
    logs = len({r.log for r in rows})
    verdict = (f"{off} off the oracle" if off else
               "all within the oracle")
    if unknown:
        verdict += f", {unknown} not comparable"
    models = sum(1 for r in rows if r.model)
    mark = ""
    if models:
        mark = (f' <span class="model">{MODEL_WORDS}'
                f"{'' if models == len(rows) else ' (some)'}</span>")
    cls = "pt off" if off else "pt"
    return (f'<details class="{cls}" data-test="{esc(name)}"'
            f'{" open" if off else ""}><summary>{esc(name)}: '
            f"{len(rows)} count{'s' if len(rows) != 1 else ''} from {logs} "
            f"log{'s' if logs != 1 else ''}, {verdict}{mark}</summary>"
            + count_plot(rows, caption=f"{name}: counts against the oracle")
            + "</details>")


def count_plots(ents, groups) -> str:
    out = ['<h2 id="counts">Counts against the oracle</h2><p class="legend">'
           "Per PMU test, per counter: a dot for the value each log read "
           "(green within the oracle, red off it; hollow: model), a blue "
           "mark for the oracle's exact value or a band for its range "
           "(a range is the increment over the counter's preset; the plot "
           "draws it from 0). The axis is logarithmic, log10(1 + count), "
           "scaled per test. The values are written beside each row and "
           "in its tooltip. Tests with a count off the oracle are open."
           "</p>"]
    any_plot = False
    plots = {group: [(name, rows) for name in names
                     for rows in (plot_rows(ents, name),) if rows]
             for group, names in groups.items()}
    plotted = sum(len(v) for v in plots.values())
    fold = plotted > MAX_PLOTS
    drawn = skipped = 0
    for group, tests in plots.items():
        blocks = []
        for name, rows in tests:
            if fold and (drawn >= MAX_PLOTS or
                         not any(r.within is False for r in rows)):
                skipped += 1
                continue
            drawn += 1
            blocks.append(_plot_block(name, rows))
        if blocks:
            any_plot = True
            out.append(f"<h3>{esc(group)}</h3>")
            out.extend(blocks)
    if skipped:
        out.append(f'<p class="fold" id="plots-folded">{skipped} of '
                   f"{plotted} tests with counts are not drawn: past "
                   f"{MAX_PLOTS} tests only those with a count off the "
                   f"oracle are (at most {MAX_PLOTS}); pmu-harness parse "
                   "has every value.</p>")
    elif not any_plot:
        out.append("<p>No result has a counter with an oracle value.</p>")
    return "\n".join(out)


# ------------------------------------------------------- the model deltas

def _delta_list(items, cls, head) -> str:
    """A list of deltas.Delta or deltas.Damage texts, folded."""
    if not items:
        return ""
    out = [f'<p>{head}</p><ul class="{cls}">']
    for d in items[:MAX_LISTED]:
        out.append(f'<li data-test="{esc(d.test)}" data-key="{esc(d.key)}">'
                   f"{esc(cut(d.text(), 300))}</li>")
    out.append(_more(items, MAX_LISTED) + "</ul>")
    return "".join(out)


DEP_CLASS = ' class="dep"'


def _event_table(stats) -> str:
    out = ['<table class="sum md"><thead><tr><th>event (config)</th>'
           "<th>compared</th><th>agreed (delta 0)</th><th>delta min..max"
           "</th><th>departed</th><th>no model count</th></tr></thead>"
           "<tbody>"]
    for s in stats[:MAX_EVENTS]:
        dep = len(s.departures)
        out.append(f'<tr data-event="{esc(s.config)}"'
                   f'{DEP_CLASS if dep else ""}>'
                   f"<td>{esc(cut(s.config, 200))}</td>"
                   f'<td class="num">{s.compared}</td>'
                   f'<td class="num">{s.agreed}</td>'
                   f'<td class="num">{ldeltas.range_text(s)}</td>'
                   f'<td class="num{" dep" if dep else ""}">{dep}</td>'
                   f'<td class="num">{len(s.none)}</td></tr>')
    if len(stats) > MAX_EVENTS:
        out.append(f'<tr class="fold"><td colspan="6">... and '
                   f"{len(stats) - MAX_EVENTS} more events</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _log_deltas(e) -> str:
    d = e.deltas
    head = (f'<div class="mdlog" id="deltas-{e.n}" data-log="{e.n}"><h3>'
            f'<a href="#log-{e.n}">{esc(e.label)}</a></h3>')
    if d.backend == "model":
        body = ("<p>backend model: its counts are the reference model's "
                "own; there is nothing to diff.</p>")
    elif not d.applicable:
        body = (f"<p>backend {esc(d.backend or '(no backend line)')}: no "
                "counts from silicon or its emulation; nothing to diff.</p>")
    elif not d.counters:
        body = ("<p>No model counts in this log (none of its counters has "
                "a <code>_model</code> line).</p>")
    else:
        stats = ldeltas.by_event(d.counters)
        departed = sorted((x for x in d.deltas if x.delta),
                          key=lambda x: -abs(x.delta))
        agreed = sum(1 for x in d.deltas if x.delta == 0)
        body = (f"<p>{len(d.deltas)} counter"
                f"{'s' if len(d.deltas) != 1 else ''} compared with the "
                f"model, {agreed} agreed, {len(departed)} departed; "
                f"{len(d.none)} the model could not predict.</p>"
                + _event_table(stats)
                + _delta_list(departed, "dep", "Departures from the model, "
                              "largest first (counted minus model):")
                + _delta_list(d.none, "none", "Counted where the model "
                              "could not predict:"))
    if d.without_model and d.applicable:
        body += (f"<p>{d.without_model} counter"
                 f"{'s' if d.without_model != 1 else ''} with an oracle "
                 "value but no model line.</p>")
    body += _delta_list(d.damage, "bad", '<span class="bad">Damaged model '
                        "values</span> (left out of the counts above):")
    return head + body + "</div>"


def model_deltas(ents) -> str:
    """Per log, where its counts depart from the reference model's: per
    event the counters compared, agreed, the least and greatest delta;
    the departures largest first; the counts the model could not
    predict, with why.  Information, not a verdict."""
    out = ['<section id="model-deltas"><h2>Model deltas</h2>'
           '<p class="legend">On hardware (backend hw) and emulated '
           "(backend emulated) runs each counter's count is set beside the "
           "reference model's count for the same register writes and the "
           "benchmark's trace: the delta is counted minus model. A delta "
           "is where this silicon (or its emulation) departs from the "
           "model; it is information, not a failure: the test's own oracle "
           "decided pass or fail.</p>"]
    out.extend(_log_deltas(e) for e in ents)
    out.append("</section>")
    return "\n".join(out)
