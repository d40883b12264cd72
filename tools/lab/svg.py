"""Markup helpers of `pmu-harness report`: escaping any text that came from
a log, and the inline SVG plot of a PMU test's counts against the oracle.

    esc(text)                   text for HTML content or a quoted attribute
    PlotRow(...)                one counter of one log
    count_plot(rows) -> str     an <svg> element, one row per PlotRow

Everything from a log is escaped: markup characters become references,
and bytes that have no business in HTML (C0/C1 controls, lone
surrogates from a YAML escape) are written as visible \\xNN / \\uNNNN.
"""

import html
import math
import re
from dataclasses import dataclass
from typing import List, Optional

_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _visible(m):
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def clean(text) -> str:
    """str(text) with control bytes and lone surrogates made visible."""
    return _UNPRINTABLE.sub(_visible, str(text))


def esc(text) -> str:
    """text, escaped for HTML content and double- or single-quoted
    attribute values."""
    return html.escape(clean(text), quote=True)


def cut(text, limit) -> str:
    """text shortened to limit characters, with a note of what was cut."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters]"


@dataclass
class PlotRow:
    """One counter read by one log, and the oracle's expectation."""
    log: int                    # the log's number in the report (1-based)
    stem: str                   # the log's file stem, the row's label
    key: str                    # YAML key, "cpl3_ctr0"
    value: Optional[int]        # read (None: not a number)
    raw: str                    # the value as written
    lo: Optional[int]           # oracle range; lo == hi: exact
    hi: Optional[int]
    oracle_text: str
    config: str                 # what the counter counted
    model: bool                 # the log's counts are the model's

    @property
    def within(self) -> Optional[bool]:
        """The value is inside the oracle's range (None: cannot tell)."""
        if self.value is None or self.lo is None:
            return None
        return self.lo <= self.value <= self.hi


# Geometry (px).  The x axis is symmetric-logarithmic, log10(1 + v), so
# that 0, 4 and 10^12 fit on one test's axis; ticks at powers of ten.
WIDTH = 1000
LABEL_W = 200           # log stems at the left
PLOT_X = 210
PLOT_W = 380
TEXT_X = PLOT_X + PLOT_W + 12
ROW_H = 16
TOP = 22                # the axis labels


def _scale(top):
    span = math.log10(1 + max(top, 1))

    def x(v):
        v = max(v, 0)
        return PLOT_X + PLOT_W * math.log10(1 + v) / span
    return x


def _tick_label(p):
    if p < 3:
        return str(10 ** p)
    for exp, suffix in ((12, "T"), (9, "G"), (6, "M"), (3, "k")):
        if p >= exp:
            return f"{10 ** (p - exp)}{suffix}"
    return str(10 ** p)


def _axis(x, top, height):
    parts = []
    decades = int(math.ceil(math.log10(1 + max(top, 1))))
    step = 1 if decades <= 8 else 2
    first = 0 if decades <= 4 else 1      # no "1" crowding "0"
    ticks = [(0, "0")] + [(10 ** p, _tick_label(p))
                          for p in range(first, decades + 1, step)]
    for v, label in ticks:
        if v > 10 ** decades:
            continue
        xv = f"{x(v):.1f}"
        parts.append(f'<line class="tick" x1="{xv}" x2="{xv}" y1="{TOP - 4}"'
                     f' y2="{height}"/><text class="tl" x="{xv}" '
                     f'y="{TOP - 7}">{label}</text>')
    return "".join(parts)


def _fmt(v):
    return "?" if v is None else str(v)


def _oracle_words(r):
    if r.lo is None:
        return f"oracle {r.oracle_text!s} (not a number)"
    if r.lo == r.hi:
        return f"oracle {r.lo}"
    return f"oracle {r.lo}..{r.hi}"


def row_title(r) -> str:
    """The row's tooltip: everything a reader checks the dot against
    (the counter's configuration is its key line's tooltip)."""
    verdict = {True: "within", False: "OFF the oracle",
               None: "cannot compare"}[r.within]
    written = "" if r.oracle_text in (str(r.lo), r.raw) or r.lo is None \
        else f" ({r.oracle_text})"
    s = f"{r.stem}: {r.key} read {r.raw}, {_oracle_words(r)}{written}: " \
        f"{verdict}"
    if r.model:
        s += " (model counts, not hardware counts)"
    return s


def _row(r, y, x):
    cls = ["r", "m" if r.model else "hw",
           {True: "in", False: "off", None: "na"}[r.within]]
    mid = y + ROW_H // 2
    out = [f'<g class="{" ".join(cls)}" data-log="{r.log}" '
           f'data-key="{esc(r.key)}"><title>{esc(row_title(r))}</title>'
           f'<text x="{LABEL_W}" y="{mid + 4}">{esc(cut(r.stem, 30))}</text>']
    if r.lo is not None:
        x0, x1 = x(r.lo), x(r.hi)
        exact = r.lo == r.hi
        out.append(f'<rect class="{"exact" if exact else "band"}" '
                   f'x="{x0 - (1 if exact else 0):.1f}" y="{y + 2}" '
                   f'width="{max(x1 - x0, 2):.1f}" height="{ROW_H - 4}"/>')
    if r.value is not None:
        out.append(f'<circle cx="{x(r.value):.1f}" cy="{mid}" r="4"/>')
    model = ' <tspan class="mw">model</tspan>' if r.model else ""
    out.append(f'<text class="v" x="{TEXT_X}" y="{mid + 4}">'
               f"{esc(cut(r.raw, 24))} \u00b7 {esc(cut(_oracle_words(r), 40))}"
               f"{model}</text></g>")
    return "".join(out)


def count_plot(rows: List[PlotRow], caption: str = "") -> str:
    """An <svg> of rows grouped by key (in first-seen order): per log a dot
    for the value read and a mark (exact) or band (range) for the oracle;
    each row's values as text and as a <title> tooltip."""
    keys = {}
    for r in rows:
        keys.setdefault(r.key, []).append(r)
    top = max([v for r in rows for v in (r.value, r.hi)
               if v is not None] + [1])
    x = _scale(top)
    height = TOP + ROW_H * (len(keys) + len(rows)) + 4
    body = []
    y = TOP
    for key, krows in keys.items():
        configs = sorted({r.config for r in krows if r.config})
        cfg = f" \u2014 {'; '.join(configs)}" if configs else ""
        shown = cut(key + cfg, 110)
        tip = "" if shown == key + cfg else f"<title>{esc(key + cfg)}</title>"
        body.append(f'<text class="key" x="4" y="{y + 12}">{tip}'
                    f"{esc(shown)}</text>")
        y += ROW_H
        for r in krows:
            body.append(_row(r, y, x))
            y += ROW_H
    return (f'<svg class="plot" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-label="{esc(caption)}">'
            + _axis(x, top, height) + "".join(body) + "</svg>")
