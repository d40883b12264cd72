"""runner: a command of make check (make, a boot script, a checker that
prints "ok - ..." / "not ok - ..." lines) run to its end, and the
verdict a test draws from it.

    ran = runner.run(argv, "pt", limit=300)
    runner.judge_lines(ran)       # None, or why the test fails
    runner.judge_status(ran)

A command runs from the repository's root in a process group of its own,
without make's jobserver variables, its output kept whole in
build/check/NAME.txt; past limit seconds the group is killed.
"""

import os
import re
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import once
from .once import OUT, ROOT

OK = re.compile(r"^ok - ")
NOT_OK = re.compile(r"^not ok - ")


@dataclass
class Ran:
    argv: list
    path: Path                  # where its output is kept
    status: int = None          # None: it could not be started
    killed: bool = False
    lines: list = field(default_factory=list)
    why: str = ""               # OSError's text when not started

    @property
    def oks(self):
        return [l for l in self.lines if OK.match(l)]

    @property
    def not_oks(self):
        return [l for l in self.lines if NOT_OK.match(l)]

    def last(self):
        return next((l for l in reversed(self.lines) if l.strip()),
                    "(no output)")


def clean_env(extra=None):
    """The environment of a command: make's own variables left out, so
    that a make it runs is not tied to the jobserver of a make above it."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    env.update(extra or {})
    return env


# What needs no build (host, pt, pfm, bench) runs beside it, but one
# command at a time while it lasts, at this niceness: every boot waits
# for the build, so it comes first when the processors are short
# (make -jN keeps them all busy).
BESIDE_THE_BUILD = 10


def run(argv, name, limit, env=None, beside_build=False):
    """Runs argv to its end (or limit seconds); its output in
    build/check/NAME.txt.  beside_build: a command that needs no build;
    it waits for the one place beside a build still running (once.slot)
    and runs at niceness BESIDE_THE_BUILD."""
    if not beside_build:
        return _run(argv, name, limit, env, 0)
    with once.slot("beside-the-build", "build"):
        return _run(argv, name, limit, env, BESIDE_THE_BUILD)


def _run(argv, name, limit, env, nice):
    path = OUT / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    ran = Ran(argv=[str(a) for a in argv], path=path)
    with open(path, "w", encoding="utf-8", errors="replace") as out:
        try:
            proc = subprocess.Popen(ran.argv, cwd=ROOT,
                                    stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True,
                                    errors="replace",
                                    env=clean_env(env),
                                    start_new_session=True,
                                    preexec_fn=(lambda: os.nice(nice))
                                    if nice else None)
        except OSError as e:
            ran.why = str(e)
            return ran

        def kill():
            ran.killed = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
        timer = threading.Timer(limit, kill)
        timer.start()
        try:
            for line in proc.stdout:
                out.write(line)
                ran.lines.append(line.rstrip("\n"))
            ran.status = proc.wait()
        except BaseException:
            # Interrupted (^C, the worker stopped): the command's group
            # has a session of its own, so no terminal signal reaches it.
            kill()
            proc.wait()
            raise
        finally:
            timer.cancel()
    return ran


def _not_run(ran, limit_text=""):
    if ran.status is None:
        return f"could not run {ran.argv[0]}: {ran.why}"
    if ran.killed:
        return f"killed at its time limit{limit_text} ({ran.path})"
    return None


def judge_status(ran):
    """A command judged by its exit status: None when it is 0, else its
    last 40 lines."""
    why = _not_run(ran)
    if why or ran.status == 0:
        return why
    tail = "\n".join(ran.lines[-40:])
    return f"exit status {ran.status} ({ran.path}):\n{tail}"


def judge_counted(ran, record_property):
    """judge_lines, with the command's ok and not ok lines recorded as the
    test's checks (the stage table counts them)."""
    record_property("checks", len(ran.oks) + len(ran.not_oks))
    return judge_lines(ran)


def judge_lines(ran):
    """A command that prints ok / not ok lines: None when it printed at
    least one ok line, no not ok line and exited 0; else why not (the
    not ok lines and the "#" lines under each)."""
    why = _not_run(ran)
    if why:
        return why
    bad = ran.not_oks
    if bad:
        return f"{len(bad)} of {len(bad) + len(ran.oks)} checks failed " \
               f"({ran.path}):\n" + "\n".join(failure_blocks(ran.lines))
    if ran.status != 0:
        return f"exit status {ran.status} but no check failed: {ran.last()}"
    if not ran.oks:
        return f"reported no checks: {ran.last()}"
    return None


def failure_blocks(lines, limit=200):
    """Each not ok line with the "#" lines that follow it (at most limit
    lines in all)."""
    out, inside = [], False
    for l in lines:
        if NOT_OK.match(l):
            inside = True
            out.append(l)
        elif inside and l.startswith("#"):
            out.append(l)
        else:
            inside = False
        if len(out) >= limit:
            out.append("... (more in the output file)")
            break
    return out
