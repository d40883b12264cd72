"""pmu-harness report LOG... -o report.html: one self-contained HTML page
for a row of machines.

The page (docs/lab.md, "report") has, in this order: a banner for every log
that is damaged or could not be read (with the line numbers), a summary
per log (machine, CPU, PMU kind, backend, passed/failed/skipped, run
time), the matrix of tests x logs, and per PMU test the counts each log
read against the oracle's expectation as an inline SVG plot.  Counts of
logs whose backend is the reference model are marked "model counts, not
hardware counts" wherever they appear.

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

from . import common
from .svg import PlotRow, count_plot, cut, esc

MODEL_WORDS = "model counts, not hardware counts"
MAX_PROBLEMS = 12       # parse errors shown per damaged log
MAX_TITLE = 1200        # characters of a matrix cell's tooltip


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
    p.set_defaults(run=run)
    return p


def run(args):
    logs = [common.load(p) for p in args.logs]
    for log in logs:
        common.report_damage("report", log)
    page = render(logs, title=args.title)
    try:
        _write(args.output, page)
    except OSError as e:
        common.warn("report", f"cannot write {args.output}: "
                              f"{e.strerror or e}")
        return common.EXIT_USAGE
    return common.exit_status(logs)


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
    n: int                          # 1-based, the column number
    log: object                     # pmulog.Log
    stem: str
    label: str
    model: bool
    by_name: Dict[str, list] = field(default_factory=dict)


def _stem(log):
    name = Path(log.path).name if log.path else "(input)"
    for suffix in (".log", ".txt"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def entries(logs) -> List[Entry]:
    out = []
    for n, log in enumerate(logs, 1):
        e = Entry(n, log, _stem(log), common.log_label(log),
                  common.is_model(log))
        for r in log.results:
            e.by_name.setdefault(r.name, []).append(r)
        out.append(e)
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
"""


def render(logs, title="pmu-harness report") -> str:
    """The whole page for a list of pmulog.Log."""
    ents = entries(logs)
    groups = test_groups(ents)
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{esc(title)}</title>"
        "<meta name=\"viewport\" content=\"width=device-width\">"
        f"<style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{len(ents)} log{'s' if len(ents) != 1 else ''}, "
        f"{sum(len(v) for v in groups.values())} tests.</p>",
        damage_banner(ents),
        model_banner(ents),
        summary_table(ents),
        matrix(ents, groups),
        count_plots(ents, groups),
        "</body></html>\n",
    ]
    return "\n".join(p for p in parts if p)


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
           "<th>#</th><th>log</th><th>CPU</th><th>PMU</th><th>backend</th>"
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


def _cell(results) -> str:
    if not results:
        return "<td>"
    statuses = [r.status for r in results]
    st = ("not ok" if "not ok" in statuses else
          "ok" if "ok" in statuses else "skip")
    cls, mark = {"ok": ("p", "\u2713"), "not ok": ("f", "\u2717"),
                 "skip": ("s", "\u2013")}[st]
    if st == "ok" and len(results) == 1:
        return f'<td class="{cls}">{mark}'
    tip = "\n".join(_result_tip(r) for r in results)
    if len(results) > 1:
        tip = f"{len(results)} results of this name:\n{tip}"
    return f'<td class="{cls}" title="{esc(cut(tip, MAX_TITLE))}">{mark}'


def matrix(ents, groups) -> str:
    n = len(ents)
    out = ['<h2 id="matrix">Tests x logs</h2><p class="legend">'
           '<span class="p">\u2713 passed</span>'
           '<span class="f">\u2717 failed</span>'
           '<span class="s">\u2013 skipped</span>'
           "<span>blank: not run</span> Hover a cell for the skip reason "
           "or the failure messages and the log line; M under a column: "
           f"the model backend ({MODEL_WORDS}).</p>"
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
    for group, names in groups.items():
        out.append(f'<tr class="grp"><th colspan="{n + 1}">{esc(group)} '
                   f"({len(names)} tests)</th></tr>")
        for name in names:
            out.append(f'<tr data-test="{esc(name)}"><th class="tn">'
                       f"{esc(cut(name, 80))}</th>")
            out.extend(_cell(e.by_name.get(name)) for e in ents)
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
    for group, names in groups.items():
        blocks = []
        for name in names:
            rows = plot_rows(ents, name)
            if rows:
                blocks.append(_plot_block(name, rows))
        if blocks:
            any_plot = True
            out.append(f"<h3>{esc(group)}</h3>")
            out.extend(blocks)
    if not any_plot:
        out.append("<p>No result has a counter with an oracle value.</p>")
    return "\n".join(out)
