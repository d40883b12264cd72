"""What every pmu-harness subcommand shares: exit statuses, reading logs,
naming the machine a log came from, and the counter values of a result.

The log format is docs/log-format.md; the parser is tools/lab/pmulog.py (the
same one `make check` judges every boot with).
"""

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

from . import pmulog

EXIT_OK = 0             # all well
EXIT_FAIL = 1           # a test failed / a regression
EXIT_USAGE = 2          # bad arguments, a file that cannot be read
EXIT_DAMAGED = 3        # a damaged log: its readable part was used
# Nothing failed, but the log has "# error:" lines (options not applied,
# inject= refused, the log file failing): the run may not be the one asked
# for; qemu-boot.sh exits the same (docs/lab.md, docs/log-format.md).
EXIT_ERRORS = 4
# Nothing failed, but the run tested no PMU: its summary says
# verdict=untested (docs/log-format.md "Verdicts"); automake's SKIP,
# as qemu-boot.sh exits.
EXIT_UNTESTED = 77
# A bug of the tool (an exception nobody caught): sysexits' EX_SOFTWARE,
# never 1, which would read as a verdict on the logs.
EXIT_INTERNAL = 70


def load(path) -> pmulog.Log:
    """Parses the log at path (never raises; see pmulog.parse_file).
    The lab tools read results, not lines: the log's lines are not kept
    (a long log costs its results, not its text twice over)."""
    return pmulog.parse_file(path, keep_lines=False)


def warn(prog, msg):
    print(f"pmu-harness {prog}: {msg}", file=sys.stderr)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """How far a long run is, on stderr (docs/lab.md, "Lab scale"): when
    stderr is a terminal, one line redrawn in place ("\\r", at most every
    REDRAW seconds) and erased by clear(); otherwise a line every INTERVAL
    seconds, so that a run shorter than that writes nothing.  The tools
    call reading() and writing() often; only a call that is due writes."""

    INTERVAL = 10.0         # seconds between lines, not a terminal
    REDRAW = 0.25           # seconds between redraws on a terminal

    def __init__(self, prog, stream=None, tty=None, clock=time.monotonic):
        self.prog = prog
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _isatty(self.stream) if tty is None else tty
        self.clock = clock
        self.start = clock()
        self.due = self.start + (self.REDRAW if self.tty else self.INTERVAL)
        self.shown = False          # a line is drawn on the terminal

    def _due(self) -> bool:
        return self.clock() >= self.due

    def _name(self, path) -> str:
        """The log as the line names it: its file name on a terminal
        (the line must fit its width), else the path."""
        return Path(str(path)).name if self.tty else str(path)

    def reading(self, path, done, total, results):
        """done of total bytes of path read (total 0: unknown), results
        results so far."""
        if not self._due():
            return
        of = f" of {total / 1e6:.1f} MB ({100 * done // total}%)" \
            if total else " MB"
        self.say(f"{self._name(path)}: {results} results, "
                 f"{done / 1e6:.1f}{of} read")

    def writing(self, path, done, total):
        """done of total results of path written out."""
        if self._due():
            self.say(f"{self._name(path)}: writing, {done} of {total} "
                     "results")

    def step(self, text):
        """What the run does now, shown if a line is due."""
        if self._due():
            self.say(text)

    def say(self, text):
        """Shows text now (a redraw, or a line with the seconds so far)."""
        now = self.clock()
        self.due = now + (self.REDRAW if self.tty else self.INTERVAL)
        line = f"pmu-harness {self.prog}: {text}, {now - self.start:.0f} s"
        try:
            if self.tty:
                width = shutil.get_terminal_size().columns - 1
                self.stream.write("\r" + line[:max(width, 20)] + "\x1b[K")
                self.shown = True
            else:
                self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def clear(self):
        """Erases the terminal's progress line (before other output)."""
        if self.shown:
            self.shown = False
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass


def untested_reason(log) -> Optional[str]:
    """The reason of an untested run (its summary's verdict=untested
    reason="..."), or None: such a run is not a pass."""
    s = log.summary
    if s is None or s.fields.get("verdict") != "untested":
        return None
    return s.fields.get("reason", "")


def cpu_fields(log) -> dict:
    h = log.header("cpu")
    return dict(h.fields) if h else {}


def machine_name(log) -> str:
    """The machine a log came from, from its "# cpu:" line: the model name
    and CPUID signature, e.g. "Core 6th gen (Skylake) 0x506e3"; "unknown
    machine" when the line is missing."""
    f = cpu_fields(log)
    name = f.get("name") or " ".join(
        x for x in (f.get("vendor"), f.get("family") and
                    f"family {f['family']}", f.get("model") and
                    f"model {f['model']}") if x)
    sig = f.get("signature")
    if not name and not sig:
        return "unknown machine"
    return " ".join(x for x in (name, sig) if x)


