"""Model deltas: where a run's counts depart from the reference model's.

On backend=hw and backend=emulated runs the harness writes, after each
counter's value and oracle (docs/log-format.md, "Results"):

    <run>_ctr<N>_model: <the reference model's count>  | "none (<why>)"
    <run>_ctr<N>_model_delta: <counted minus model: "+12", "-3", "0">

(no delta line when the model could not predict).  A backend=model run
has neither: its counts are the model's own, there is nothing to diff.

    d = deltas.of_log(log)            # log: a pmulog.Log
    d.applicable                      # False for backend=model (and none)
    d.counters, d.damage              # [Delta] in the log's order, [Damage]
    d.deltas, d.none                  # those the model predicted, or not
    deltas.by_event(d.counters)       # [EventStats], worst first

A value that is not a number, a delta that is not counted minus model
(exactly, or modulo a counter width of the log's "# pmu:" line, as the
harness writes it when a counter wrapped), a
delta line without a model line or beside "none": each is a Damage (the
test, its result line, the key, what is wrong); that counter is left out
of the statistics, the rest of the log is still read.  Deltas are
information, not a verdict: `report` and `compare` show them, no exit
status or verdict depends on them (docs/lab.md, "Model deltas").
"""

import heapq
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import common

MODEL = "_model"
DELTA = "_model_delta"
NO_CONFIG = "(no config)"

# "none (the reason)"; a bare "none" is accepted with no reason.
_NONE = re.compile(r"^none(?:\s*\((.*)\))?\s*$", re.S)
_SIGNED = re.compile(r"^\s*[+-]?\d+\s*$")


@dataclass
class Delta:
    """One counter's count against the reference model's."""
    test: str
    line: int                   # the result's line in the log
    key: str                    # "cpl3_ctr0"
    run: str                    # "cpl3" ("" for none)
    counter: str                # "ctr0"
    config: str                 # "<key>_config", the event counted
    counted: int
    model: Optional[int]        # None: the model could not predict
    delta: Optional[int]        # counted - model (None with model None)
    reason: str = ""            # why the model could not predict

    def text(self) -> str:
        """"perfmon/x cpl3_ctr0: counted 790, model 778, delta +12"."""
        head = f"{self.test} {self.key}: counted {self.counted}"
        if self.model is None:
            return f"{head}, no model count ({self.reason or 'no reason given'})"
        return f"{head}, model {self.model}, delta {signed(self.delta)}"


@dataclass
class Damage:
    test: str
    line: int
    key: str
    message: str

    def text(self) -> str:
        return f"line {self.line}: {self.test} {self.key}: {self.message}"


@dataclass
class LogDeltas:
    backend: Optional[str]
    applicable: bool            # hw or emulated: counts to diff
    counters: List[Delta] = field(default_factory=list)  # the log's order
    damage: List[Damage] = field(default_factory=list)
    without_model: int = 0      # counters with an oracle, no model line

    @property
    def deltas(self) -> List[Delta]:
        """The counters the model predicted."""
        return [d for d in self.counters if d.model is not None]

    @property
    def none(self) -> List[Delta]:
        """The counters the model could not predict."""
        return [d for d in self.counters if d.model is None]

    @property
    def any(self) -> bool:
        return bool(self.counters or self.damage)


@dataclass
class EventStats:
    config: str
    compared: int = 0           # counters with a model count
    agreed: int = 0             # delta 0
    lo: Optional[int] = None    # least delta
    hi: Optional[int] = None    # greatest delta
    departures: List[Delta] = field(default_factory=list)  # nonzero,
                                                            # worst first
    none: List[Delta] = field(default_factory=list)

    @property
    def worst(self) -> int:
        return max((abs(d.delta) for d in self.departures), default=0)


def signed(d) -> str:
    return f"+{d}" if d > 0 else str(d)


def _number(v):
    """An int from a YAML value (an int, or text "+12", "-3", "0");
    None when it is not one."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and _SIGNED.match(v):
        return int(v)
    return None


def _counter_key(key):
    """key's counter key when key is "<counter>_model", else None."""
    if not key.endswith(MODEL):
        return None
    base = key[:-len(MODEL)]
    return base if common._CTR_KEY.match(base) else None


