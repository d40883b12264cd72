"""logcheck: check one parsed harness log against its boot table entry.

    checks = logcheck.check_boot(boot, log, status, volume, stderr="")

boot is a boottable.Boot, log a pmulog.Log, status tools/boot/qemu-boot.sh's
exit status for the boot (None: not known, which fails that check),
volume the log file found on the boot volume (bytes, or its text), or a
Missing saying why there is none.  serial_tap, when given, is the serial
capture's TAP text as bytes (volumelog.serial_tap), compared byte for
byte with the volume log under volume_log: prefix.  Returns a list of
Check, one per check, in a fixed order; docs/check.md lists them.
"""

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import List, Optional

from . import generations, volumelog


@dataclass
class Check:
    ok: bool
    what: str


@dataclass
class Missing:
    why: str
    # True: the volume was read and holds no log file (what volume_log:
    # absent wants); False: it could not be read, which proves nothing.
    absent: bool = False


# The "# pmu:" kinds beside the generations' own: no PMU, or one the
# harness has no driver for.
KINDS_WITHOUT_GENERATION = ("unsupported", "none")


def header_rules(kinds):
    """The header lines every log has, kind= among kinds (the
    generations built into the image, then KINDS_WITHOUT_GENERATION)."""
    alt = "|".join(re.escape(k) for k in kinds)
    return (
        ("harness", re.compile(r"^pmu-harness \S+$"),
         "# harness: pmu-harness <version>"),
        ("pmu", re.compile(rf"^kind=({alt})( |$)"),
         f"# pmu: kind={'|'.join(kinds)} ..."),
        ("backend", re.compile(r'^(hw|model|emulated|none) reason="[^"]+"$'),
         '# backend: hw|model|emulated|none reason="..."'),
    )


def pmu_kinds():
    """The kinds a "# pmu:" line may name, from the build's listing of
    the generations (tools/check/generations.py)."""
    return generations.kind_names(generations.load()) + \
        list(KINDS_WITHOUT_GENERATION)


def _short(items, n=3):
    items = list(items)
    s = "; ".join(items[:n])
    return s + (f"; ... ({len(items) - n} more)" if len(items) > n else "")


def _field_str(v):
    """A table value as the log writes it (5 -> "5")."""
    return str(v)


