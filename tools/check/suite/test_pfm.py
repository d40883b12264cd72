"""The event tables (P6, NetBurst, architectural, PEBS) against libpfm4's,
x86_64 and i386 (tools/check/pfm.sh, tools/pfm/)."""

from . import once, runner


def test_pfm(record_property):
    ran = runner.run([once.ROOT / "tools" / "check" / "pfm.sh"], "pfm", 300)
    record_property("checks", len(ran.oks) + len(ran.not_oks))
    why = runner.judge_lines(ran)
    assert why is None, why
