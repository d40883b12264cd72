"""kill_check: SIGKILL QEMU in the middle of a run and check the log file
the harness left on the boot volume (docs/check.md, stage `kill`).

    python3 -m tools.check.kill [--image IMG] [--out DIR] [--jobs N]
        [POINT...]

Boots the image once per kill point through tools/boot/qemu-boot.sh (--pidfile,
--keep), watches the serial capture, and kills QEMU with SIGKILL at the
point: right after the k-th result line reached the serial port, or a
fixed time after "TAP version 13" did.  A kill lands wherever the guest
happens to be, also inside a FAT write or flush, as a power cut would.
Then \\pmu-harness\\*.log is read from the kept disk (mtools) and must be
sound (tools/check/volumelog.py): no NUL byte, empty or ending in "\\n", a byte
prefix of the serial TAP text; and lose no more than the flush rule allows
(boot/logflush.h: a flush at most every 250 ms of run time, at once after
a failure and before a risky test): the results missing from the file,
but for the last one before the kill (the test whose flush may have been
cut), reached the serial port within LOSS_BOUND_S of each other.

Prints one "ok - kill: point N (...): what" / "not ok - kill: ..." line per
kill point; exits 1 when one failed.  POINT numbers (1-based) restrict the
run.  Per point, DIR (default build/check/kill) keeps pointN.log (serial),
pointN.volume.log (the volume's log file) and pointN.stderr.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from . import matrix as check_matrix
from . import volumelog

ROOT = Path(__file__).resolve().parents[2]
QEMU_BOOT = ROOT / "tools" / "boot" / "qemu-boot.sh"
# Several dozen short tests that write a "# running" line, a result and a
# YAML block each (verbose=1), the log file flushed every 250 ms of run
# time, and three failures by design (selftest/*), each flushed at once.
CPU = "Skylake-Client"
OPTIONS = "tests=arch/*,trace/*,apic/*,perfmon/*,selftest/* verbose=1"
# Short tests, then one that passes after 1.5 s of work
# (selftest-slow/spin-1500ms), then short ones again: killed right after
# the second result behind the slow one, a file flushed only at failures
# and at the end has lost every result since the header, spanning the
# 1.5 s at least, however fast the host; the flush rule lost only what
# came since the flush after the slow test.
SLOW_TEST = b"selftest-slow/spin-1500ms"
SLOW_OPTIONS = "tests=apic/*,perfmon/*,selftest-slow/*,trace/* verbose=1"
# The results a cut may lose, but for the last one (its flush may have
# been cut, or was not due: boot/logflush.h), reached the serial port
# within this many seconds of each other: the flush interval, 250 ms of
# run time, with room for the host's scheduling ("about a second",
# issue 30).  A file flushed only at failures and at the end loses the
# whole run before the kill.
LOSS_BOUND_S = 1.0
BOOT_LIMIT = 60         # qemu-boot.sh --timeout for one boot (s)
WRITE_IOPS = 20         # qemu-boot.sh --write-iops: a slow medium
POLL = 0.0005           # how often the serial capture is read (s)
RESULT = re.compile(rb"(?:not )?ok [0-9]+ ")
FAILED = re.compile(rb"not ok [0-9]+ ")
YAML_END = b"  ..."     # the last line a test writes before its flush


# A test that hangs (stopped only at timeout=60, long after the kill):
# with verbose=1 its "# running" line must be on the volume before it
# starts, so a machine that dies in a hang shows the test in flight.
HANG_OPTIONS = "tests=selftest-hang/cpl0-irq-off verbose=1"
HANG_RUNNING = b"# running selftest-hang/cpl0-irq-off: "


@dataclass
class Point:
    """Kill `delay` seconds after the count-th line of a kind reached the
    serial port: "result" (a result line), "yaml" (a YAML block's closing
    "  ...", the last line a test writes), "fail" (the closing "  ..." of
    a failed test's block, after which runner_run flushes the log file at
    once), "running" (a "# running" line of verbose=1) or "tap" ("TAP
    version 13"; count unused); with `after` (a test's name), "result"
    counts the result lines behind that test's.  The boot runs with `options`; the volume
    log must also contain `must_hold` (when not empty)."""
    event: str
    count: int = 0
    delay: float = 0.0
    options: str = OPTIONS
    must_hold: bytes = b""
    after: bytes = b""

    def __str__(self):
        behind = f" behind {self.after.decode()}'s" if self.after else ""
        what = {"result": f"result {self.count}{behind}",
                "yaml": f"YAML block {self.count} closed",
                "fail": f"failed test {self.count}'s YAML block closed",
                "running": f"'# running' line {self.count}",
                "tap": "TAP version 13"}[self.event]
        if not self.delay:
            return f"right after {what}"
        return f"{self.delay * 1000:g} ms after {what}"


# With the disk's writes WRITE_IOPS a second, a flush writes the directory
# entry and then the data, 1/WRITE_IOPS s apart; about 45-90 ms after a
# failed test's YAML block closed (flushed at once) the kill falls
# between the two.
FLUSH_GAP = 0.065
POINTS = (Point("result", 1), Point("fail", 1, FLUSH_GAP),
          Point("fail", 2, FLUSH_GAP), Point("fail", 3, FLUSH_GAP),
          Point("tap", delay=0.35),
          # the run lasts past the kill: with its 1.5 s test (the default
          # selection took 605 ms of run time on a quiet machine, and QEMU
          # had exited before a kill 800 ms after the TAP line)
          Point("tap", delay=0.8, options=SLOW_OPTIONS),
          Point("result", 2, options=SLOW_OPTIONS, after=SLOW_TEST),
          Point("running", 1, 1.5, HANG_OPTIONS, HANG_RUNNING))


@dataclass
class Outcome:
    ok: bool
    what: str


class Watch:
    """Follows a growing serial capture: when "TAP version 13" came, and
    when each result line and each closed YAML block after it (whole
    lines only)."""

    def __init__(self, path):
        self.path = path
        self.fd = None
        self.data = b""
        self.scanned = 0        # offset up to which lines were counted
        self.seen = {"tap": [], "result": [], "yaml": [], "fail": [],
                     "running": []}     # monotonic times
        self.failed = False     # the last result line was "not ok"
        self.names = {}         # test name: its result's index in seen

    def poll(self):
        if self.fd is None:
            try:
                self.fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return
        grew = False
        while True:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                break
            self.data += chunk
            grew = True
        if grew:
            self._scan(time.monotonic())

    def _scan(self, now):
        if not self.seen["tap"]:
            at = self.data.find(volumelog.TAP_VERSION)
            if at < 0:
                return
            self.seen["tap"].append(now)
            self.scanned = at
        end = self.data.rfind(b"\n") + 1
        for line in self.data[self.scanned:end].split(b"\n"):
            line = line.rstrip(b"\r")
            if RESULT.match(line):
                name = line.split(b" - ", 1)[-1].split(b" # ", 1)[0]
                self.names.setdefault(name, len(self.seen["result"]))
                self.seen["result"].append(now)
                self.failed = bool(FAILED.match(line))
            elif line == YAML_END:
                self.seen["yaml"].append(now)
                if self.failed:
                    self.seen["fail"].append(now)
            elif line.startswith(b"# running "):
                self.seen["running"].append(now)
        self.scanned = max(self.scanned, end)

    def due(self, point):
        times = self.seen[point.event]
        n = max(point.count, 1)
        if point.after:
            if point.after not in self.names:
                return False
            n += self.names[point.after] + 1
        return len(times) >= n and \
            time.monotonic() - times[n - 1] >= point.delay

    def close(self):
        if self.fd is not None:
            os.close(self.fd)


def kill_qemu(pidfile):
    """SIGKILLs the QEMU whose process id is in pidfile.  Returns None, or
    why it could not."""
    try:
        pid = int(Path(pidfile).read_text().strip())
    except (OSError, ValueError) as e:
        return f"no QEMU process id in {pidfile}: {e}"
    try:
        # the process id must still be QEMU's, not one reused since
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return f"QEMU (pid {pid}) is gone"
    if not comm.startswith("qemu-system"):
        return f"pid {pid} is {comm!r}, not QEMU"
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as e:
        return f"kill {pid}: {e}"
    return None


def loss_span(result_times, kept):
    """Seconds between the first and the last-but-one result a cut lost:
    result_times are the serial arrival times of the results seen before
    the kill, kept how many of them the file holds.  The last lost result
    is left out (its flush may be the one cut, or was not yet due); the
    ones before it were held back only while the flush interval ran, so
    they span less than it.  0 when fewer than two were lost."""
    lost = result_times[kept:]
    return lost[-2] - lost[0] if len(lost) >= 2 else 0.0


def judge(serial: bytes, volume, killed_why, must_hold=b"",
          result_times=None):
    """The outcome of one kill point from the serial capture, the volume's
    log file (bytes, or a check_matrix Missing) and kill_qemu's answer;
    result_times (the serial arrival times of the results before the
    kill) also checks the loss against LOSS_BOUND_S."""
    if killed_why:
        return Outcome(False, f"not killed: {killed_why}")
    tap = volumelog.serial_tap(serial)
    results = sum(1 for l in (tap or b"").split(b"\n") if RESULT.match(l))
    if not isinstance(volume, bytes):
        return Outcome(False, f"no log file after {results} results on "
                              f"serial: {volume.why}")
    ok, what = volumelog.check_prefix(volume, tap)
    if ok and result_times is not None:
        kept = sum(1 for l in volume.split(b"\n") if RESULT.match(l))
        span = loss_span(result_times, kept)
        lost = max(len(result_times) - kept, 0)
        what += f"; lost {lost} results" + (
            f", the first {span * 1000:.0f} ms before the last but one"
            if lost >= 2 else "")
        if span > LOSS_BOUND_S:
            return Outcome(False, f"killed after {results} results on "
                                  f"serial; log file: {what}: more than "
                                  f"{LOSS_BOUND_S * 1000:g} ms of results")
    if ok and must_hold and must_hold not in volume:
        return Outcome(False, f"killed after {results} results on serial; "
                              f"log file: {what}, but without "
                              f"{must_hold.decode(errors='replace')!r}")
    return Outcome(ok, f"killed after {results} results on serial; log "
                       f"file: {what}")


def machine_args(vars_file):
    """qemu-boot.sh's machine flags of every kill boot."""
    argv = ["--write-iops", str(WRITE_IOPS)]
    return argv + (["--vars", str(vars_file)] if vars_file else [])


def run_point(n, point, image, out, vars_file=None, snapshot=None):
    """Boots, kills at point, checks.  Returns an Outcome.  vars_file: a
    warm UEFI variable store to start from (qemu-boot.sh --vars);
    snapshot: a firmware snapshot to start from (--snapshot)."""
    base = out / f"point{n}"
    disk = out / f"point{n}.disk"
    pidfile = out / f"point{n}.pid"
    for suffix in (".log", ".volume.log", ".stderr"):
        Path(f"{base}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(disk, ignore_errors=True)
    argv = [str(QEMU_BOOT), "--image", str(image), "--cpu", CPU,
            "--args", point.options, "--log", f"{base}.log",
            "--timeout", str(BOOT_LIMIT), "--keep", str(disk),
            "--pidfile", str(pidfile), *machine_args(vars_file)]
    if snapshot:
        argv += ["--snapshot", str(snapshot)]
    watch = Watch(f"{base}.log")
    killed_why = "the run ended before the kill point"
    result_times = None
    with open(f"{base}.stderr", "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err,
                                stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + BOOT_LIMIT + 30
            while proc.poll() is None and time.monotonic() < deadline:
                watch.poll()
                if watch.due(point):
                    killed_why = kill_qemu(pidfile)
                    result_times = list(watch.seen["result"])
                    break
                time.sleep(POLL)
            try:
                status = proc.wait(timeout=BOOT_LIMIT + 30)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
                killed_why = "qemu-boot.sh did not return"
        finally:
            watch.close()
    if killed_why is None and status != 124:
        killed_why = f"qemu-boot.sh exited {status}, not 124 (killed)"
    try:
        serial = Path(f"{base}.log").read_bytes()
    except OSError:
        serial = b""
    image_copy = disk / "disk.img"
    if image_copy.exists():
        dest = Path(f"{base}.volume.log")
        missing = check_matrix.volume_log(image_copy, dest)
        volume = missing or dest.read_bytes()
    else:
        volume = check_matrix.logcheck.Missing("the boot left no disk image")
    shutil.rmtree(disk, ignore_errors=True)
    pidfile.unlink(missing_ok=True)     # QEMU leaves it when killed
    return judge(serial, volume, killed_why, point.must_hold, result_times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--image", default=str(ROOT / "build" / "pmu-harness.img"))
    ap.add_argument("--out", default=str(ROOT / "build" / "check" / "kill"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vars", default=str(ROOT / "build" / "ovmf-vars.fd"),
                    help="warm UEFI variable store (make ovmf-vars); "
                         "Debian's empty one when the file is missing")
    ap.add_argument("points", nargs="*", type=int, metavar="POINT")
    a = ap.parse_args(argv)
    image, out = Path(a.image), Path(a.out)
    chosen = a.points or list(range(1, len(POINTS) + 1))
    bad = [p for p in chosen if not 1 <= p <= len(POINTS)]
    if bad or a.jobs < 1:
        print(f"not ok - kill: no such kill point {bad} (1..{len(POINTS)})"
              if bad else f"not ok - kill: --jobs {a.jobs}", flush=True)
        return 1
    if not image.is_file():
        print(f"not ok - kill: no image {image} (make image)", flush=True)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    vars_file = Path(a.vars) if Path(a.vars).is_file() else None
    opts = sorted({POINTS[n - 1].options for n in chosen})
    print(f"# kill: {len(chosen)} boots of {CPU} with "
          f"{' or '.join(repr(o) for o in opts)}, "
          f"{a.jobs} at a time, UEFI variables "
          f"{vars_file or 'empty (no warm store)'}", flush=True)
    failed = bad_points = 0
    snapshot = None
    if len(chosen) >= 2 and os.environ.get("SNAPSHOTS", "1") != "0":
        # One firmware snapshot for all the boots (docs/check.md,
        # "Firmware snapshots"): they share one machine.
        snapshot = out / "firmware.state"
        snapshot.unlink(missing_ok=True)
        snapshot.with_suffix(".stderr").unlink(missing_ok=True)
        ok, text = check_matrix.save_snapshot(image, CPU,
                                              machine_args(vars_file),
                                              snapshot, BOOT_LIMIT,
                                              "console")
        print(f"{'ok' if ok else 'not ok'} - kill: firmware snapshot "
              f"({text})", flush=True)
        failed += not ok
        if not ok:
            snapshot = None
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        outcomes = pool.map(
            lambda n: run_point(n, POINTS[n - 1], image, out, vars_file,
                                snapshot),
            chosen)
        for n, o in zip(chosen, outcomes):
            bad_points += not o.ok
            print(f"{'ok' if o.ok else 'not ok'} - kill: point {n} "
                  f"({POINTS[n - 1]}): {o.what}", flush=True)
    print(f"# kill: {len(chosen) - bad_points} of {len(chosen)} kill "
          "points left a sound log file")
    failed += bad_points
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
