"""The build: the image, the floppy, the 32-bit ELF, a warm UEFI variable
store (suite/build.py), once for the whole run."""

from . import build


def test_build():
    why = build.outcome()["failed"]
    assert why is None, f"the build failed: {why}"
