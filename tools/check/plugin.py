"""plugin: what makes `make check`'s pytest run one run (docs/check.md),
loaded by pytest.ini's `-p tools.check.plugin` in the main process and
in every pytest-xdist worker.

- The run's id (tools/check/suite/once.py): set once, before the workers
  start, so that they share the build, the snapshots and the boots.
- The order tests start in: the build, then the tests that need no build
  (they run beside it), the Bochs boots (the longest), the other boots,
  the SIGKILL points, the lab tools (they read every log: their worker
  waits for the last boots), then the host tools' own tests, which fill
  the other workers meanwhile

- pytest-xdist hands each worker one test at a time (and the next one it
  will run), so that no worker holds a queue of boots while another
  idles: `Queue`, the scheduler of `--dist load` given two tests per
  worker at most.
- The host tools' own tests (tools/*/tests/) start after the build (some
  run make, make run among them, on the build's own files).
- No SKIP: a skipped test fails (the harness's checks must all run).
- The per-stage times at the end: per stage (a suite module, or "py"
  for the host tools' own tests), the wall time from its first test's
  start to its last one's end, the tests' summed time, their CPU (with
  the processes they ran), and the checks the tests counted inside them
  (a boot's log checks, a checker's ok lines); build/check/timeline.txt
  has each test's worker, start and end.
"""

import os
import resource
import shutil
import time
from pathlib import Path

import pytest

from tools.check.suite import once

ROOT = Path(__file__).resolve().parents[2]
SUITE = "tools/check/suite/"

# Lower first; a stage not named here starts with the boots.
ORDER = ("build", "host", "pfm", "pt", "bench", "layers", "table",
         "snapshot", "boots-bochs", "boots", "kill", "lab", "py")


def stage_of(nodeid):
    """The stage a test belongs to: its suite module's name without test_
    (tools/check/suite/test_pt.py -> pt), "py" for a host tool's own
    test (tools/*/tests/), "other" for a test of neither."""
    path = nodeid.split("::", 1)[0]
    if path.startswith(SUITE):
        return Path(path).stem.removeprefix("test_")
    parts = Path(path).parts
    if len(parts) >= 3 and parts[0] == "tools" and parts[2] == "tests":
        return "py"
    return "other"


def needs_build(nodeid):
    return stage_of(nodeid) == "py"


def order_key(item):
    stage = stage_of(item.nodeid)
    name = item.name
    if stage == "boots":
        if name.startswith("test_boot_table"):
            stage = "table"
        elif name.startswith("test_firmware_snapshot"):
            stage = "snapshot"
        elif getattr(item, "callspec", None) and \
                str(item.callspec.params.get("boot_kind", "")) \
                .startswith("bochs-"):
            stage = "boots-bochs"
    return ORDER.index(stage) if stage in ORDER else ORDER.index("boots")


def pytest_configure(config):
    if not hasattr(config, "workerinput") and \
            not os.environ.get(once.RUN_ENV):
        os.environ[once.RUN_ENV] = f"{time.time_ns()}-{os.getpid()}"
        # The values of earlier runs, never read again.
        for old in once.RUN_DIR.glob("*") if once.RUN_DIR.is_dir() else ():
            if old.name != os.environ[once.RUN_ENV]:
                shutil.rmtree(old, ignore_errors=True)


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=order_key)       # stable: files' own order kept


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if needs_build(item.nodeid):
        from tools.check.suite import build
        build.require()


def _cpu_seconds():
    """User + system CPU of this process and of the children it waited
    for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    start = _cpu_seconds()
    yield
    item.user_properties.append(("cpu", _cpu_seconds() - start))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.user_properties.append(("span", (call.when, call.start,
                                            call.stop)))
    report.user_properties.append(("worker", os.environ.get(
        "PYTEST_XDIST_WORKER", "main")))
    if report.skipped and not hasattr(report, "wasxfail"):
        why = report.longrepr[2] if isinstance(report.longrepr, tuple) \
            else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, and make check allows no skip: {why}"


class StageTimes:
    """Per stage: first start, last end, summed durations, checks; and
    every test's worker, start and end (the timeline)."""

    def __init__(self):
        self.stages = {}
        self.timeline = []

    def add(self, report):
        # One span per phase (a test may wait in its setup: the build);
        # its checks and CPU on the call's report.
        props = dict(report.user_properties)
        st = self.stages.setdefault(stage_of(report.nodeid),
                                    {"start": None, "stop": None, "sum": 0.0,
                                     "cpu": 0.0, "tests": 0, "checks": 0})
        st["sum"] += report.duration
        if "span" in props:
            _, start, stop = props["span"]
            st["start"] = start if st["start"] is None \
                else min(st["start"], start)
            st["stop"] = stop if st["stop"] is None else max(st["stop"], stop)
        if report.when != "call":
            return
        st["tests"] += 1
        st["checks"] += int(props.get("checks", 0))
        st["cpu"] += float(props.get("cpu", 0.0))
        if "span" in props:
            self.timeline.append((start, stop, props.get("worker", "?"),
                                  report.nodeid))

    def lines(self, wall):
        out = ["stage times (wall: first start to last end; the tests' "
               "summed time; their CPU, user + system, with the processes "
               "they ran; tests; checks inside them):"]
        for name in sorted(self.stages, key=lambda n: self.stages[n]["start"]
                           or 0):
            st = self.stages[name]
            span = (st["stop"] or 0) - (st["start"] or 0)
            out.append(f"  {name:<8} {span:7.1f} s  sum {st['sum']:7.1f} s  "
                       f"cpu {st['cpu']:7.1f} s  {st['tests']:5d} tests  "
                       f"{st['checks']:5d} checks")
        total = sum(s["sum"] for s in self.stages.values())
        cpu = sum(s["cpu"] for s in self.stages.values())
        checks = sum(s["checks"] for s in self.stages.values())
        out.append(f"  {'total':<8} {wall:7.1f} s  sum {total:7.1f} s  "
                   f"cpu {cpu:7.1f} s  {'':11} {checks:5d} checks")
        return out


_times = StageTimes()
_started = time.monotonic()


def pytest_runtest_logreport(report):
    _times.add(report)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput") or not _times.stages:
        return
    terminalreporter.section("make check: stage times")
    for line in _times.lines(time.monotonic() - _started):
        terminalreporter.write_line(line)
    _write_timeline(_times.timeline)


def _write_timeline(timeline):
    """build/check/timeline.txt: one line per test, by start: seconds from
    the first start to its start and end, its worker, its id (where a
    run's time went)."""
    if not timeline:
        return
    t0 = min(t[0] for t in timeline)
    try:
        once.OUT.mkdir(parents=True, exist_ok=True)
        with open(once.OUT / "timeline.txt", "w") as f:
            for start, stop, worker, nodeid in sorted(timeline):
                f.write(f"{start - t0:8.2f} {stop - t0:8.2f} {worker:>5} "
                        f"{nodeid}\n")
    except OSError:
        pass


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None
    from tools.check.queue import Queue
    return Queue(config, log)
