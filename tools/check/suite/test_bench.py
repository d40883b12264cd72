"""The benchmark formulas single-stepped on the host under ptrace
(tests/host/bench/run.sh), once per instruction set."""

import re

import pytest

from . import once, runner

SCRIPT = once.ROOT / "tests" / "host" / "bench" / "run.sh"
SUMMARY = re.compile(r"^bench-host: passed=(\d+) failed=(\d+)$")


@pytest.mark.parametrize("mode", ["x86_64", "i386"])
def test_bench(mode, record_property):
    ran = runner.run([SCRIPT, "--mode", mode], f"bench-{mode}", 900,
                     beside_build=True)
    counts = [SUMMARY.match(l) for l in ran.lines if SUMMARY.match(l)]
    if counts:
        record_property("checks", int(counts[-1][1]) + int(counts[-1][2]))
    why = runner.judge_status(ran)
    assert why is None, why
    assert counts and int(counts[-1][1]) > 0, \
        f"no benchmark checked: {ran.last()}"
