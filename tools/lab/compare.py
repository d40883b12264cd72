"""pmu-harness compare A.log B.log: what changed between two runs (two
machines, hardware and the model, this week and last), per test and per
value, judged by a tolerance file (default tools/lab/tolerances.yaml).

    pmu-harness compare A.log B.log [A2.log B2.log ...] [--tolerance FILE]
                        [--json] [--all]

More pairs after the first are each compared on their own, as by one
command per pair (a row of machines against last week's, or `make
check`'s lab stage comparing every log with itself in one process): one
text block per pair, the blocks separated by an empty line; with --json
one object {"comparisons": [one pair's object...], "exit_status": N} when
there is more than one pair.  Each log's verdict (tools/lab/verdict.py,
the one every tool gives) heads its side.  compare judges changes, not
runs: a pair's exit status is 1 for a regression, else the worse of its
logs' own statuses (verdict.log_status: 3 a log that cannot be trusted),
else 0; over the pairs, a log that cannot be read (2: nothing is
compared), else a regression (1), else 3, else 0 (docs/lab.md,
"Verdicts and exit statuses").

Offers add_parser(sub) and run(args) for lab.cli, and for tools:
compare_logs(a, b, tol) -> Comparison (entries, counts), to_json(),
text_lines().  The rules (statuses, counters, the hardware ranges a
test states, noise, exit statuses) are docs/lab.md, "compare"; the
model deltas of both logs side by side per event (delta_lines,
deltas_json; tools/lab/deltas.py) are information, never a regression.
"""

import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import yaml

from . import common
from . import deltas as ldeltas
from . import parse as lparse
from . import verdict as lverdict
from .compare_tolerances import ToleranceError, Tolerances, load as \
    load_tolerances

PROG = "compare"
DEFAULT_TOLERANCES = Path(__file__).resolve().parent / "tolerances.yaml"

# Verdicts, most severe first; text output is in this order.
REGRESSION, IMPROVEMENT, CHANGED, INFO, SAME, IGNORED = (
    "regression", "improvement", "changed", "info", "same", "ignored")
ORDER = (REGRESSION, IMPROVEMENT, CHANGED, INFO, SAME, IGNORED)
SHOWN = (REGRESSION, IMPROVEMENT, CHANGED, INFO)   # without --all
MAX_DIFFER = 30         # counters listed under an event whose delta differs


@dataclass
class Entry:
    """One line of the comparison."""
    test: str                   # "" for a header
    key: str                    # YAML key, "(status)", "(test)", "header X"
    verdict: str
    a: Optional[str] = None     # as written in A (None: not in A)
    b: Optional[str] = None
    delta: Optional[int] = None         # B - A for counters
    note: str = ""              # "+7, tolerance 0", "only in B", ...
    why: str = ""               # the WHY of a hardware range used
    line_a: int = 0             # where it is in A and B (0: nowhere)
    line_b: int = 0

    def text(self) -> str:
        word = "REGRESSION" if self.verdict == REGRESSION else self.verdict
        where = f"{self.test} {self.key}" if self.test else self.key
        if self.key == "(status)":
            where = self.test
        if self.key in ("(test)", NOT_SELECTED):
            return f"{self.test}: {self.note} {word}"
        note = f" ({self.note})" if self.note else ""
        return f"{where}: {_show(self.a)} -> {_show(self.b)}{note} {word}"


def _show(v) -> str:
    return "(none)" if v is None else v