def check_boot(boot, log, status: Optional[int], volume,
               stderr: str = "", serial_tap: Optional[bytes] = None
               ) -> List[Check]:
    out: List[Check] = []

    def say(ok, what):
        out.append(Check(bool(ok), what))

    if log.read_error or not log.found_version:
        why = log.read_error or "no 'TAP version 13' line in " \
            f"{log.path or 'the log'}"
        tail = stderr.strip().splitlines()[-3:]
        say(False, f"{why} (qemu-boot status {status})"
                   + (": " + " | ".join(tail) if tail else ""))
        return out

    if log.parse_errors:
        say(False, f"log has {len(log.parse_errors)} parse error(s): "
                   + _short(str(e) for e in log.parse_errors))
    else:
        say(True, f"log parses ({len(log.lines)} lines)")

    _check_cpu(boot, log, say)
    try:
        kinds = pmu_kinds()
    except generations.ListingError as e:
        say(False, f"the generations' listing: {e}")
        kinds = list(KINDS_WITHOUT_GENERATION)
    for key, rule, label in header_rules(kinds):
        h = log.header(key)
        if h is not None and rule.search(h.text):
            say(True, f"header {label}")
        elif h is None:
            say(False, f"missing header {label}")
        else:
            say(False, f"header '# {key}: {h.text}' is not {label}")

    passed, failed, skipped = log.counts()
    total = len(log.results)
    # A run that bails out may do so before its first test.
    least = 0 if boot.verdict == "bail" else 1
    if log.plan is not None and log.plan == total and total >= least:
        say(True, f"plan 1..{log.plan} equals {total} results")
    else:
        plan = "missing" if log.plan is None else log.plan
        say(False, f"plan 1..{plan} but {total} results")
    bails = _short(f"Bail out! {b.text}" for b in log.bail_outs)
    if boot.verdict == "bail":
        say(log.bail_outs, f"harness bailed out as expected: {bails}"
            if log.bail_outs else "no Bail out! line (verdict bail)")
    elif log.bail_outs:
        say(False, f"harness bailed out: {bails}")
    else:
        say(True, "no Bail out!")
    counted = f"passed={passed} failed={failed} skipped={skipped}"
    s = log.summary
    if s is None:
        say(False, f"no '# summary:' line (counted {counted})")
    elif (s.passed, s.failed, s.skipped) == (passed, failed, skipped):
        say(True, f"summary matches results ({counted})")
    else:
        say(False, f"summary 'passed={s.passed} failed={s.failed} "
                   f"skipped={s.skipped}' but counted {counted}")

    _check_status(boot, log, status, failed, say)
    _check_pmu(boot, log, say)
    _check_backend(boot, log, say)
    _check_results(boot, log, say)
    _check_skip_reasons(log, say)
    text = log.tap_text
    for r in boot.require_lines:
        if r.search(text):
            say(True, f"has /{r.pattern}/")
        else:
            say(False, f"no line matches /{r.pattern}/")
    for r in boot.forbid_lines:
        hits = [l for l in log.lines if r.search(l)]
        if hits:
            say(False, f"unexpected /{r.pattern}/: " + _short(hits, 2))
        else:
            say(True, f"no /{r.pattern}/")
    _check_flush_policy(boot, log, say)
    _check_watchdog_stops(log, say)
    _check_volume(boot, log, volume, serial_tap, say)
    return out


def _seconds_ms(v):
    """A YAML value the harness wrote as seconds with milliseconds
    ("1.000"; YAML may have made it a float) as whole milliseconds, or
    None when it is not one."""
    m = re.fullmatch(r"(\d+)\.(\d{3})", v if isinstance(v, str)
                     else f"{v:.3f}" if isinstance(v, float) else "")
    return int(m.group(1)) * 1000 + int(m.group(2)) if m else None


def watchdog_stop_errors(y):
    """What a timed-out result's YAML block (a dict) breaks of the
    watchdog's own rules, in its own clock (arch/x86/watchdog.h, struct
    wd_event): the first stop not before the limit, the root stop (a test
    that ignored the first) not before the grace period after it.  Never
    how late: that is the host's load, not the harness's (issue 46).
    Each value is cut to whole milliseconds, and a limit or grace turned
    into the clock's ticks and back may lose a microsecond: 1 ms is
    allowed for both.  Returns a list of strings, empty when they hold."""
    errs = []
    limit = _seconds_ms(y.get("limit_s"))
    stop = _seconds_ms(y.get("watchdog_stop_s"))
    if limit is None or stop is None:
        return [f"limit_s {y.get('limit_s')!r} and watchdog_stop_s "
                f"{y.get('watchdog_stop_s')!r} are not both seconds"]
    if stop + 1 < limit:
        errs.append(f"stopped at {stop} ms of the watchdog's clock, "
                    f"before the limit of {limit} ms")
    if not str(y.get("stopped", "")).startswith("at the test's root"):
        return errs
    grace = _seconds_ms(y.get("grace_s"))
    root = _seconds_ms(y.get("watchdog_root_stop_s"))
    if grace is None or root is None:
        return errs + ["a root stop without grace_s and "
                       "watchdog_root_stop_s as seconds"]
    if root + 1 < stop + grace:
        errs.append(f"root stop at {root} ms, less than the grace of "
                    f"{grace} ms after the first stop at {stop} ms")
    return errs


