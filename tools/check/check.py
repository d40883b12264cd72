"""check: `make check` (docs/check.md), the stage scheduler.

Runs the stages below, each with its output kept in build/check/STAGE.txt:

  build     the image, the floppy, the 32-bit ELF and a warm UEFI variable
            store from one short boot (make, in parallel)
  host      C unit tests of the pure-logic modules (tools/check/host-test.sh)
  bench     benchmark formulas single-stepped on the host
            (tests/host/bench/run.sh)
  layers    the source tree's layering rules (tools/check/layers.py)
  py        the host tools' own tests (tools/testing/run.py: every
            tools/*/tests/test_*.py)
  pt        Intel PT on the host: ptdecode against libipt on libipt-encoded
            random streams and on the model's streams of every benchmark,
            the model's timing against the trace, the fuzz target's smoke
            run (tools/check/pt.py)
  pfm       the event tables (P6, NetBurst, architectural, PEBS) against
            libpfm4's, x86_64 and i386 (tools/check/pfm.sh, tools/pfm/)
  matrix    the image booted under every entry of tools/check/matrix.yaml
            (tools/check/matrix.py)
  kill      QEMU killed with SIGKILL at 8 points of a run, the log file
            left on the boot volume checked each time
            (tools/check/kill.py)
  lab       the lab tools (tools/lab/pmu-harness parse, compare, junit,
            report in headless Chromium) and Perl's prove on every log
            the matrix and kill stages wrote (tools/check/lab.py)

Stages run side by side as soon as the stages they need have ended and
the machine has room: each stage has a weight (the processors it keeps
busy), and the stages running at once weigh at most CHECK_WEIGHT (default:
the processor count plus one, so that a stage waiting on I/O leaves no
processor idle).  A stage's output is printed whole when it ends, under a
"== title" line that says how long it took; "# started: ..." lines show
progress meanwhile.

Every "ok - ..." / "not ok - ..." line a stage prints counts; a stage whose
exit status disagrees with its lines, that prints none, that cannot run,
or whose needed stage failed counts as a failure too.  Before the last line
comes a table of the stages' wall times and the total; the last line is
"N passed, M failed"; the exit status is 0 only when M is 0 and N is not.

    python3 -m tools.check.check [STAGE...]
        (default: all; chosen stages run without the stages they need, on
        what those left behind; from the repository's root, as every
        tools.* module)
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import proctime

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "check"
PY = sys.executable


@dataclass(frozen=True)
class Stage:
    name: str
    argv: list
    kind: str           # "summary": one check from the exit status and
    #                     the last line; "lines": its own ok/not ok lines
    limit: int          # seconds, then it is killed with all it started
    title: str
    needs: tuple = ()   # stages that must have ended first
    weight: int = 1     # processors it keeps busy


def _make_argv():
    # The build in parallel, whatever make check itself was started with
    # (the parent make's jobserver is not passed on: see _stage_env).
    return ["make", "--no-print-directory", f"-j{os.cpu_count() or 1}",
            "all", "image", "floppy", "ovmf-vars"]


STAGES = (     # in the order they are started when several could be
    # Every boot waits for it; its weight (make -jN) leaves room for one
    # stage that needs no build beside it (bench, pt, pfm, host), which
    # uses the processor its links and its one OVMF boot leave idle.
    Stage("build", _make_argv(), "summary", 600,
          "build: the image, the floppy, the 32-bit ELF, a warm UEFI "
          "variable store", weight=os.cpu_count() or 1),
    Stage("layers", [PY, "-m", "tools.check.layers"], "lines", 120,
          "source layering", weight=0),
    # The boots first: the matrix is the longest stage.
    Stage("matrix", [PY, "-m", "tools.check.matrix", "--out", str(OUT)],
          "lines", 1800, "boot matrix", needs=("build",), weight=2),
    # One boot at a time, beside the matrix (a weight-1 stage): the lab
    # stage after the matrix is then all that is left at the end.
    Stage("kill", [PY, "-m", "tools.check.kill", "--out",
                   str(OUT / "kill"), "--jobs", "1"],
          "lines", 300, "SIGKILL during a run: the log file left behind",
          needs=("build",), weight=1),
    Stage("lab", [PY, "-m", "tools.check.lab", "--logs", str(OUT),
                  "--out", str(OUT / "lab")],
          "lines", 600, "lab tools and prove on every log of the matrix",
          needs=("matrix", "kill"), weight=2),
    Stage("bench", ["tests/host/bench/run.sh"], "summary", 900,
          "benchmark formulas on the host (ptrace)"),
    Stage("pt", [PY, "-m", "tools.check.pt", "--out", str(OUT / "pt")],
          "lines", 300,
          "Intel PT: decoder vs libipt, model streams, fuzz smoke"),
    Stage("pfm", ["tools/check/pfm.sh"], "lines", 300,
          "event tables vs libpfm4 (x86_64 and i386)"),
    Stage("py", [PY, "-m", "tools.testing.run"], "lines", 600,
          "host tool tests (Python)", needs=("build",)),
    # Compiles with make -jN but mostly runs one or two small binaries:
    # weight 1, so that it runs beside the boots, not after them.
    Stage("host", ["tools/check/host-test.sh"], "summary", 900,
          "host unit tests (cmocka)"),
)

OK_LINE = re.compile(r"^ok - ")
NOT_OK_LINE = re.compile(r"^not ok - ")


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def count(self, ok):
        if ok:
            self.passed += 1
        else:
            self.failed += 1


@dataclass
class Outcome:
    """What one stage printed and how it ended."""
    lines: list
    passed: int = 0
    failed: int = 0
    seconds: float = 0.0
    cpu: float = 0.0    # user + system seconds of the stage's processes

    def say(self, ok, text):
        self.lines.append(f"{'ok' if ok else 'not ok'} - {text}")
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def _stage_env():
    """The environment of a stage: make's own variables left out, so that
    a make a stage runs is not tied to the jobserver of the make that ran
    check.py."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    return env


