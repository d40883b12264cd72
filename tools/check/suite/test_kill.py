"""SIGKILL during a run (tools/check/kill.py): QEMU killed at each point,
the log file left on the boot volume sound and losing no more than the
flush rule allows; one test per point."""

import pytest

from tools.check import kill

from . import kill_points


if kill_points.snapshots_on():      # else (SNAPSHOTS=0) they boot from reset
    def test_kill_snapshot(record_property):
        saved = kill_points.snapshot()
        record_property("checks", 1)
        assert saved["ok"], f"firmware snapshot: {saved['text']}"


@pytest.mark.parametrize("n", range(1, len(kill.POINTS) + 1),
                         ids=lambda n: f"point{n}")
def test_kill_point(n, record_property):
    o = kill_points.point(n)
    record_property("checks", 1)
    assert o["ok"], f"point {n} ({kill.POINTS[n - 1]}): {o['what']}"