def _check_watchdog_stops(log, say):
    """Every result the watchdog stopped keeps its rules (above)."""
    stopped = [r for r in log.results if isinstance(r.yaml, dict)
               and r.yaml.get("timed_out") in (True, "true")]
    if not stopped:
        return
    bad = [f"{r.number} - {r.name}: " + "; ".join(e) for r in stopped
           for e in [watchdog_stop_errors(r.yaml)] if e]
    say(not bad, "watchdog stops keep the limit and the grace in the "
        f"watchdog's clock ({len(stopped)} stopped)"
        + (": " + _short(bad) if bad else ""))


# The log file's flush policy (boot/logflush.c; docs/reliability.md, "How
# often the file is flushed"), as the harness tallies it before its last
# flush: "# log-file: flushes=N interval=I urgent=U flush_us=B
# longest_us=L span_us=S".
FLUSH_TALLY = re.compile(r"^log-file: flushes=(\d+) interval=(\d+) "
                         r"urgent=(\d+) flush_us=(\d+) longest_us=(\d+) "
                         r"span_us=(\d+)$")
LOGFLUSH_INTERVAL_US = 250_000      # LOGFLUSH_INTERVAL_MS, boot/logflush.h


def flush_policy_errors(n, interval, urgent, busy, longest, span):
    """What the tallied flushes break of the policy's own guarantees, as
    logflush_due() makes them: a flush that could wait (interval) starts
    only when, since the previous flush (of either kind) ended, both
    LOGFLUSH_INTERVAL_MS and that flush's own time have passed.  Those
    waits hold no flush, so they fit in the time between flushes,
    idle = span - busy:
      1. interval * 250 ms <= idle (at most 4 such flushes a second);
      2. every flush followed by an interval flush took at most its wait:
         only those followed by an urgent one, and the last, are not
         bounded, so busy <= idle + (urgent + 1) * longest (a slow medium
         at most doubles the run, but for the flushes that cannot wait).
    The numbers are whole microseconds, each cut down: 1 us a flush
    is allowed for that, and for the interval's TSC rounding (hz / 1000
    * 250 ticks).  Returns a list of strings, empty when they hold."""
    errs = []
    idle = span - busy
    if n != interval + urgent:
        errs.append(f"flushes={n} is not interval={interval} + "
                    f"urgent={urgent}")
    if longest > busy or busy > span:
        errs.append(f"longest_us={longest} <= flush_us={busy} <= "
                    f"span_us={span} does not hold")
    if interval * LOGFLUSH_INTERVAL_US > idle + n + 1:
        errs.append(f"{interval} interval flushes need {interval} x 250 ms "
                    f"of waits, but only {idle} us passed between flushes")
    if busy > idle + (urgent + 1) * longest + n + 1:
        errs.append(f"flushing took {busy} us, more than the {idle} us "
                    f"between flushes + (urgent {urgent} + 1) x longest "
                    f"{longest} us")
    return errs


def _check_flush_policy(boot, log, say):
    """Every UEFI boot's tally must keep the policy's bounds; a boot on a
    slow medium (write_iops) must have one."""
    if boot.boot != "uefi":
        return
    lines = [c.text for c in log.comments if c.text.startswith("log-file:")]
    if not lines:
        if boot.write_iops is not None:
            say(False, "no '# log-file:' line (the flush policy's tally)")
        return
    m = FLUSH_TALLY.match(lines[-1])
    if not m:
        say(False, f"'# {lines[-1]}' is not the flush tally's form")
        return
    errs = flush_policy_errors(*(int(g) for g in m.groups()))
    say(not errs, "log-file flushes keep the policy's bounds: "
        + ("; ".join(errs) if errs else lines[-1][len("log-file: "):]))


def _check_cpu(boot, log, say):
    want = " ".join(f"{k}={_field_str(v)}" for k, v in boot.expect_cpu.items())
    h = log.header("cpu")
    if h is None:
        say(False, f"no '# cpu:' line, expected {want}")
        return
    bad = [f"{k}={h.fields.get(k, '(absent)')}"
           for k, v in boot.expect_cpu.items()
           if h.fields.get(k) != _field_str(v)]
    if bad:
        say(False, f"cpu line is '# cpu: {h.text}': {', '.join(bad)}, "
                   f"expected {want}")
    else:
        say(True, f"cpu line matches {want}")


