"""The boot matrix: every entry of tools/check/matrix.yaml booted (under
QEMU or Bochs, from its medium) and its log checked against the entry and
the generic rules (tools/check/logcheck.py), one test per boot; one per
firmware snapshot that boots of one machine share; one for the table
itself.  `pytest -k 'test_boot and p54c'` boots one entry."""

import pytest

from tools.check import matrix

from . import boots

_BOOTS, _ERRORS = boots.table()


def test_boot_table():
    assert not _ERRORS, "the boot table is wrong:\n" + "\n".join(
        f"{e.boot or 'matrix'}: {e.message}" for e in _ERRORS)
    assert _BOOTS, "the boot table has no boot"


@pytest.mark.parametrize("index", range(len(boots.shapes())),
                         ids=lambda i: f"shape-{i}")
def test_firmware_snapshot(index, record_property):
    shape, members = boots.shapes()[index]
    saved = boots.snapshot(index)
    record_property("checks", 1)
    assert saved["ok"], (f"firmware snapshot of {shape[0]} "
                         f"({saved['path']}) for "
                         f"{', '.join(b.name for b in members)}: "
                         f"{saved['text']}; they boot from reset")


@pytest.mark.parametrize("name,boot_kind",
                         [(b.name, b.boot) for b in _BOOTS],
                         ids=[b.name for b in _BOOTS])
def test_boot(name, boot_kind, record_property):
    b = boots.by_name()[name]
    done = boots.boot(b)
    assert done["missing"] is None, \
        f"not booted: {done['missing']}"
    checks = matrix.check_one(b, boots.once.OUT)
    record_property("checks", len(checks))
    bad = [c for c in checks if not c.ok]
    assert checks, "no check ran on the boot's files"
    assert not bad, f"{len(bad)} of {len(checks)} checks failed:\n" + \
        "\n".join(f"not ok - {name}: {c.what}" for c in bad)
