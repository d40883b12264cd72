"""build: the image, the floppy, the 32-bit ELF and a warm UEFI variable
store (make -jN all image floppy ovmf-vars), once per make check run
(once.py).  Every boot and the host tools' own tests need it."""

import os

import pytest

from . import once, runner

GOALS = ("all", "image", "floppy", "ovmf-vars")
LIMIT = 600


def _produce():
    # In parallel, whatever make check itself was started with (runner's
    # environment leaves the parent make's jobserver out).
    ran = runner.run(["make", "--no-print-directory",
                      f"-j{os.cpu_count() or 1}", *GOALS], "build", LIMIT)
    return {"failed": runner.judge_status(ran), "last": ran.last()}


def outcome():
    """{"failed": None or why, "last": make's last line}."""
    return once.run("build", _produce)


def require():
    """Fails the calling test (or its setup) when the build failed."""
    why = outcome()["failed"]
    if why:
        pytest.fail(f"the build failed: {why}", pytrace=False)