@dataclass
class Comparison:
    a: object                       # pmulog.Log
    b: object
    tolerances: Tolerances
    entries: List[Entry] = field(default_factory=list)
    matched: int = 0
    only_a: int = 0
    only_b: int = 0
    backends: tuple = (None, None)      # common.backend() of A and B
    deltas: tuple = (None, None)        # deltas.LogDeltas of A and B
    verdicts: tuple = (None, None)      # verdict.Verdict of A and B

    def add(self, e: Entry):
        self.entries.append(e)

    def count(self, verdict) -> int:
        return sum(1 for e in self.entries if e.verdict == verdict)

    @property
    def regressions(self) -> int:
        return self.count(REGRESSION)

    def sorted_entries(self, verdicts=SHOWN) -> List[Entry]:
        """Headers first, then by verdict (regressions first); within a
        verdict the test statuses first (ok -> not ok, a new failure, a
        timeout), then tests missing from B, then values; A's test order
        within each (stable)."""
        hdr = [e for e in self.entries if not e.test and e.verdict
               in verdicts]
        rest = [e for e in self.entries if e.test and e.verdict in verdicts]
        rest.sort(key=lambda e: (ORDER.index(e.verdict), _kind_rank(e)))
        return hdr + rest

    @property
    def not_selected(self) -> List[Entry]:
        """Tests A ran that B's tests= did not choose: no regression,
        listed apart (report folds them)."""
        return [e for e in self.entries if e.key == NOT_SELECTED]


NOT_SELECTED = "(not selected)"


def _kind_rank(e) -> int:
    """A status change or a new test in B (0), a test gone from B (1), a
    value (2)."""
    if e.key == "(status)" or (e.key == "(test)" and e.b is not None):
        return 0
    return 1 if e.key in ("(test)", NOT_SELECTED) else 2


# ---------------------------------------------------------------- values


def raw_values(result) -> Dict[str, str]:
    """The top-level values of a result's YAML block as written ("0x16",
    not 22); lists and mappings as compact JSON."""
    out = {}
    text = result.yaml_text
    if not text or not isinstance(result.yaml, dict):
        return out
    try:
        node = common.pmulog.compose_yaml(text)
    except (yaml.YAMLError, common.pmulog.LimitError):
        node = None
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(v, yaml.ScalarNode):
                out[str(k.value)] = v.value
    for k, v in result.yaml.items():
        if str(k) not in out:
            out[str(k)] = v if isinstance(v, str) else \
                json.dumps(v, default=str)
    return out


def _number(s):
    """An int or float written in s, or None."""
    if s is None:
        return None
    try:
        return int(s, 0)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return None


def _backend_free(text, name):
    """text without "backend=NAME" (a run line names its backend)."""
    if not name:
        return text
    return re.sub(r"\bbackend=" + re.escape(name) + r"\b", "backend=",
                  text)


def _signed(d) -> str:
    return f"+{d}" if d > 0 else str(d)


# ------------------------------------------------- hardware's stated range


def _meets_oracle(c) -> bool:
    """A counter read exactly what its own exact oracle expected."""
    return _is_exact(c) and c.value == c.lo


def _is_range(c) -> bool:
    return c is not None and c.lo is not None and c.hi is not None and \
        c.lo != c.hi


def _is_exact(c) -> bool:
    return c is not None and c.lo is not None and c.lo == c.hi


def range_bands(exact, ranged):
    """The values the ranged side's counter may read and still agree with
    the exact side, as (lo, hi) bands.

    The harness logs a range as "increment LO..HI": the counter's increase
    over the value it was preset to, and the read value itself (preset +
    increment).  The preset is not in the log.  Two readings:
      1. preset 0: the read value lies in LO..HI (what the test checked);
      2. LO is the count the exact side counted (events counted at CPL 0,
         "+512 for the driver's CPL 0 code"): the exact side's oracle O is
         preset + LO, so the read value lies in O..O+(HI-LO).
    They are one band when O == LO.  A value in either band agrees."""
    bands = [(ranged.lo, ranged.hi)]
    if _is_exact(exact) and exact.lo != ranged.lo:
        bands.append((exact.lo, exact.lo + ranged.hi - ranged.lo))
    return bands


def _in_bands(v, bands) -> bool:
    return any(lo <= v <= hi for lo, hi in bands)


def _bands_text(bands) -> str:
    return " or ".join(f"{lo}..{hi}" for lo, hi in bands)


# ------------------------------------------------------------- comparing