def run_stage(stage):
    """Runs one stage to its end; returns its Outcome."""
    out = Outcome(lines=[])
    start = time.monotonic()
    try:
        _run(stage, out)
    finally:
        out.seconds = time.monotonic() - start
    return out


def _run(stage, res):
    out_path = OUT / f"{stage.name}.txt"
    n_ok = n_bad = 0
    lines = []
    killed = []
    try:
        with open(out_path, "w", encoding="utf-8", errors="replace") as out:
            proc = subprocess.Popen(stage.argv, cwd=ROOT,
                                    stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True,
                                    errors="replace", env=_stage_env(),
                                    start_new_session=True)

            def kill():         # the stage and everything it started
                killed.append(1)
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
            timer = threading.Timer(stage.limit, kill)
            timer.start()
            try:
                for line in proc.stdout:
                    out.write(line)
                    line = line.rstrip("\n")
                    lines.append(line)
                    if stage.kind == "lines":
                        if OK_LINE.match(line):
                            n_ok += 1
                            res.passed += 1
                        elif NOT_OK_LINE.match(line):
                            n_bad += 1
                            res.failed += 1
                        res.lines.append(line)
                rc, res.cpu = proctime.wait_cpu(proc)
            finally:
                timer.cancel()
    except OSError as e:
        res.say(False, f"{stage.name}: could not run {stage.argv[0]}: {e}")
        return
    if killed:
        res.say(False, f"{stage.name}: killed after its {stage.limit} s "
                       "limit")
        return
    last = next((l for l in reversed(lines) if l.strip()), "(no output)")
    if stage.kind == "summary":
        if rc != 0:
            res.lines += [f"# {line}" for line in lines[-40:]]
        res.say(rc == 0, f"{stage.name}: {last}"
                + ("" if rc == 0 else f" (exit status {rc})"))
        return
    if rc != 0 and n_bad == 0:
        res.say(False, f"{stage.name}: exit status {rc} but no check "
                       f"failed: {last}")
    elif rc == 0 and n_bad:
        res.say(False, f"{stage.name}: exit status 0 but {n_bad} check(s) "
                       "failed")
    elif n_ok + n_bad == 0:
        res.say(False, f"{stage.name}: reported no checks: {last}")


