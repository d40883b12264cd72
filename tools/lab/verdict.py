"""One verdict per log, for the lab lead's first look (`pmu-harness
report`, docs/lab.md "report"): did this machine's run pass, and if not,
the worst thing that happened to it.

    v = verdict.of(log)               # log: a pmulog.Log
    v.word, v.why                     # "HUNG", "stopped in apic/x ..."
    v.green                           # only PASSED is green
    sorted(logs, key=lambda l: verdict.of(l).rank)   # worst first

The words, worst first (WORDS): UNREADABLE (the file cannot be read),
HUNG (the log stops inside a test: its last "# running" line has no
result), CUT (no plan and no summary: the capture or the run stopped),
DAMAGED (pmulog's parse errors), BAIL OUT, FAILED (a test failed,
timed out, or was not run for the whole-run limit), REGRESSED (worse
than a baseline log, when one was compared), ERRORS ("# error:" lines:
options not applied, a log file that failed), UNTESTED (the summary's
verdict=untested: nothing failed but no test of the machine's PMU ran),
NO TESTS (a whole log without a result), PASSED.
"""

from dataclasses import dataclass, field
from typing import List, Optional

from . import common
from . import parse as lparse

WORDS = ("UNREADABLE", "HUNG", "CUT", "DAMAGED", "BAIL OUT", "FAILED",
         "REGRESSED", "ERRORS", "UNTESTED", "NO TESTS", "PASSED")


@dataclass
class Verdict:
    word: str
    why: str                                    # one line
    failed: List[str] = field(default_factory=list)     # test names
    timed_out: List[str] = field(default_factory=list)
    not_run: List[str] = field(default_factory=list)    # run_timeout=
    hung: Optional[lparse.InFlight] = None
    errors: list = field(default_factory=list)  # pmulog.Comment
    regressions: int = 0

    @property
    def rank(self) -> int:
        return WORDS.index(self.word)

    @property
    def green(self) -> bool:
        return self.word == "PASSED"


def _yaml(r) -> dict:
    return r.yaml if isinstance(r.yaml, dict) else {}


def finished(log) -> bool:
    """The run reached its end: a plan, a summary, no damage, no test in
    flight.  A test missing from it was not chosen on this machine."""
    return (log.read_error is None and not log.parse_errors and
            log.plan is not None and log.summary is not None and
            lparse.in_flight(log) is None)


def _failures(log, v):
    for r in log.results:
        if r.status != "not ok":
            continue
        y = _yaml(r)
        if y.get("timed_out") is True:
            v.timed_out.append(r.name)
        elif "not_run" in y:
            v.not_run.append(r.name)
        else:
            v.failed.append(r.name)


def _names(names, n=3) -> str:
    shown = ", ".join(names[:n])
    return shown + (f" and {len(names) - n} more" if len(names) > n else "")


def _failed_why(v, total) -> str:
    parts = []
    if v.failed:
        parts.append(f"{len(v.failed)} failed ({_names(v.failed)})")
    if v.timed_out:
        parts.append(f"{len(v.timed_out)} timed out "
                     f"({_names(v.timed_out)})")
    if v.not_run:
        parts.append(f"{len(v.not_run)} not run: the whole-run limit "
                     f"was reached ({_names(v.not_run)})")
    return f"of {total} tests: " + "; ".join(parts)


def _word(log, v):
    """(word, why) of a readable log."""
    if v.hung is not None:
        return "HUNG", (f"stopped in {v.hung.name} (its '# running' line "
                        f"{v.hung.line} has no result after it); "
                        f"{len(log.results)} results before")
    if log.plan is None and log.summary is None and log.found_version:
        last = log.last_line
        return "CUT", (f"no plan and no summary: the log stops at line "
                       f"{last} after {len(log.results)} results")
    if log.parse_errors:
        e = log.parse_errors[0]
        return "DAMAGED", (f"{len(log.parse_errors)} problem(s), first "
                           f"{e}")
    if log.bail_outs:
        b = log.bail_outs[0]
        return "BAIL OUT", f"line {b.line}: Bail out! {b.text}"
    if v.failed or v.timed_out or v.not_run:
        return "FAILED", _failed_why(v, len(log.results))
    if v.regressions:
        return "REGRESSED", (f"{v.regressions} regression(s) against the "
                             "baseline")
    if v.errors:
        return "ERRORS", (f"{len(v.errors)} '# error:' line(s), first at "
                          f"line {v.errors[0].line}: {v.errors[0].text}")
    untested = common.untested_reason(log)
    if untested is not None:
        return "UNTESTED", f"no test of this machine's PMU ran: {untested}"
    if not log.results:
        return "NO TESTS", "the run has no result"
    p, _, s = log.counts()
    return "PASSED", f"{p} passed, {s} skipped"


def of(log, regressions=0) -> Verdict:
    """The verdict of a pmulog.Log; regressions: how many a comparison
    with a baseline log found (0: none, or none compared)."""
    if log.read_error:
        return Verdict("UNREADABLE", log.read_error)
    v = Verdict("", "", hung=lparse.in_flight(log),
                errors=list(log.error_lines), regressions=regressions)
    _failures(log, v)
    v.word, v.why = _word(log, v)
    return v