class _Pair:
    """One test as run in A and in B."""

    def __init__(self, cmp, ra, rb):
        self.cmp, self.ra, self.rb = cmp, ra, rb
        self.test = (ra or rb).name
        self.tol = cmp.tolerances

    def entry(self, key, verdict, a=None, b=None, **kw):
        self.cmp.add(Entry(self.test, key, verdict, a, b,
                           line_a=self.ra.line if self.ra else 0,
                           line_b=self.rb.line if self.rb else 0, **kw))


def machine(log):
    """What a log's tests apply to: the machine (the # cpu: line's name
    and signature) and the backend (the model does not model everything
    the hardware counts)."""
    return common.machine_name(log), common.backend(log)


def same_machine(cmp) -> bool:
    return machine(cmp.a) == machine(cmp.b)


def _status_verdict(pair, sa, sb) -> str:
    if sb == "not ok":
        return REGRESSION
    if sa == "not ok":
        return IMPROVEMENT if sb == "ok" else CHANGED
    if sa == "ok" and sb == "skip":
        if not same_machine(pair.cmp):
            return INFO         # not applicable on B's machine (its SKIP)
        p = pair.tol.status_policy(pair.test, "skipped")
        return REGRESSION if p == "regression" else INFO
    return IMPROVEMENT          # skip -> ok: it runs now


def _status_text(r) -> str:
    s = r.status
    return f"skip ({r.reason})" if s == "skip" and r.reason else s


def compare_status(pair):
    ra, rb = pair.ra, pair.rb
    sa, sb = ra.status, rb.status
    if sa != sb:
        verdict = _status_verdict(pair, sa, sb)
        note = "not applicable on B's machine" if sa == "ok" and \
            sb == "skip" and not same_machine(pair.cmp) else ""
        pair.entry("(status)", verdict, _status_text(ra), _status_text(rb),
                   note=note)
    elif sa == "skip" and ra.reason != rb.reason:
        pair.entry("(status)", CHANGED, _status_text(ra), _status_text(rb),
                   note="skip reason")


def _counter_verdict(pair, rule, ca, cb):
    """(verdict, delta, note, why) for a counter read on both sides."""
    a, b = ca.value, cb.value
    d = b - a
    if d == 0:
        return SAME, 0, "", ""
    use = rule or pair.tol.default
    allowed = use.allowed(a)
    note = [_signed(d)]
    why = ""
    ok = abs(d) <= allowed
    ranged = cb if _is_range(cb) else ca if _is_range(ca) else None
    if ranged is not None:
        other = ca if ranged is cb else cb
        side = "B" if ranged is cb else "A"
        v = b if ranged is cb else a
        why = ranged.tolerance
        if _is_range(other):            # hardware on both sides
            width = max(ca.hi - ca.lo, cb.hi - cb.lo)
            ok = ok or abs(d) <= width
            note.append(f"hardware ranges of width {width}"
                        + (f": {why}" if why else ""))
        else:
            bands = range_bands(other, ranged)
            ok = ok or _in_bands(v, bands)
            note.append(f"{side}'s hardware range {_bands_text(bands)}"
                        + (f": {why}" if why else ""))
    if ranged is None or rule is not None:
        note.append(use.text(a))
    return (CHANGED if ok else REGRESSION), d, ", ".join(note), why


def _ignored_or_one_sided(pair, key, rule, va, vb, no_a, no_b):
    """Records a value the rule ignores, or one that only one log has;
    True when that settled it (nothing left to compare)."""
    if rule is not None and rule.ignore:
        if va != vb:
            pair.entry(key, IGNORED, va, vb, note=rule.name)
        return True
    if no_a or no_b:
        verdict = REGRESSION if rule is not None and rule.regression \
            else CHANGED
        pair.entry(key, verdict, va, vb,
                   note="only in A" if no_b else "only in B")
        return True
    return False