# qemu-boot.sh's (and bochs-boot.sh's) status for an untested run.
UNTESTED_STATUS = 77
ERRORS_STATUS = 4       # qemu-boot.sh: nothing failed, "# error:" lines


def _untested(log):
    s = log.summary
    return s is not None and s.fields.get("verdict") == "untested"


def _reason(log):
    return log.summary.fields.get("reason", "") if log.summary else ""


def _check_status(boot, log, status, failed, say):
    # The harness's own verdict (lib/tap.c tap_verdict): 1 when a test
    # failed or none ran, else 77 when the summary says verdict=untested,
    # else 0.
    verdict = 0 if failed == 0 and log.results else 1
    if verdict == 0 and _untested(log):
        verdict = UNTESTED_STATUS
    # qemu-boot.sh: a run that did not fail but has "# error:" lines
    # exits 4 (ERRORS), whatever else it says
    errors = len(log.error_lines) if verdict != 1 else 0
    expect = boot.verdict
    if status is None:
        say(False, "no qemu-boot exit status recorded")
        return
    if expect == "bail":
        # qemu-boot.sh's status 2: QEMU's 5, isa-debug-exit's (2 << 1) | 1
        # from leave(2), whatever the results so far.
        say(status == 2, "exit status 2 (Bail out!) as expected"
            if status == 2 else f"exit status {status}, expected 2 (the "
                                "harness bails out)")
        return
    if expect == "shutdown":
        if status == 3:
            say(True, "QEMU powered off without isa-debug-exit")
        else:
            say(False, f"exit status {status}, expected 3 (powered off, no "
                       "verdict)")
        status, expect = verdict, "pass"
    want_status = ERRORS_STATUS if errors else verdict
    if status == want_status:
        say(True, f"exit status {status} matches the summary"
            + (f" and its {errors} '# error:' line(s)" if errors else ""))
    else:
        say(False, f"exit status {status}, the results say verdict "
                   f"{verdict}" + (f" with {errors} '# error:' line(s): "
                                   f"{ERRORS_STATUS}" if errors else ""))
    want = {"pass": 0, "untested": UNTESTED_STATUS}.get(expect, 1)
    if verdict == want:
        said = {0: "run passed as expected", 1: "run failed as expected"}
        say(True, said.get(verdict, "run untested as expected: " +
                           _reason(log)))
    elif verdict == 1:
        say(False, "run failed: " + _short(
            f"not ok {r.number} - {r.name}" for r in log.results
            if r.status == "not ok"))
    elif verdict == UNTESTED_STATUS:
        say(False, f"run untested (verdict=untested reason=\"{_reason(log)}"
                   f"\"), expected {expect}")
    else:
        say(False, f"run passed, {expect} was expected")


def _check_pmu(boot, log, say):
    want = " ".join(f"{k}={v}" for k, v in boot.expect_pmu.items())
    h = log.header("pmu")
    if h is None:
        say(False, f"no '# pmu:' line, expected {want}")
        return
    bad = [f"{k}={h.fields.get(k, '(absent)')}"
           for k, v in boot.expect_pmu.items()
           if h.fields.get(k) != _field_str(v)]
    if bad:
        say(False, f"pmu line has {', '.join(bad)}, expected {want}")
    else:
        say(True, f"pmu line has {want}")


def _check_backend(boot, log, say):
    h = log.header("backend")
    name = h.words[0] if h is not None and h.words else None
    if name == boot.backend:
        say(True, f"backend is {boot.backend}")
    else:
        say(False, f"backend is {name or '(absent)'}, expected {boot.backend}")
    if boot.backend_reason is not None:
        reason = h.fields.get("reason") if h is not None else None
        pat = boot.backend_reason.pattern
        if reason is not None and boot.backend_reason.search(reason):
            say(True, f"backend reason matches /{pat}/")
        else:
            say(False, f"backend reason {reason!r} does not match /{pat}/")


