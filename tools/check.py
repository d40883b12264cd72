#!/usr/bin/env python3
"""check: `make check` (docs/check.md).

Runs the stages in turn, each with its output kept in build/check/STAGE.txt:

  host      C unit tests of the pure-logic modules (tools/host-test.sh)
  bench     benchmark formulas single-stepped on the host
            (tests/host/bench/run.sh)
  layers    the source tree's layering rules (tools/check-layers.py)
  py        the host tools' own tests (tests/host/py/run.py)
  pt        Intel PT on the host: ptdecode against libipt on libipt-encoded
            random streams and on the model's streams of every benchmark,
            the model's timing against the trace, the fuzz target's smoke
            run (tools/pt_check.py)
  matrix    the image booted under every entry of tools/matrix.yaml
            (tools/check_matrix.py)
  kill      QEMU killed with SIGKILL at 8 points of a run, the log file
            left on the boot volume checked each time (tools/kill_check.py)
  lab       the lab tools (tools/pmu-harness parse, compare, junit,
            report in headless Chromium) and Perl's prove on every log
            the matrix and kill stages wrote (tools/lab_check.py)

Every "ok - ..." / "not ok - ..." line a stage prints counts; a stage whose
exit status disagrees with its lines, that prints none, or that cannot run
counts as a failure too.  The last line is "N passed, M failed"; the exit
status is 0 only when M is 0 and N is not.

    check.py [STAGE...]      (default: all, in the order above)
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "check"
PY = sys.executable

# name, argv, kind, time limit (s).  "summary" stages report by exit
# status (one check, the output's last line); "lines" stages print their
# own ok / not ok lines.
STAGES = (
    ("host", ["tools/host-test.sh"], "summary", 900,
     "host unit tests (cmocka)"),
    ("bench", ["tests/host/bench/run.sh"], "summary", 900,
     "benchmark formulas on the host (ptrace)"),
    ("layers", [PY, "tools/check-layers.py"], "lines", 120,
     "source layering"),
    ("py", [PY, "tests/host/py/run.py"], "lines", 600,
     "host tool tests (Python)"),
    ("pt", [PY, "tools/pt_check.py", "--out", str(OUT / "pt")], "lines",
     300, "Intel PT: decoder vs libipt, model streams, fuzz smoke"),
    ("matrix", [PY, "tools/check_matrix.py", "--out", str(OUT)], "lines",
     1800, "boot matrix"),
    ("kill", [PY, "tools/kill_check.py", "--out", str(OUT / "kill")],
     "lines", 300, "SIGKILL during a run: the log file left behind"),
    ("lab", [PY, "tools/lab_check.py", "--logs", str(OUT),
             "--out", str(OUT / "lab")],
     "lines", 600, "lab tools and prove on every log of the matrix"),
)

OK_LINE = re.compile(r"^ok - ")
NOT_OK_LINE = re.compile(r"^not ok - ")


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def say(self, ok, text):
        print(f"{'ok' if ok else 'not ok'} - {text}", flush=True)
        self.count(ok)

    def count(self, ok):
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run_stage(tally, name, argv, kind, limit, title):
    print(f"== {title}", flush=True)
    out_path = OUT / f"{name}.txt"
    n_ok = n_bad = 0
    lines = []
    killed = []
    try:
        with open(out_path, "w", encoding="utf-8", errors="replace") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True,
                                    errors="replace", start_new_session=True)

            def kill():         # the stage and everything it started
                killed.append(1)
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
            timer = threading.Timer(limit, kill)
            timer.start()
            try:
                for line in proc.stdout:
                    out.write(line)
                    line = line.rstrip("\n")
                    lines.append(line)
                    if kind == "lines":
                        if OK_LINE.match(line):
                            n_ok += 1
                            tally.count(True)
                        elif NOT_OK_LINE.match(line):
                            n_bad += 1
                            tally.count(False)
                        print(line, flush=True)
                rc = proc.wait()
            finally:
                timer.cancel()
    except OSError as e:
        tally.say(False, f"{name}: could not run {argv[0]}: {e}")
        return
    if killed:
        tally.say(False, f"{name}: killed after its {limit} s limit")
        return
    last = next((l for l in reversed(lines) if l.strip()), "(no output)")
    if kind == "summary":
        if rc != 0:
            for line in lines[-40:]:
                print(f"# {line}")
        tally.say(rc == 0, f"{name}: {last}"
                  + ("" if rc == 0 else f" (exit status {rc})"))
        return
    if rc != 0 and n_bad == 0:
        tally.say(False, f"{name}: exit status {rc} but no check failed: "
                         f"{last}")
    elif rc == 0 and n_bad:
        tally.say(False, f"{name}: exit status 0 but {n_bad} check(s) "
                         "failed")
    elif n_ok + n_bad == 0:
        tally.say(False, f"{name}: reported no checks: {last}")


def main(argv):
    names = [s[0] for s in STAGES]
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
    for stage in STAGES:
        if stage[0] in want:
            run_stage(tally, *stage)
    print()
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 and tally.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