def compare_counter(pair, key, ca, cb, raw_a, raw_b):
    config = (cb or ca).config or None
    rule = pair.tol.value_rule(pair.test, key, config)
    va, vb = raw_a.get(key), raw_b.get(key)
    if _ignored_or_one_sided(pair, key, rule, va, vb, ca is None,
                             cb is None):
        return
    if ca.value is None or cb.value is None:
        if va != vb:
            pair.entry(key, REGRESSION if rule is not None else CHANGED,
                       va, vb, note="not a number")
        return
    verdict, d, note, why = _counter_verdict(pair, rule, ca, cb)
    if verdict == SAME and ca.oracle_text != cb.oracle_text and \
            _is_range(ca) == _is_range(cb):
        verdict, note = CHANGED, "oracle " + ca.oracle_text + " -> " + \
            cb.oracle_text
    elif verdict != SAME and ca.oracle_text != cb.oracle_text and \
            _is_range(ca) == _is_range(cb):
        note += f"; oracle {ca.oracle_text} -> {cb.oracle_text}"
        if verdict == REGRESSION and not same_machine(pair.cmp) and \
                _meets_oracle(ca) and _meets_oracle(cb):
            # the expectation moved with the machine (a wider counter
            # wraps later): each read what its own oracle said
            verdict = CHANGED
            note += ", each side its own oracle's value"
    pair.entry(key, verdict, va, vb, delta=d, note=note, why=why)


def _other_verdict(rule, va, vb):
    """(verdict, note) for a value that is not a counter and differs."""
    if rule is None:
        return CHANGED, ""
    na, nb = _number(va), _number(vb)
    if (rule.abs is not None or rule.rel is not None) and \
            na is not None and nb is not None:
        d = nb - na
        ok = abs(d) <= rule.allowed(na)
        return (CHANGED if ok else REGRESSION,
                f"{_signed(d)}, {rule.text(na)}, {rule.name}")
    if rule.regression:
        return REGRESSION, rule.name
    return CHANGED, rule.name


def compare_other(pair, key, va, vb, pa, pb):
    """A value that is not a counter: va/vb as written, pa/pb parsed."""
    rule = pair.tol.value_rule(pair.test, key, None)
    if _ignored_or_one_sided(pair, key, rule, va, vb, va is None,
                             vb is None):
        return
    if pa == pb or va == vb:
        pair.entry(key, SAME, va, vb)
        return
    tol = pair.tol
    if tol.mask_addresses(va) == tol.mask_addresses(vb):
        pair.entry(key, IGNORED, va, vb, note="addresses differ only "
                   "(tolerances: addresses)")
        return
    ba, bb = pair.cmp.backends
    if ba != bb and (
            (key == "backend" and va == ba and vb == bb) or
            _backend_free(va, ba) == _backend_free(vb, bb)):
        pair.entry(key, SAME, va, vb, note="the logs' backends")
        return
    verdict, note = _other_verdict(rule, va, vb)
    pair.entry(key, verdict, va, vb, note=note)


def compare_values(pair):
    ra, rb = pair.ra, pair.rb
    if ra.status == "skip" or rb.status == "skip":
        return                  # the status line says it
    ya = ra.yaml if isinstance(ra.yaml, dict) else {}
    yb = rb.yaml if isinstance(rb.yaml, dict) else {}
    raw_a, raw_b = raw_values(ra), raw_values(rb)
    cnt_a = {c.key: c for c in common.counts(ra)}
    cnt_b = {c.key: c for c in common.counts(rb)}
    keys = list(dict.fromkeys([str(k) for k in ya] + [str(k) for k in yb]))
    for key in keys:
        if key.endswith("_oracle") and key[:-7] in keys and \
                (key[:-7] in cnt_a or key[:-7] in cnt_b):
            continue            # folded into the counter's line
        if _model_key_of(key, cnt_a, cnt_b):
            continue            # in the model deltas (delta_lines)
        if key in cnt_a or key in cnt_b:
            compare_counter(pair, key, cnt_a.get(key), cnt_b.get(key),
                            raw_a, raw_b)
        else:
            compare_other(pair, key, raw_a.get(key), raw_b.get(key),
                          _get(ya, key), _get(yb, key))


