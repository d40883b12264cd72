"""The lab tools (tools/lab/pmu-harness parse, compare, capture, junit,
report in headless Chromium) and Perl's prove on every log of the run's
boots and SIGKILL points (tools/check/lab.py).  It waits for (or runs)
every boot and kill point first."""

import sys

from tools.check import kill

from . import boots, kill_points, once, runner


def test_lab(record_property):
    for b in boots.table()[0]:
        boots.boot(b)
    for n in range(1, len(kill.POINTS) + 1):
        kill_points.point(n)
    ran = runner.run([sys.executable, "-m", "tools.check.lab", "--logs",
                      once.OUT, "--out", once.OUT / "lab"], "lab", 600)
    why = runner.judge_counted(ran, record_property)
    assert why is None, why
