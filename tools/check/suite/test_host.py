"""The host unit tests (cmocka) of the pure-logic modules: every
tests/host/**/test_*.c built once (tools/check/host-test.sh --build-only,
make -k) and each binary run as a test of its own."""

import re

import pytest

from . import once, runner

HOST = once.ROOT / "tests" / "host"
SCRIPT = once.ROOT / "tools" / "check" / "host-test.sh"
SUMMARY = re.compile(r"^host-tests: passed=(\d+) failed=(\d+)$")
NAMES = sorted(str(p.relative_to(HOST).with_suffix(""))
               for p in HOST.rglob("test_*.c"))


def built():
    """Builds every binary once per run; the binaries that did not build
    fail their own tests (--no-build says so)."""
    def produce():
        ran = runner.run([SCRIPT, "--build-only"], "host-build", 900,
                         beside_build=True)
        return {"last": ran.last()}
    return once.run("host-build", produce)


def test_host_suites_found():
    assert NAMES, f"no test_*.c under {HOST}"


@pytest.mark.parametrize("name", NAMES)
def test_host(name, record_property):
    built()
    ran = runner.run([SCRIPT, "--no-build", name],
                     f"host/{name}", 600, beside_build=True)
    counts = [SUMMARY.match(l) for l in ran.lines if SUMMARY.match(l)]
    why = runner.judge_status(ran)
    if counts:
        record_property("checks", int(counts[-1][1]) + int(counts[-1][2]))
    assert why is None, why
    assert counts and int(counts[-1][1]) > 0, \
        f"no cmocka case passed: {ran.last()}"