def _model_key_of(key, cnt_a, cnt_b) -> bool:
    """key is a counter's "_model" or "_model_delta" line (deltas.py):
    compared per event by delta_lines, not as a value of its own."""
    for suffix in (ldeltas.DELTA, ldeltas.MODEL):
        if key.endswith(suffix):
            base = key[:-len(suffix)]
            return base in cnt_a or base in cnt_b
    return False


def _get(y, key):
    for k, v in y.items():
        if str(k) == key:
            return v
    return None


def _keyed(results):
    """{(name, occurrence): result}: a name twice (a restarted run) is
    matched in order."""
    seen, out = {}, {}
    for r in results:
        n = seen.get(r.name, 0)
        seen[r.name] = n + 1
        out[(r.name, n)] = r
    return out


def compare_tests(cmp):
    ka, kb = _keyed(cmp.a.results), _keyed(cmp.b.results)
    for k, ra in ka.items():
        rb = kb.get(k)
        if rb is None:
            cmp.only_a += 1
            if selected_in(cmp.b, ra.name) is False:
                cmp.add(Entry(ra.name, NOT_SELECTED, INFO,
                              _status_text(ra), None,
                              note=f"only in A ({_status_text(ra)}), not "
                              "selected by B's tests=", line_a=ra.line))
                continue
            p = cmp.tolerances.status_policy(ra.name, "missing")
            chosen = not same_machine(cmp) and _complete(cmp.b)
            verdict = REGRESSION if p == "regression" and \
                ra.status == "ok" and not chosen else INFO
            why = ", not run on B's machine" if chosen else ""
            cmp.add(Entry(ra.name, "(test)", verdict, _status_text(ra),
                          None, note=f"only in A ({_status_text(ra)}), "
                          f"missing in B{why}", line_a=ra.line))
            continue
        cmp.matched += 1
        pair = _Pair(cmp, ra, rb)
        compare_status(pair)
        compare_values(pair)
    for k, rb in kb.items():
        if k not in ka:
            cmp.only_b += 1
            # a failure is one, whether or not A ran the test
            verdict = REGRESSION if rb.status == "not ok" else INFO
            cmp.add(Entry(rb.name, "(test)", verdict, None,
                          _status_text(rb),
                          note=f"new in B ({_status_text(rb)})",
                          line_b=rb.line))


def _glob_re(pattern):
    """The harness's glob (lib/string.c str_glob: '*' any run, '?' one
    character, nothing else special) as a regular expression."""
    return re.compile("".join(".*" if c == "*" else "." if c == "?"
                              else re.escape(c) for c in pattern) + r"\Z",
                      re.S)


def selected_in(log, name):
    """Did log's tests= choose the test named name?  True or False from
    its '# options:' header; None when it cannot say (no header, or the
    list was cut, tests_cut=).  Manual tests and other generations' are
    not told apart: a name a pattern matches counts as chosen."""
    h = log.header("options")
    if h is None or "tests" not in h.fields or "tests_cut" in h.fields:
        return None
    return any(_glob_re(p).match(name)
               for p in h.fields["tests"].split(",") if p)


def _complete(log) -> bool:
    """The run finished: a plan and a summary, no damage.  A test missing
    from it was not chosen on its machine; missing from a cut run, it
    was lost."""
    return log.plan is not None and log.summary is not None and \
        not log.parse_errors


def compare_headers(cmp):
    a, b, tol = cmp.a, cmp.b, cmp.tolerances
    keys = list(dict.fromkeys([h.key for h in a.headers] +
                              [h.key for h in b.headers]))
    for key in keys:
        if tol.header_ignored(key):
            continue
        ha, hb = a.header(key), b.header(key)
        if _header_view(tol, ha) == _header_view(tol, hb):
            continue
        cmp.add(Entry("", f"header {key}", INFO,
                      ha.text if ha else None, hb.text if hb else None,
                      line_a=ha.line if ha else 0,
                      line_b=hb.line if hb else 0))


def _header_view(tol, h):
    """What of a header line is compared: its words and the fields the
    tolerance file does not ignore."""
    if h is None:
        return None
    return (h.words, {k: v for k, v in h.fields.items()
                      if not tol.header_ignored(h.key, k)})