def of_result(result, widths=()):
    """([Delta], [Damage]) of one result's YAML block, in its order.
    widths: the counters' widths (common.counter_widths), modulo which
    the harness may have written a delta."""
    y = result.yaml if isinstance(result.yaml, dict) else {}
    if not y or "_model" not in " ".join(map(str, y)):
        return [], []           # (most results: no model line)
    keys = {str(k): v for k, v in y.items()}
    out, bad = [], []

    def damage(key, message):
        bad.append(Damage(result.name, result.line, key, message))

    for key in keys:
        if key.endswith(DELTA):
            model_key = key[:-len("_delta")]
            if _counter_key(model_key) is not None and \
                    model_key not in keys:
                damage(key, "a delta without its model line")
        base = _counter_key(key)
        if base is None:
            continue
        d = _one(result, keys, base, damage, widths)
        if d is not None:
            out.append(d)
    return out, bad


def _config_of(keys, base):
    """The event counter base counted: "<base>_config"; for a counter a
    test logged without its run's label (NetBurst's "ctr12", beside
    pmu_run's "cpl0_ctr12_config") the one "<label>_<base>_config" of the
    result, when there is exactly one."""
    if base + "_config" in keys:
        return str(keys[base + "_config"]) or NO_CONFIG
    found = [k for k in keys if k.endswith("_" + base + "_config")]
    return str(keys[found[0]]) or NO_CONFIG if len(found) == 1 \
        else NO_CONFIG


def _signed_mod(v, width):
    """v modulo 2^width, as the signed number the harness writes
    (harness/pmu_run.c pmu_log_model_as: above half the range is
    negative)."""
    r = v % (1 << width)
    return r - (1 << width) if r > ((1 << width) - 1) // 2 else r


def _one(result, keys, base, damage, widths=()):
    """The Delta of counter key base, or None (damage reported)."""
    m = common._CTR_KEY.match(base)
    model_v, delta_k = keys[base + MODEL], base + DELTA
    counted = _number(keys.get(base))
    if counted is None:
        damage(base, f"counted value {keys.get(base)!r} is not a number"
               if base in keys else "a model line without the counted value")
        return None
    common_args = dict(test=result.name, line=result.line, key=base,
                       run=m.group("prefix") or "",
                       counter=m.group("ctr") + m.group("rest"),
                       config=_config_of(keys, base), counted=counted)
    none = _NONE.match(model_v) if isinstance(model_v, str) else None
    if none:
        if delta_k in keys:
            damage(delta_k, f"a delta ({keys[delta_k]!r}) beside a model "
                   "that could not predict")
            return None
        return Delta(model=None, delta=None,
                     reason=(none.group(1) or "").strip(), **common_args)
    model = _number(model_v)
    if model is None:
        damage(base + MODEL, f"model value {model_v!r} is neither a number "
               "nor \"none (why)\"")
        return None
    if delta_k not in keys:
        damage(base + MODEL, "a model count without its delta line")
        return None
    delta = _number(keys[delta_k])
    if delta is None:
        damage(delta_k, f"delta {keys[delta_k]!r} is not a signed number")
        return None
    if delta != counted - model and \
            all(delta != _signed_mod(counted - model, w) for w in widths):
        damage(delta_k, f"delta {signed(delta)} is not counted minus model "
               f"({counted} - {model} = {signed(counted - model)})")
        return None
    return Delta(model=model, delta=delta, **common_args)


class Scan:
    """of_log a result at a time, in the log's order (add): for a log
    read without keeping its results (parse.analyse(...,
    keep_results=False)).  keep=False keeps no Delta (log_deltas.counters
    stays empty: on_delta(delta), if given, has each), only the damage and
    how many counters had no model line."""

    def __init__(self, log, keep=True, on_delta=None):
        self.log = log
        self.keep = keep
        self.on_delta = on_delta
        self.out = None
        self.widths = ()

    def _start(self):
        # the header lines are all there once a result is: a "# key:"
        # line after one is a comment (pmulog)
        be = common.backend(self.log)
        self.out = LogDeltas(be, be in ("hw", "emulated"))
        self.widths = common.counter_widths(self.log)

    def add(self, r):
        if self.out is None:
            self._start()
        out = self.out
        ds, bad = of_result(r, self.widths)
        out.damage += bad
        if ds and not out.applicable:
            out.damage.append(Damage(r.name, r.line, ds[0].key + MODEL,
                                     f"model lines in a backend="
                                     f"{out.backend} log (written on hw "
                                     "and emulated runs only)"))
            return
        if self.keep:
            out.counters += ds
        if self.on_delta is not None:
            for d in ds:
                self.on_delta(d)
        if out.applicable:
            y = r.yaml if isinstance(r.yaml, dict) else {}
            out.without_model += sum(1 for c in common.counts(r)
                                     if c.key + MODEL not in y)

    def result(self) -> LogDeltas:
        if self.out is None:
            self._start()
        return self.out