def weight_limit():
    v = os.environ.get("CHECK_WEIGHT", "")
    if v.isdigit() and int(v) > 0:
        return int(v)
    return (os.cpu_count() or 1) + 1


class Scheduler:
    """Starts each chosen stage once the stages it needs have ended and
    its weight fits; prints each stage's output whole when it ends."""

    def __init__(self, stages, limit, tally):
        self.todo = list(stages)
        self.chosen = {s.name for s in stages}
        self.kinds = {s.name: s.kind for s in stages}
        self.limit = limit
        self.tally = tally
        self.running = {}           # name -> Stage
        self.done = {}              # name -> Outcome
        self.cond = threading.Condition()

    def _blocked_by(self, stage):
        """A needed stage that failed and reports by its exit status (the
        build: then the stage is not run), or None.  A stage that needs
        one with lines of its own (the lab needs the matrix) runs on
        whatever that one left, passed or failed."""
        for n in stage.needs:
            o = self.done.get(n)
            if o is not None and o.failed and self.kinds.get(n) == "summary":
                return n
        return None

    def _ready(self, stage):
        return all(n in self.done or n not in self.chosen
                   for n in stage.needs)

    def _start(self, stage):
        self.running[stage.name] = stage
        print(f"# started: {stage.name}", flush=True)

        def work():
            try:
                res = run_stage(stage)
            except Exception as e:      # noqa: BLE001 - reported
                res = Outcome(lines=[])
                res.say(False, f"{stage.name}: check.py failed: {e!r}")
            with self.cond:
                self._finish(stage, res)
        threading.Thread(target=work, daemon=True).start()

    def _finish(self, stage, res):
        del self.running[stage.name]
        self.done[stage.name] = res
        print(f"== {stage.title} ({res.seconds:.0f} s, cpu {res.cpu:.0f} s)",
              flush=True)
        for line in res.lines:
            print(line, flush=True)
        self.tally.passed += res.passed
        self.tally.failed += res.failed
        self.cond.notify_all()

    def _skip(self, stage, why):
        res = Outcome(lines=[])
        res.say(False, f"{stage.name}: not run: stage {why} failed")
        self.done[stage.name] = res
        print(f"== {stage.title} (not run)", flush=True)
        print(res.lines[0], flush=True)
        self.tally.count(False)

    def run(self):
        with self.cond:
            while self.todo or self.running:
                for stage in list(self.todo):
                    if not self._ready(stage):
                        continue
                    why = self._blocked_by(stage)
                    if why:
                        self.todo.remove(stage)
                        self._skip(stage, why)
                        continue
                    busy = sum(s.weight for s in self.running.values())
                    # A stage heavier than the limit still runs, alone.
                    if self.running and busy + stage.weight > self.limit:
                        continue
                    self.todo.remove(stage)
                    self._start(stage)
                if self.running:
                    self.cond.wait()
                elif self.todo and not any(self._ready(s)
                                           for s in self.todo):
                    for stage in self.todo:     # cannot happen: a cycle
                        self._skip(stage, "(a cycle)")
                    self.todo = []
        return self.done


def print_times(stages, done, total):
    print("# stage times (wall, and CPU: user + system):", flush=True)
    for s in stages:
        o = done.get(s.name)
        if o is not None:
            print(f"#   {s.name:<8} {o.seconds:6.1f} s  cpu {o.cpu:6.1f} s",
                  flush=True)
    cpu = sum(o.cpu for o in done.values())
    print(f"#   {'total':<8} {total:6.1f} s  cpu {cpu:6.1f} s", flush=True)


def main(argv):
    names = [s.name for s in STAGES]
    want = argv[1:] or names
    bad = [w for w in want if w not in names]
    if bad:
        print(f"check: unknown stage {', '.join(bad)} (stages: "
              f"{', '.join(names)})", file=sys.stderr)
        return 2
    if want == names:
        shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    chosen = [s for s in STAGES if s.name in want]
    start = time.monotonic()
    done = Scheduler(chosen, weight_limit(), tally).run()
    print()
    print_times(chosen, done, time.monotonic() - start)
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 and tally.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