def compare_logs(a, b, tol: Tolerances, verdicts=None) -> Comparison:
    """Compares two parsed logs (pmulog.Log); A is the reference.
    verdicts: theirs (verdict.judge of their parse.Analysis), else
    judged from the logs alone (verdict.of)."""
    cmp = Comparison(a, b, tol)
    cmp.verdicts = verdicts or (lverdict.of(a), lverdict.of(b))
    cmp.backends = (common.backend(a), common.backend(b))
    cmp.deltas = (ldeltas.of_log(a), ldeltas.of_log(b))
    compare_headers(cmp)
    compare_tests(cmp)
    return cmp


# ---------------------------------------------------------------- output


def _kind(log) -> str:
    be = common.backend(log)
    return {"hw": "hardware", "model": "model",
            "emulated": "model (emulated hardware path)"}.get(
                be, be or "no backend")


def _side(name, log, v) -> str:
    """"A: label (kind), VERDICT: why": the log's verdict, as every
    tool gives it."""
    return f"{name}: {common.log_label(log)} ({_kind(log)}), {v.word}: " \
        f"{v.why}"


# ----------------------------------------------------------- model deltas


def _delta_value(d) -> str:
    return f"none ({d.reason})" if d.model is None else \
        ldeltas.signed(d.delta)


def _event_side(stats) -> str:
    """One side's statistics of an event, for delta_lines."""
    if stats is None:
        return "not counted"
    text = (f"{stats.compared} compared, {stats.agreed} agreed, "
            f"{ldeltas.range_text(stats)}")
    if stats.none:
        text += f", {len(stats.none)} no model count"
    return text


def delta_events(cmp):
    """[(event, stats A or None, stats B or None, [(test, key, A's delta
    text, B's)] of the counters whose delta differs)], in A's event order
    (worst first), then B's events A has not."""
    la, lb = cmp.deltas
    sa = {s.config: s for s in ldeltas.by_event(la.counters)}
    sb = {s.config: s for s in ldeltas.by_event(lb.counters)}
    da = {(d.test, d.key): d for d in la.counters}
    db = {(d.test, d.key): d for d in lb.counters}
    out = []
    for event in list(dict.fromkeys(list(sa) + list(sb))):
        differ = []
        for k, d in da.items():
            other = db.get(k)
            if d.config == event and other is not None and \
                    (d.model is None) == (other.model is None) and \
                    (d.delta, d.reason) == (other.delta, other.reason):
                continue
            if d.config == event and other is not None:
                differ.append((k[0], k[1], _delta_value(d),
                               _delta_value(other)))
        out.append((event, sa.get(event), sb.get(event), differ))
    return out


def delta_lines(cmp) -> List[str]:
    """Per event, A's and B's deltas from the reference model side by
    side, "DIFFERS" where a counter both logs have departs differently
    (with those counters under it).  Nothing when neither log has a
    model count or a damaged one.  Information: no verdict, no exit
    status depends on it (docs/lab.md, "Model deltas")."""
    la, lb = cmp.deltas
    if not (la.any or lb.any):
        return []
    out = ["model deltas (counted minus the reference model's count), "
           f"per event: A {common.log_label(cmp.a)}, "
           f"B {common.log_label(cmp.b)}"]
    sides = [(n, ld) for n, ld in (("A", la), ("B", lb)) if ld.applicable]
    out += [f"  {n}: backend {ld.backend or '(none)'}: nothing to diff"
            for n, ld in (("A", la), ("B", lb)) if not ld.applicable]
    for event, sa, sb, differ in delta_events(cmp):
        mark = " DIFFERS" if differ else ""
        stats = {"A": sa, "B": sb}
        out.append(f"  {event}: " + " | ".join(
            f"{n} {_event_side(stats[n])}" for n, _ in sides) + mark)
        out += [f"    {t} {k}: A {va}, B {vb}"
                for t, k, va, vb in differ[:MAX_DIFFER]]
        if len(differ) > MAX_DIFFER:
            out.append(f"    ... and {len(differ) - MAX_DIFFER} more")
    for side, ld in (("A", la), ("B", lb)):
        out += [f"  {side} damaged: {d.text()}" for d in ld.damage]
    return out


