"""The one judgement of a log that every lab tool gives (docs/lab.md,
"Verdicts and exit statuses"): parse, junit, report, compare and capture
all take a log's verdict, and the exit status that follows from it, from
here, so that no tool calls green a log another rejects.

    a = parse.analyse("run.log")      # the log and all its damage
    v = verdict.judge(a)              # or judge(a, regressions=N): from
                                      # a.tally (Tally), the results kept
                                      # or not (a log read as it streams)
    v.word, v.why                     # "DAMAGED", "line 9: plan 1..10 ..."
    v.green                           # only PASSED is green
    v.status                          # the run's exit status (RUN_STATUS)
    v.log_status                      # the log's: 0 for any trusted verdict
    worst_status([v.status for v in ...])   # several logs: the worst

The words, worst first (WORDS), and the rule each stands for:

UNREADABLE  the file cannot be read
HUNG        the log stops inside a test (its last "# running" line has
            no result after it)
CUT         no plan and no summary: the capture or the run stopped
DAMAGED     anything parse finds wrong with it (parse.DAMAGE_KINDS): the
            TAP rules prove applies (the plan is the number of results,
            results numbered in order) and the harness's own (a summary
            that agrees with the results, lines that are UTF-8 without
            control bytes, model deltas that add up)
BAIL OUT    the harness wrote "Bail out!"
FAILED      a result is "not ok" (a "not ok ... # SKIP" too: TAP skips
            only ok lines), timed out or was not run for the whole-run
            limit; a "# TODO" result never fails (TAP)
REGRESSED   worse than a baseline log, where one was compared
ERRORS      "# error:" lines: options not applied, the log file failing;
            the run may not be the one that was asked for
UNTESTED    no test of the machine's PMU ran: the summary says
            verdict=untested, or every result skipped (a run that skips
            everything tested nothing, whatever its summary says)
NO TESTS    a whole log without a result (the harness fails such a run)
PASSED      none of the above

A log is trusted when its verdict is none of the first four: what it
says of its tests can be believed.  Tools that read logs rather than
judge runs (parse; compare, which judges changes) exit with the log's
status: the run's status for an untrusted log, 0 for a trusted one.
"""

from dataclasses import dataclass, field
from typing import List, Optional

from . import common

WORDS = ("UNREADABLE", "HUNG", "CUT", "DAMAGED", "BAIL OUT", "FAILED",
         "REGRESSED", "ERRORS", "UNTESTED", "NO TESTS", "PASSED")
UNTRUSTED = WORDS[:4]

# The exit status of a run with this verdict (common.EXIT_*): the numbers
# every subcommand uses, automake's 77 for a run that tested nothing.
RUN_STATUS = {
    "UNREADABLE": common.EXIT_USAGE,
    "HUNG": common.EXIT_DAMAGED,
    "CUT": common.EXIT_DAMAGED,
    "DAMAGED": common.EXIT_DAMAGED,
    "BAIL OUT": common.EXIT_FAIL,
    "FAILED": common.EXIT_FAIL,
    "REGRESSED": common.EXIT_FAIL,
    "ERRORS": common.EXIT_ERRORS,
    "UNTESTED": common.EXIT_UNTESTED,
    "NO TESTS": common.EXIT_FAIL,
    "PASSED": common.EXIT_OK,
}

# Several logs' statuses give the first of these present: a log that
# cannot be read, then one that cannot be trusted, then a failed run,
# then one with error lines, then an untested one.
_PRECEDENCE = (common.EXIT_USAGE, common.EXIT_DAMAGED, common.EXIT_FAIL,
               common.EXIT_ERRORS, common.EXIT_UNTESTED)


def worst_status(statuses) -> int:
    statuses = set(statuses)
    return next((s for s in _PRECEDENCE if s in statuses), common.EXIT_OK)


@dataclass
class Verdict:
    word: str
    why: str                                    # one line
    failed: List[str] = field(default_factory=list)     # test names
    timed_out: List[str] = field(default_factory=list)
    not_run: List[str] = field(default_factory=list)    # run_timeout=
    hung: Optional[object] = None               # parse.InFlight
    errors: list = field(default_factory=list)  # pmulog.Comment
    regressions: int = 0
    untested: Optional[str] = None  # why no PMU test ran, when none did

    @property
    def rank(self) -> int:
        return WORDS.index(self.word)

    @property
    def green(self) -> bool:
        return self.word == "PASSED"

    @property
    def trusted(self) -> bool:
        return self.word not in UNTRUSTED

    @property
    def status(self) -> int:
        return RUN_STATUS[self.word]

    @property
    def log_status(self) -> int:
        return common.EXIT_OK if self.trusted else self.status


