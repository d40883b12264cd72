"""The source tree's layering rules (tools/check/layers.py)."""

import sys

from . import runner


def test_layers(record_property):
    ran = runner.run([sys.executable, "-m", "tools.check.layers"], "layers",
                     120)
    why = runner.judge_counted(ran, record_property)
    assert why is None, why
