"""once: what one make check run does once for all its pytest-xdist
workers (the build, a firmware snapshot, a boot), whichever asks first.

    value = once.run("boot-p54c", produce)

produce() runs in the first worker to ask, under a file lock; the others
wait on the lock and get the value it returned (JSON data), read from
the run's directory.  A worker that dies inside produce() releases the
lock and leaves no value: the next one to ask produces it again.  Nothing
here waits on anything but the lock's holder, which waits only on values
produced before it (the build before a boot, a snapshot before its
boots), so no two workers can wait on each other.

The run's directory is RUN_DIR/<run id>; the run id is PMU_CHECK_RUN in
the environment, which tools/check/plugin.py sets in the process that
starts the workers (they inherit it), so that a second run never reads
the first one's values.
"""

import contextlib
import fcntl
import json
import os
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "build" / "check"
RUN_DIR = OUT / ".once"
RUN_ENV = "PMU_CHECK_RUN"

_KEY = re.compile(r"^[A-Za-z0-9._-]+$")


def run_dir():
    run = os.environ.get(RUN_ENV) or f"pid{os.getpid()}"
    d = RUN_DIR / run
    d.mkdir(parents=True, exist_ok=True)
    return d


def done(key):
    """Whether key's value has been produced in this run."""
    return (run_dir() / f"{key}.json").is_file()


@contextlib.contextmanager
def slot(name, until_done, poll=0.2):
    """Held by one process at a time, or by any number once until_done's
    value has been produced: the work that runs beside the build (one of
    it at a time until the build has ended)."""
    path = run_dir() / f"{name}.slot"
    with open(path, "w") as f:
        while not done(until_done):
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                time.sleep(poll)
                continue
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)
            return
        yield


def run(key, produce):
    """produce()'s value, produced once per run (see the module's text).
    key names the value: letters, digits, '.', '_', '-'.  An exception in
    produce() is not kept: it propagates, and the next caller tries
    again."""
    if not _KEY.match(key):
        raise ValueError(f"once: bad key {key!r}")
    d = run_dir()
    done = d / f"{key}.json"
    with open(d / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return json.loads(done.read_text())
        except (OSError, ValueError):
            pass
        value = produce()
        tmp = d / f"{key}.json.tmp"
        tmp.write_text(json.dumps(value))
        os.replace(tmp, done)
        return value