class Tally:
    """What the verdict needs of a log's results, counted one result at
    a time (add), so that a log is judged without keeping its results
    (parse.analyse(..., keep_results=False)): how many, how many passed,
    failed and skipped (as the harness counts them, pmulog.Log.counts),
    the line of the last, and the names of those that failed, timed out
    or were not run for the whole-run limit."""

    __slots__ = ("results", "passed", "failed", "skipped", "last_line",
                 "failed_names", "timed_out", "not_run")

    def __init__(self, results=()):
        self.results = self.passed = self.failed = self.skipped = 0
        self.last_line = 0
        self.failed_names: List[str] = []
        self.timed_out: List[str] = []
        self.not_run: List[str] = []
        for r in results:
            self.add(r)

    def add(self, r):
        self.results += 1
        self.last_line = r.line
        st = r.status
        if st == "skip":
            self.skipped += 1
        elif st == "ok":
            self.passed += 1
        else:
            self.failed += 1
            kind = failure_kind(r)
            (self.timed_out if kind == "timed_out" else
             self.not_run if kind == "not_run" else
             self.failed_names).append(r.name)

    def counts(self):
        """(passed, failed, skipped)."""
        return self.passed, self.failed, self.skipped

    @property
    def all_skipped(self) -> bool:
        return self.results > 0 and self.skipped == self.results


def failure_kind(r) -> str:
    """How a "not ok" result failed: "timed_out" (stopped at its time
    limit), "not_run" (the whole-run limit left no time for it) or
    "failed"."""
    y = _yaml(r)
    if y.get("timed_out") is True:
        return "timed_out"
    if "not_run" in y:
        return "not_run"
    return "failed"


def finished(a) -> bool:
    """The run reached its end: a plan, a summary, no damage, no test in
    flight.  A test missing from it was not chosen on this machine."""
    log = a.log
    return (not a.unreadable and not a.damage and log.plan is not None
            and log.summary is not None and a.in_flight is None)


def untested_why(log, tally=None) -> Optional[str]:
    """Why no test of the machine's PMU ran, or None when one did (or
    one failed: a failure outranks untested): the summary's reason, or
    that every result skipped.  tally: the log's results counted (Tally),
    when log.results does not keep them."""
    t = tally if tally is not None else Tally(log.results)
    if t.failed:
        return None
    reason = common.untested_reason(log)
    if reason is not None:
        return reason
    if t.all_skipped:
        return (f"every one of the {t.results} results skipped "
                "(the summary does not say verdict=untested)")
    return None


def _yaml(r) -> dict:
    return r.yaml if isinstance(r.yaml, dict) else {}


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


def _word(a, v):
    """(word, why) of a readable log, the first rule that applies."""
    log, t = a.log, a.tally
    if v.hung is not None:
        return "HUNG", (f"stopped in {v.hung.name} (its '# running' line "
                        f"{v.hung.line} has no result after it); "
                        f"{t.results} results before")
    if log.plan is None and log.summary is None and log.found_version:
        return "CUT", (f"no plan and no summary: the log stops at line "
                       f"{log.last_line} after {t.results} results")
    if a.damage:
        d = a.damage[0]
        where = f"line {d.line}: " if d.line else ""
        return "DAMAGED", (f"{len(a.damage)} problem(s), first {where}"
                           f"{d.message}")
    if log.bail_outs:
        b = log.bail_outs[0]
        return "BAIL OUT", f"line {b.line}: Bail out! {b.text}"
    if v.failed or v.timed_out or v.not_run:
        return "FAILED", _failed_why(v, t.results)
    if v.regressions:
        return "REGRESSED", (f"{v.regressions} regression(s) against the "
                             "baseline")
    if v.errors:
        return "ERRORS", (f"{len(v.errors)} '# error:' line(s), first at "
                          f"line {v.errors[0].line}: {v.errors[0].text}")
    if v.untested is not None:
        return "UNTESTED", f"no test of this machine's PMU ran: {v.untested}"
    if not t.results:
        return "NO TESTS", "the run has no result"
    return "PASSED", f"{t.passed} passed, {t.skipped} skipped"


def judge(a, regressions=0) -> Verdict:
    """The verdict of a parse.Analysis (its results counted in
    a.tally: kept or not, the log is judged alike); regressions: how many
    a comparison with a baseline log found (0: none, or none compared)."""
    log = a.log
    if a.unreadable:
        return Verdict("UNREADABLE", log.read_error)
    t = a.tally
    v = Verdict("", "", hung=a.in_flight, errors=list(log.error_lines),
                regressions=regressions, untested=untested_why(log, t),
                failed=list(t.failed_names), timed_out=list(t.timed_out),
                not_run=list(t.not_run))
    v.word, v.why = _word(a, v)
    return v


def of(log, regressions=0) -> Verdict:
    """The verdict of an already parsed pmulog.Log (parse.of_log: what
    can be judged without the file's bytes)."""
    from . import parse             # parse imports this module
    return judge(parse.of_log(log), regressions)