def _check_results(boot, log, say):
    for rule in boot.require_results:
        hits = [r for r in log.results if fnmatchcase(r.name, rule.name)]
        wrong = [r for r in hits if r.status != rule.status]
        if not hits:
            say(False, f"no result {rule.name} (expected {rule.status})")
        elif wrong:
            say(False, f"result {rule.name} expected {rule.status}: " +
                _short(f"{r.status} {r.number} - {r.name}" for r in wrong))
        else:
            say(True, f"result {rule.name} is {rule.status}"
                      + (f" ({len(hits)} results)" if len(hits) > 1 else ""))
    for rule in boot.forbid_results:
        hits = [r for r in log.results
                if fnmatchcase(r.name, rule.name) and r.status == rule.status]
        if hits:
            say(False, f"forbidden: result {rule.name} is {rule.status}: " +
                _short(f"{r.number} - {r.name}"
                       + (f" # SKIP {r.reason}" if r.reason else "")
                       for r in hits))
        else:
            say(True, f"no result {rule.name} is {rule.status}")


# The forms of a SKIP reason that say the test does not apply to this
# machine (docs/check.md, "Checks of every boot"; docs/log-format.md,
# "Results").  Any other reason is a failed check on every boot: a test
# that cannot run for a reason of the harness's own (no buffer it could
# have had, a setup that broke) must fail, not skip.  Matched from the
# reason's start.  The golden files' forbid_results stay stricter: an
# event "not modelled" is a form here, whether or not the model should
# have modelled it.
SKIP_REASONS = tuple(re.compile(p) for p in (
    # another generation's test, selected by its group (tests=p5/*), on a
    # CPU of another PMU kind
    r"kind=\S+: this CPU has no \S+ PMU$",
    # the smp/* tests: no second logical processor to run code on
    r"no sibling logical processor: ",
    # NetBurst's T1/thread-qualified bits: no Hyper-Threading, or (the
    # reserved-bits test) Hyper-Threading present, where they are legal
    r"no HT \(CPUID",
    r"Hyper-Threading present: ",
    # the CPU (its CPUID or capability row) lacks the feature
    r"no Intel PT: ",
    r"no MTC: CPUID",
    r"no PEBS: ",
    r"no DS area on this PMU: ",
    # the LBR tests: no LBRs (the Pentium), no filter register (before
    # Nehalem), legacy LBRs where the test is the architectural ones'
    # or a signature tests/lbr/lbr_sdm.c has no SDM row for
    r"no LBRs: ",
    r"no LBR filter: ",
    r"no architectural LBRs: ",
    r"LBR layout unknown: ",
    r"no LBR insert event: ",
    r"no usable local APIC: ",
    r"no fixed counter \d+: CPUID",
    r"[^:]+ unavailable: CPUID",
    r"BTS_OFF_OS / BTS_OFF_USR need CPL-qualified BTS, CPUID",
    r"RDPMC needs a Pentium with MMX technology",
    # the PEBS record format (or the DS layout) has no such record or
    # event: "PEBS format 4: ...", "format 0 (Core 2) has no ...", "the
    # 32-bit DS format (no DTES64 ...)"
    r"(PEBS )?format \d+[ :(]",
    r"the (32|64)-bit DS format ",
    # the architectural perfmon version lacks the feature
    r"needs architectural perfmon v\d+",
    r"AnyThread (needs v\d+|cannot be set on this PMU)",
    r"freeze on PMI came with v\d+",
    # an event the reference model does not model (what it cannot see in
    # the trace: caches, stalls, prediction ...), in words after the colon
    r"[^:]+ not modelled: ",
    # on a hardware path (backend=hw, emulated): what only the model can
    # change of the CPU (stand in for another PMU, clear a CPUID bit,
    # switch the PEBS record kind or format)
    r"standing in for another PMU needs the model",
    r".*; (clearing it|fault-like|the other kind) needs the model",
    r"this CPU reports PEBS format \d+; format \d+ needs the model",
    # the machine's memory: the firmware has less free than the
    # benchmark's least buffer ("pointer-chase: needs 8 MiB, 3 MiB free")
    r"[a-z0-9-]+: needs \d+ MiB, \d+ MiB free$",
    # no backend (capability row) for the CPU's PMU: the run is untested
    r"no backend for the \S+ PMU$",
    # a hang the watchdog could not stop (no watchdog, or a maskable one
    # with interrupts off): it would never end
    r"no watchdog: the hang would never end",
    r"the watchdog, a maskable interrupt, cannot stop a hang with "
    r"interrupts off",
))