def log_label(log) -> str:
    """Machine name and file stem: unique for a row of logs."""
    stem = Path(log.path).name if log.path else "(input)"
    for suffix in (".log", ".txt"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return f"{machine_name(log)} [{stem}]"


def backend(log) -> Optional[str]:
    """"hw", "model", "emulated", "none", or None when the log has no
    backend line."""
    h = log.header("backend")
    return h.words[0] if h and h.words else None


def counter_widths(log) -> Tuple[int, ...]:
    """The counters' widths in bits the "# pmu:" line states (width=,
    fixed_width=): the harness writes each model delta modulo its
    counter's width (docs/log-format.md).  () without such a line."""
    h = log.header("pmu")
    out = []
    for k in ("width", "fixed_width"):
        v = h.fields.get(k, "") if h else ""
        if v.isdigit() and 0 < int(v) <= 64:
            out.append(int(v))
    return tuple(out)


def is_model(log) -> bool:
    """Model-backed results, labelled as such: backend=model, and
    backend=emulated (the model counting as silicon would,
    docs/emulators.md)."""
    return backend(log) in ("model", "emulated")


# The "# time:" comment (harness/runner.c); slowest= is absent when no
# test ran.
_TIME = re.compile(r"^time:\s*run=(\d+)\s*ms(?:\s+slowest=(\S+)\s+(\d+)\s*ms)?"
                   r"(?: timeout=(\d+) s)?(?: run_timeout=(\d+) s)?")


def run_time(log) -> Optional[dict]:
    """The "# time:" line's fields: run_ms, slowest, slowest_ms, timeout_s,
    run_timeout_s (None where absent) and line; None without the line.  It
    is a comment after the results, a header when no result came first."""
    cands = [(c.text, c.line) for c in log.comments]
    h = log.header("time")
    if h:
        cands.append((f"time: {h.text}", h.line))
    for text, line in cands:
        m = _TIME.match(text)
        if m:
            run, slowest, ms, tmo, rtmo = m.groups()
            num = (lambda v: int(v) if v else None)
            return {"run_ms": int(run), "slowest": slowest,
                    "slowest_ms": num(ms), "timeout_s": num(tmo),
                    "run_timeout_s": num(rtmo), "line": line}
    return None


def test_group(name) -> str:
    """"p5" of "p5/cc-010"; "(no group)" for a name without one."""
    return name.split("/", 1)[0] if "/" in name else "(no group)"


# A value K with an expectation "K_oracle" beside it: "cpl3_ctr0" (run
# cpl3, counter ctr0), "pmc0_usr_os", "fixed0_any".  The oracle is "V",
# "V = a + b" (a sum spelled out) or "increment LO..HI (WHY)"
# (harness/pmu_run.c pmu_check_counter).
_CTR_KEY = re.compile(r"^(?:(?P<prefix>[a-z0-9_]*?)_)?"
                      r"(?P<ctr>(?:ctr|pmc|fixed)\d+)(?P<rest>(?:_[a-z0-9_]+)?)$")
_EXACT = re.compile(r"^\s*(\d+)(?:\s*=.*)?$")
_RANGE = re.compile(r"^\s*increment\s+(\d+)\.\.(\d+)(?:\s*\((.*)\))?\s*$")


@dataclass
class Count:
    """One counter read by a PMU test and what the oracle expected."""
    key: str                    # YAML key of the read value, "cpl3_ctr0"
    run: str                    # the run's label, "cpl3" ("" for none)
    counter: str                # "ctr0"
    value: Optional[int]        # as read (None: not a number)
    lo: Optional[int]           # the oracle's range (lo == hi: exact)
    hi: Optional[int]
    tolerance: str              # why a range ("" when exact)
    config: str                 # "<run>_ctrN_config": what it counted
    oracle_text: str            # the oracle's value as written


def _int(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            return None
    return None


def parse_oracle(text):
    """(lo, hi, why) of an oracle value as written; (None, None, "") when
    it is neither form."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text, text, ""
    s = str(text)
    m = _EXACT.match(s)
    if m:
        v = int(m.group(1))
        return v, v, ""
    m = _RANGE.match(s)
    if m:
        return int(m.group(1)), int(m.group(2)), m.group(3) or ""
    return None, None, ""


def counts(result) -> List[Count]:
    """The counters a result's YAML block reports with an oracle value,
    in the block's order."""
    y = result.yaml if isinstance(result.yaml, dict) else {}
    # the keys that have an oracle beside them (most results: none)
    bases = {k[:-7] for k in y if isinstance(k, str) and
             k.endswith("_oracle")}
    out = []
    if not bases:
        return out
    for key, v in y.items():
        key = str(key)
        if key not in bases or key.endswith("_oracle"):
            continue
        oracle = y[f"{key}_oracle"]
        lo, hi, why = parse_oracle(oracle)
        m = _CTR_KEY.match(key)
        run = (m.group("prefix") or "") if m else ""
        counter = m.group("ctr") + m.group("rest") if m else key
        out.append(Count(key=key, run=run,
                         counter=counter, value=_int(v), lo=lo,
                         hi=hi, tolerance=why,
                         config=str(y.get(f"{key}_config", "")),
                         oracle_text=str(oracle)))
    return out


ROOT = Path(__file__).resolve().parent.parent.parent


# Host tools already brought up to date by this process: make reads the
# whole Makefile each time (half a second), and the sources do not change
# under one run of a tool or of a test worker.
_BUILT = set()


def build_host_tool(target, error):
    """Path of a host program of the product (build/host/pmu-events,
    build/host/pmu-detect), (re)built by make when it is missing or older
    than its sources, once per process; error(message) is raised when
    make cannot."""
    if target in _BUILT and (ROOT / target).exists():
        return ROOT / target
    try:
        r = subprocess.run(["make", "-s", "--no-print-directory", target],
                           cwd=ROOT, capture_output=True, text=True)
    except OSError as e:
        raise error(f"cannot run make to build {target}: {e}")
    if r.returncode:
        raise error(f"make {target} failed:\n{r.stderr.strip()}")
    _BUILT.add(target)
    return ROOT / target
