"""The one judgement of a log that every lab tool gives (docs/lab.md,
"Verdicts and exit statuses"): parse, junit, report, compare and capture
all take a log's verdict, and the exit status that follows from it, from
here, so that no tool calls green a log another rejects.

    a = parse.analyse("run.log")      # the log and all its damage
    v = verdict.judge(a)              # or judge(a, regressions=N)
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


def finished(a) -> bool:
    """The run reached its end: a plan, a summary, no damage, no test in
    flight.  A test missing from it was not chosen on this machine."""
    log = a.log
    return (not a.unreadable and not a.damage and log.plan is not None
            and log.summary is not None and a.in_flight is None)


def untested_why(log) -> Optional[str]:
    """Why no test of the machine's PMU ran, or None when one did (or
    one failed: a failure outranks untested): the summary's reason, or
    that every result skipped."""
    if any(r.status == "not ok" for r in log.results):
        return None
    reason = common.untested_reason(log)
    if reason is not None:
        return reason
    if log.results and all(r.status == "skip" for r in log.results):
        return (f"every one of the {len(log.results)} results skipped "
                "(the summary does not say verdict=untested)")
    return None


def _yaml(r) -> dict:
    return r.yaml if isinstance(r.yaml, dict) else {}


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


def _word(a, v):
    """(word, why) of a readable log, the first rule that applies."""
    log = a.log
    if v.hung is not None:
        return "HUNG", (f"stopped in {v.hung.name} (its '# running' line "
                        f"{v.hung.line} has no result after it); "
                        f"{len(log.results)} results before")
    if log.plan is None and log.summary is None and log.found_version:
        return "CUT", (f"no plan and no summary: the log stops at line "
                       f"{log.last_line} after {len(log.results)} results")
    if a.damage:
        d = a.damage[0]
        where = f"line {d.line}: " if d.line else ""
        return "DAMAGED", (f"{len(a.damage)} problem(s), first {where}"
                           f"{d.message}")
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
    if v.untested is not None:
        return "UNTESTED", f"no test of this machine's PMU ran: {v.untested}"
    if not log.results:
        return "NO TESTS", "the run has no result"
    p, _, s = log.counts()
    return "PASSED", f"{p} passed, {s} skipped"


def judge(a, regressions=0) -> Verdict:
    """The verdict of a parse.Analysis; regressions: how many a
    comparison with a baseline log found (0: none, or none compared)."""
    log = a.log
    if a.unreadable:
        return Verdict("UNREADABLE", log.read_error)
    v = Verdict("", "", hung=a.in_flight, errors=list(log.error_lines),
                regressions=regressions, untested=untested_why(log))
    _failures(log, v)
    v.word, v.why = _word(a, v)
    return v


def of(log, regressions=0) -> Verdict:
    """The verdict of an already parsed pmulog.Log (parse.of_log: what
    can be judged without the file's bytes)."""
    from . import parse             # parse imports this module
    return judge(parse.of_log(log), regressions)