def skip_reason_errors(results):
    """The SKIP results whose reason is none of SKIP_REASONS' forms, as
    "N - name # SKIP reason" strings."""
    return [f"{r.number} - {r.name} # SKIP {r.reason or ''}"
            for r in results if r.status == "skip"
            and not any(p.match(r.reason or "") for p in SKIP_REASONS)]


def _check_skip_reasons(log, say):
    """Every boot: a SKIP only says the test does not apply here."""
    skipped = sum(1 for r in log.results if r.status == "skip")
    bad = skip_reason_errors(log.results)
    say(not bad, f"skip reasons say the test does not apply ({skipped} "
        "skipped)" if not bad else "skip reasons not of a 'does not "
        f"apply' form (logcheck.SKIP_REASONS): " + _short(bad))


# What the "# console:" header of a BIOS boot says of the log file: a BIOS
# boot keeps no log file (boot/bios/console.c).
BIOS_LOGFILE = "none (BIOS boot)"


def _check_volume(boot, log, volume, serial_tap, say):
    mode = boot.volume_log
    if mode == "none":
        h = log.header("console")
        got = h.fields.get("logfile") if h is not None else None
        if got == BIOS_LOGFILE:
            say(True, f'console line says logfile="{BIOS_LOGFILE}"')
        else:
            say(False, f'console line says logfile={got!r}, expected '
                       f'"{BIOS_LOGFILE}" (a BIOS boot has no log file)')
        return
    if mode == "absent":
        if isinstance(volume, Missing) and volume.absent:
            say(True, f"no log file on the boot volume, as expected: "
                      f"{volume.why}")
        elif isinstance(volume, Missing):
            say(False, f"cannot tell whether the boot volume has a log "
                       f"file: {volume.why}")
        else:
            say(False, f"a log file is on the boot volume ({len(volume)} "
                       "bytes), expected none")
        return
    if isinstance(volume, Missing):
        say(False, f"no log file on the boot volume: {volume.why}")
        return
    if mode == "prefix":
        raw = volume if isinstance(volume, bytes) else volume.encode()
        tap = serial_tap if serial_tap is not None \
            else log.tap_text.encode("utf-8")
        ok, what = volumelog.check_prefix(raw, tap)
        say(ok, f"volume log is a prefix of the serial log: {what}" if ok
            else f"volume log is not a sound prefix of the serial log: "
                 f"{what}")
        return
    if isinstance(volume, bytes):
        volume = volume.decode("utf-8", errors="replace")
    if volume == log.tap_text:
        say(True, "volume log equals the serial log")
    else:
        vl = volume.split("\n")
        sl = log.tap_text.split("\n")
        n = next((i for i, (a, b) in enumerate(zip(vl, sl)) if a != b),
                 min(len(vl), len(sl)))
        say(False, f"volume log differs from the serial log at TAP line "
                   f"{n + 1}: volume {vl[n] if n < len(vl) else '(end)'!r}, "
                   f"serial {sl[n] if n < len(sl) else '(end)'!r}")
