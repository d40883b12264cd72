"""The event tables against libpfm4, the referee (tools/pfm/,
docs/testing.md): `make pfm-check` once, then each libpfm4 library's
checker as a test of its own - x86_64 (the architectural, PEBS and
NetBurst tables) and i386 (libpfm4:i386, which alone has the P6 PMUs).
Each generation's descriptor says which library its tables need."""

import pytest

from . import once, runner

CHECKERS = {"x86_64": "pfm-check", "i386": "pfm-check-i386"}


def built():
    """make pfm-check, once per run: None, or why it failed."""
    def produce():
        ran = runner.run(["make", "--no-print-directory", "pfm-check"],
                         "pfm-build", 300, beside_build=True)
        return {"failed": runner.judge_status(ran)}
    return once.run("pfm-build", produce)["failed"]


@pytest.mark.parametrize("lib", sorted(CHECKERS))
def test_pfm(lib, record_property):
    why = built()
    assert why is None, f"make pfm-check failed: {why}"
    ran = runner.run([once.ROOT / "build" / "host" / CHECKERS[lib]],
                     f"pfm-{lib}", 300, beside_build=True)
    why = runner.judge_counted(ran, record_property)
    assert why is None, why
