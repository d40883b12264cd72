"""Intel PT on the host (tools/check/pt.py): ptdecode against libipt on
libipt-encoded random streams and on the model's streams of every
benchmark, the model's timing against the trace, damaged streams, the
fuzz target's smoke run."""

import sys

from . import once, runner


def test_pt(record_property):
    ran = runner.run([sys.executable, "-m", "tools.check.pt", "--out",
                      once.OUT / "pt"], "pt", 300,
                     beside_build=True)
    why = runner.judge_counted(ran, record_property)
    assert why is None, why