def of_log(log) -> LogDeltas:
    """The model deltas of a parsed log.  A backend=model log is not
    applicable (its counts are the model's); model lines in one are
    damage (the harness never writes them there)."""
    scan = Scan(log)
    for r in log.results:
        scan.add(r)
    return scan.result()


def by_event(counters) -> List[EventStats]:
    """Per event (config text): the counters compared, those that agree,
    the least and greatest delta, the departures worst first (largest
    |delta|, then the log's order), the counters the model could not
    predict.  Events with the worst departure first, then in the order
    first seen."""
    stats: Dict[str, EventStats] = {}
    for d in counters:
        s = stats.setdefault(d.config, EventStats(d.config))
        if d.model is None:
            s.none.append(d)
            continue
        s.compared += 1
        s.agreed += d.delta == 0
        s.lo = d.delta if s.lo is None else min(s.lo, d.delta)
        s.hi = d.delta if s.hi is None else max(s.hi, d.delta)
        if d.delta:
            s.departures.append(d)
    order = list(stats)
    for s in stats.values():
        s.departures.sort(key=lambda d: -abs(d.delta))
    return sorted(stats.values(),
                  key=lambda s: (-s.worst, order.index(s.config)))


@dataclass
class EventTotals:
    """An event's counters (Summary.by_event): EventStats without the
    lists."""
    config: str
    compared: int = 0
    agreed: int = 0
    lo: Optional[int] = None
    hi: Optional[int] = None
    departed: int = 0           # nonzero deltas
    worst: int = 0              # the largest |delta|
    none: int = 0               # counters the model could not predict


class Summary:
    """What a report shows of a log's model deltas, counted one Delta at
    a time (add, in the log's order) in bounded memory: how many counters
    were compared and agreed, per event (by_event, as by_event orders
    them), the `listed` largest departures (departures(), as a stable
    sort by -|delta| puts them first) and the first `listed` counters the
    model could not predict (none)."""

    def __init__(self, listed=30):
        self.listed = listed
        self.counters = 0           # every Delta added
        self.compared = 0           # with a model count
        self.agreed = 0             # delta 0
        self.departed = 0           # nonzero delta
        self.events: Dict[str, EventTotals] = {}
        self._largest = []          # heap: (|delta|, -order, order, Delta)
        self.none: List[Delta] = []     # the first `listed`
        self.nones = 0

    def add(self, d: Delta):
        self.counters += 1
        s = self.events.get(d.config)
        if s is None:
            s = self.events[d.config] = EventTotals(d.config)
        if d.model is None:
            s.none += 1
            self.nones += 1
            if len(self.none) < self.listed:
                self.none.append(d)
            return
        self.compared += 1
        s.compared += 1
        s.lo = d.delta if s.lo is None else min(s.lo, d.delta)
        s.hi = d.delta if s.hi is None else max(s.hi, d.delta)
        if not d.delta:
            self.agreed += 1
            s.agreed += 1
            return
        s.departed += 1
        s.worst = max(s.worst, abs(d.delta))
        self.departed += 1
        item = (abs(d.delta), -self.departed, self.departed, d)
        if len(self._largest) < self.listed:
            heapq.heappush(self._largest, item)
        elif item[:2] > self._largest[0][:2]:
            heapq.heapreplace(self._largest, item)

    def departures(self) -> List[Delta]:
        """The `listed` largest departures, largest |delta| first (the
        log's order among equals)."""
        return [x[3] for x in sorted(self._largest,
                                     key=lambda x: (-x[0], x[2]))]

    def by_event(self) -> List[EventTotals]:
        """Per event, the worst departure first, then as first seen."""
        order = {c: i for i, c in enumerate(self.events)}
        return sorted(self.events.values(),
                      key=lambda s: (-s.worst, order[s.config]))


def range_text(s: EventStats) -> str:
    """"-3..+12", "0", or "-" when nothing was compared."""
    if s.lo is None:
        return "-"
    if s.lo == s.hi:
        return signed(s.lo)
    return f"{signed(s.lo)}..{signed(s.hi)}"