def summary_line(cmp) -> str:
    """The counts, then what the exit status says when the counts alone
    would not: a B untested where A was tested is a regression of its own
    (exit 1), a log that cannot be trusted ends at 3 (exit_status())."""
    c = cmp.count
    line = (f"compare: {c(REGRESSION)} regression(s), {c(IMPROVEMENT)} "
            f"improvement(s), {c(CHANGED)} changed, {c(INFO)} info; "
            f"tests: {cmp.matched} in both, {cmp.only_a} only in A, "
            f"{cmp.only_b} only in B")
    status = exit_status(cmp)
    if newly_untested(cmp):
        line += (f"; B untested where A was not: a regression (exit "
                 f"{status})")
    elif not cmp.regressions and status != common.EXIT_OK:
        words = [v.word for v in cmp.verdicts
                 if v.log_status == status]
        line += (f"; {' and '.join(sorted(set(words)))}: exit {status}")
    return line


def text_lines(cmp, show_all=False) -> List[str]:
    out = [_side("A", cmp.a, cmp.verdicts[0]),
           _side("B", cmp.b, cmp.verdicts[1]),
           f"tolerances: {cmp.tolerances.path}"]
    out += [e.text() for e in cmp.sorted_entries(ORDER if show_all
                                                 else SHOWN)]
    out += delta_lines(cmp)
    out.append(summary_line(cmp))
    return out


def _log_json(log, v) -> dict:
    return {"path": log.path, "label": common.log_label(log),
            "machine": common.machine_name(log),
            "backend": common.backend(log),
            "hardware": common.backend(log) == "hw",
            "verdict": v.word, "why": v.why,
            "damaged": not v.trusted,
            "untested": v.untested,
            "parse_errors": [{"line": e.line, "message": e.message}
                             for e in log.parse_errors]}


def to_json(cmp, status, show_all=False) -> dict:
    return {"a": _log_json(cmp.a, cmp.verdicts[0]),
            "b": _log_json(cmp.b, cmp.verdicts[1]),
            "tolerances": cmp.tolerances.path,
            "entries": [asdict(e) for e in
                        cmp.sorted_entries(ORDER if show_all else SHOWN)],
            "counts": {v: cmp.count(v) for v in ORDER},
            "model_deltas": deltas_json(cmp),
            "tests": {"both": cmp.matched, "only_a": cmp.only_a,
                      "only_b": cmp.only_b},
            "exit_status": status}


def deltas_json(cmp) -> dict:
    """The model deltas of A and B per event (delta_events)."""
    la, lb = cmp.deltas

    def side(ld, s):
        if s is None:
            return None
        return {"compared": s.compared, "agreed": s.agreed, "min": s.lo,
                "max": s.hi, "no_model_count": len(s.none)}

    return {
        "applicable": {"a": la.applicable, "b": lb.applicable},
        "events": [{"event": ev, "a": side(la, sa), "b": side(lb, sb),
                    "differs": bool(differ),
                    "counters": [{"test": t, "key": k, "a": va, "b": vb}
                                 for t, k, va, vb in differ]}
                   for ev, sa, sb, differ in delta_events(cmp)],
        "damage": {"a": [asdict(d) for d in la.damage],
                   "b": [asdict(d) for d in lb.damage]}}


def newly_untested(cmp) -> bool:
    """B is untested (no PMU test ran: verdict=untested, or every result
    skipped) and A was not: B tested less, a regression whatever its
    tests say."""
    va, vb = cmp.verdicts
    return vb.untested is not None and va.untested is None


def exit_status(cmp) -> int:
    """A regression (1) before a log that cannot be trusted (3): a
    damaged log must not hide a regression found in what could be read;
    a failed run that did not get worse is no regression (0)."""
    if cmp.regressions or newly_untested(cmp):
        return common.EXIT_FAIL
    return lverdict.worst_status(v.log_status for v in cmp.verdicts)


