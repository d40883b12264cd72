"""The source tree's layering rules (tools/check/layers.py)."""

import sys

from . import runner


def test_layers(record_property):
    ran = runner.run([sys.executable, "-m", "tools.check.layers"], "layers",
                     120)
    record_property("checks", len(ran.oks) + len(ran.not_oks))
    why = runner.judge_lines(ran)
    assert why is None, why