# ------------------------------------------------------------------- CLI


def add_parser(sub):
    p = sub.add_parser(
        "compare", help="what changed between two runs",
        description="Compares two logs test by test and value by value "
        "(A is the reference); more pairs A2.log B2.log ... are each "
        "compared on their own (one text block per pair, an empty line "
        "between; with --json one object {\"comparisons\": [...], "
        "\"exit_status\": N}); each side is headed by its log's verdict.  "
        "Exit status, the worst over the pairs (compare judges changes, "
        "not runs): 0 nothing regressed, 1 a regression (even when a log "
        "is damaged), 2 bad arguments, an unreadable log (nothing is "
        "compared) or a bad tolerance file, 3 a log that cannot be "
        "trusted (HUNG, CUT, DAMAGED) and no regression.  The words and "
        "statuses: docs/lab.md, \"Verdicts and exit statuses\".  A file "
        "name starting with '-' goes after '--'.")
    p.add_argument("a", metavar="A.log", help="the reference log")
    p.add_argument("b", metavar="B.log", help="the log compared with it")
    p.add_argument("more", nargs="*", metavar="A2.log B2.log",
                   help="more pairs of logs, each compared on its own")
    p.add_argument("--tolerance", metavar="FILE",
                   help="tolerance file (YAML; replaces the default "
                   f"{DEFAULT_TOLERANCES.relative_to(DEFAULT_TOLERANCES.parents[2])})")
    p.add_argument("--json", action="store_true",
                   help="print JSON for tools instead of text")
    p.add_argument("--all", action="store_true",
                   help="also list the values that are the same and the "
                   "differences the tolerance file ignores")
    p.set_defaults(run=run)
    return p


def worst_status(statuses) -> int:
    """The exit status of several pairs: a regression (1) outranks a
    damaged log (3), as within one pair (exit_status)."""
    for s in (common.EXIT_USAGE, common.EXIT_FAIL, common.EXIT_DAMAGED):
        if s in statuses:
            return s
    return common.EXIT_OK


def run(args) -> int:
    if len(args.more) % 2:
        common.warn(PROG, f"{args.more[-1]}: no B.log to compare it with "
                    "(logs after the first pair come in pairs)")
        return common.EXIT_USAGE
    try:
        tol = load_tolerances(args.tolerance or DEFAULT_TOLERANCES)
    except ToleranceError as e:
        common.warn(PROG, str(e))
        return common.EXIT_USAGE
    names = [args.a, args.b] + args.more
    analyses = [lparse.analyse(n) for n in names]
    for an in analyses:
        lparse.report_damage(PROG, an)
    if any(an.unreadable for an in analyses):
        return common.EXIT_USAGE        # nothing compared, as for one pair
    pairs = list(zip(analyses[::2], analyses[1::2]))
    docs, statuses = [], []
    for i, (an_a, an_b) in enumerate(pairs):
        a, b = an_a.log, an_b.log
        cmp = compare_logs(a, b, tol, (lverdict.judge(an_a),
                                       lverdict.judge(an_b)))
        status = exit_status(cmp)
        statuses.append(status)
        if args.json:
            docs.append(to_json(cmp, status, args.all))
        else:
            if i:
                print()                 # an empty line between blocks
            for line in text_lines(cmp, args.all):
                print(line)
            sys.stdout.flush()          # before this pair's stderr lines
        for name, log, v in (("A", a, cmp.verdicts[0]),
                             ("B", b, cmp.verdicts[1])):
            if not v.trusted:
                common.warn(PROG, f"{log.path}: {name} is {v.word}; what "
                            "could be read was compared")
    worst = worst_status(statuses)
    if args.json:
        doc = docs[0] if len(docs) == 1 else \
            {"comparisons": docs, "exit_status": worst}
        # one write, not one per token (stdout may be unbuffered)
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    return worst
