"""tools/boottable.py: the boot table is validated strictly."""

import unittest

from support import TOOLS

import boottable

GOOD = """
boots:
  - name: one
    cpu: Nehalem
    verdict: pass
    expect_cpu: {vendor: GenuineIntel, family: 6, model: 26, stepping: 3}
    expect_pmu: {kind: arch-perfmon}
    expect_backend: {name: none}
"""


def with_line(old, new):
    """GOOD with one line replaced (old must be there)."""
    assert old in GOOD, old
    return GOOD.replace(old, new)


class RealTable(unittest.TestCase):
    def test_matrix_yaml_is_valid(self):
        boots, errors = boottable.load(TOOLS / "matrix.yaml")
        self.assertEqual([str(e) for e in errors], [])
        names = [b.name for b in boots]
        self.assertEqual(len(names), len(set(names)))
        # The boots up to selftest; later sections add their own and
        # test them in their own test methods.
        self.assertEqual(names[:24], ["p54c", "p55c", "p55c-erratum74",
                                 "p6-ppro", "p6-pii", "p6-piii",
                                 "p6-pentium-m", "netburst-f15m0",
                                 "netburst-f15m2", "netburst-f15m3",
                                 "netburst-f15m4-ht", "netburst-f15m6",
                                 "conroe", "nehalem",
                                 "nehalem-ht", "skylake", "yonah",
                                 "haswell", "icelake", "sapphire-rapids",
                                 "amd-epyc",
                                 "com4-16550",
                                 "exit-shutdown", "selftest"])
        p54c = boots[0]
        self.assertEqual(p54c.expect_cpu["name"], "Pentium (P54C)")
        self.assertEqual(p54c.expect_pmu["rdpmc"], "no")
        self.assertIn(("p5/cc-*", "skip"),
                      [(r.name, r.status) for r in p54c.forbid_results])
        by = {b.name: b for b in boots}
        for name in ("p6-ppro", "p6-pii", "p6-piii", "p6-pentium-m"):
            self.assertEqual(by[name].expect_pmu["kind"], "p6")
            forbidden = [(r.name, r.status)
                         for r in by[name].forbid_results]
            # the modelled events and every field test run; only events
            # the trace cannot see may SKIP
            self.assertIn(("p6/event-0xc0-*", "skip"), forbidden)
            self.assertIn(("p6/int-*", "skip"), forbidden)
            self.assertIn(("p6/*", "not ok"), forbidden)
        self.assertEqual(by["p6-pentium-m"].expect_pmu["pentium_m_events"],
                         "yes")
        self.assertTrue(by["com4-16550"].com4)
        self.assertEqual(by["nehalem-ht"].smp,
                         "2,sockets=1,cores=1,threads=2")
        self.assertIsNone(by["nehalem"].smp)
        self.assertTrue(by["exit-shutdown"].vga)
        self.assertEqual(by["exit-shutdown"].verdict, "shutdown")
        self.assertEqual(by["selftest"].verdict, "fail")
        # one boot per PEBS record format the rows have, each checking
        # the format, the trap bit and the DS layout of the pmu line
        formats = {"conroe": 0, "nehalem": 1, "haswell": 2, "skylake": 3,
                   "icelake": 4, "sapphire-rapids": 4}
        for name, fmt in formats.items():
            pmu = by[name].expect_pmu
            self.assertEqual(pmu["pebs_format"], fmt, name)
            self.assertEqual(pmu["pebs_trap"], 1, name)
            self.assertEqual(pmu["ds"], 64, name)
        for name in ("icelake", "sapphire-rapids"):
            self.assertTrue(by[name].cpu.startswith("qemu64,"), name)


class Validation(unittest.TestCase):
    def errors(self, text):
        boots, errors = boottable.loads(text)
        msgs = [str(e) for e in errors]
        if errors:
            self.assertEqual(boots, [], "a table entry with errors is "
                                        "left out")
        return msgs

    def assertError(self, text, fragment):
        msgs = self.errors(text)
        self.assertTrue(any(fragment in m for m in msgs),
                        f"{fragment!r} not in {msgs}")

    def test_good(self):
        boots, errors = boottable.loads(GOOD)
        self.assertEqual(errors, [])
        b = boots[0]
        self.assertEqual((b.options, b.com4, b.vga, b.timeout),
                         ("", False, False, 180))

    def test_bad_regex(self):
        self.assertError(GOOD + "    require_lines: ['^# cpu: (']\n",
                         "one: bad regex in 'require_lines[0]'")
        self.assertError(GOOD + "    forbid_lines: ['[a-']\n",
                         "bad regex in 'forbid_lines[0]'")
        self.assertError(with_line("{name: none}",
                                   "{name: none, reason: '*x'}"),
                         "bad regex in 'expect_backend.reason'")

    def test_unknown_keys(self):
        self.assertError(GOOD + "    require_line: ['x']\n",
                         "unknown key 'require_line'")
        self.assertError(with_line("stepping: 3}", "stepping: 3, mdoel: 2}"),
                         "unknown key 'expect_cpu.mdoel'")
        self.assertError(GOOD + "    require_results:\n"
                                "      - {name: a/b, status: ok, why: x}\n",
                         "unknown key 'require_results[0].why'")
        self.assertError(GOOD + "extra: 1\n", "unknown top-level key 'extra'")

    def test_missing_fields(self):
        self.assertError(with_line("    verdict: pass\n", ""),
                         "missing field 'verdict'")
        self.assertError(with_line("stepping: 3}", "}").replace(
            "model: 26, }", "model: 26}"), "missing field "
                                           "'expect_cpu.stepping'")
        self.assertError(with_line("    expect_pmu: {kind: arch-perfmon}\n",
                                   ""), "missing field 'expect_pmu'")
        self.assertError(with_line("{kind: arch-perfmon}", "{counters: 2}"),
                         "missing field 'expect_pmu.kind'")
        self.assertError(GOOD + "    forbid_results: [{name: 'p5/*'}]\n",
                         "missing field 'forbid_results[0].status'")
        self.assertError("boots: []\n", "'boots' must be a non-empty list")

    def test_wrong_types(self):
        self.assertError(with_line("family: 6", "family: '6'"),
                         "'expect_cpu.family' must be int, not str")
        self.assertError(with_line("{kind: arch-perfmon}",
                                   "{kind: p5, rdpmc: no}"),
                         "'expect_pmu.rdpmc' must be str or int, not bool")
        self.assertError(GOOD + "    com4: 'yes'\n",
                         "'com4' must be bool, not str")
        self.assertError(GOOD + "    require_lines: '^x'\n",
                         "'require_lines' must be list, not str")
        self.assertError(with_line("verdict: pass", "verdict: passed"),
                         "'verdict' is 'passed'")
        self.assertError(GOOD + "    require_results: [{name: a, status: "
                                "failed}]\n",
                         "'require_results[0].status' is 'failed'")
        self.assertError(with_line("{name: none}", "{name: fake}"),
                         "'expect_backend.name' is 'fake'")
        self.assertError(with_line("name: one", "name: One/../x"),
                         "must match")

    def test_smp(self):
        boots, errors = boottable.loads(GOOD)
        self.assertIsNone(boots[0].smp)
        for spec in ("2", "cpus=2", "2,sockets=1,cores=1,threads=2",
                     "4,sockets=2,cores=2,threads=1",
                     "2,maxcpus=4,sockets=1,cores=2,threads=2",
                     "2,threads=2"):
            boots, errors = boottable.loads(GOOD + f"    smp: '{spec}'\n")
            self.assertEqual([str(e) for e in errors], [], spec)
            self.assertEqual(boots[0].smp, spec)
        self.assertError(GOOD + "    smp: 2\n", "'smp' must be str, not int")
        for spec in ("", "0", "two", "2,threads=x", "2,sokets=1",
                     "2;touch /tmp/x", "2 ", "-2", "2,,threads=2"):
            self.assertError(GOOD + f"    smp: {spec!r}\n",
                             f"'smp' {spec!r} is not")
        self.assertError(GOOD + '    smp: "2\\n"\n', "'smp' '2\\n' is not")
        self.assertError(GOOD + "    smp: '2,threads=2,threads=2'\n",
                         "names a field twice")
        self.assertError(GOOD + "    smp: '2,sockets=1,cores=1,threads=1'\n",
                         "threads = 1, not 2")
        self.assertError(GOOD + "    smp: '4,maxcpus=8,sockets=1,cores=2,"
                                "threads=2'\n", "threads = 4, not 8")

    def test_duplicates(self):
        self.assertError(with_line("    cpu: Nehalem\n",
                                   "    cpu: Nehalem\n    cpu: Conroe\n"),
                         "key 'cpu' given twice")
        boots, errors = boottable.loads(GOOD + GOOD.split("boots:\n")[1])
        self.assertEqual(len(boots), 1)
        self.assertIn("boot name 'one' used twice", str(errors[0]))

    def test_not_yaml(self):
        self.assertError("boots: [\n", "not valid YAML")
        self.assertError("- a\n", "must be a mapping")

    def test_one_bad_entry_leaves_the_others(self):
        boots, errors = boottable.loads(
            GOOD + GOOD.split("boots:\n")[1].replace("name: one", "name: two")
            .replace("verdict: pass", "verdict: maybe"))
        self.assertEqual([b.name for b in boots], ["one"])
        self.assertEqual(errors[0].boot, "two")


# The inject boots' require_lines regex: matches the whole log only when
# no `not ok` result lacks an "  injected_" line in its YAML block.
EVERY_NOT_OK_NOTED = (r"\A(?:(?!^not ok [^\n]*\n(?:(?!  ---$)|  ---\n"
                      r"(?:(?!  injected_|  \.\.\.$)[^\n]*\n)*  \.\.\.$))"
                      r"[\s\S])*\Z")

# A log cut to what the inject boots' regex looks at: results and their
# YAML blocks (docs/log-format.md).
_NOTED = """\
not ok 1 - p5/cc-000
  ---
  failures:
    - "init: RDMSR CESR (0x11) raised vector 13"
  injected_msr_0x11: "RDMSR 0x11 raised injected #GP (vector 13)"
  ...
ok 2 - p5/event-0x02-ctr0 # SKIP DATA_TLB_MISS not modelled
ok 3 - p5/event-0x10-ctr0
  ---
  refused: event 0x10 is reserved
  ...
not ok 4 - p5/cc-001
  ---
  failures:
    - "counter 0: read 0 (+0 over its preset), oracle 806..806"
  injected_msr_0x12: "WRMSR 0x12=0x0 dropped: injected stuck MSR 0x12"
  cpl0_ctr0: 0
  ...
1..4
"""


class InjectBoots(unittest.TestCase):
    """The fault-injection boots (docs/reliability.md "Fault injection")."""

    def setUp(self):
        boots, errors = boottable.load(TOOLS / "matrix.yaml")
        self.assertEqual([str(e) for e in errors], [])
        self.boots = {b.name: b for b in boots
                      if b.name.startswith("inject-")}

    def test_inject_boots(self):
        groups = {"inject-p5-cesr": "p5/*", "inject-p5-ctr": "p5/*",
                  "inject-p6-evtsel": "p6/*", "inject-p6-ctr": "p6/*",
                  "inject-perfmon-global": "perfmon/*",
                  "inject-perfmon-ctr": "perfmon/*",
                  "inject-netburst-cccr": "netburst/*",
                  "inject-netburst-escr": "netburst/*",
                  "inject-ds-area": "pebs/*,bts/*",
                  "inject-ds-enable": "pebs/*,bts/*"}
        self.assertEqual(sorted(self.boots),
                         sorted(list(groups) + ["inject-refused-hw",
                                                "inject-bad-spec"]))
        for name, tests in groups.items():
            b = self.boots[name]
            opts = dict(w.split("=", 1) for w in b.options.split())
            self.assertEqual(opts["tests"], tests, name)
            self.assertEqual(b.verdict, "fail", name)
            self.assertEqual(b.backend, "model", name)
            self.assertTrue(b.require_results, name)
            patterns = [r.pattern for r in b.require_lines]
            self.assertIn(EVERY_NOT_OK_NOTED, patterns, name)
            # the header line, and every injected register named in some
            # result with what was injected
            self.assertIn(f'^# inject: active spec="{opts["inject"]}"',
                          " ".join(patterns), name)
            for item in opts["inject"].split(","):
                what = item.split(":")
                key = ("injected_rdpmc" if what[0] == "rdpmc" else
                       f"injected_msr_{what[1]}")
                self.assertTrue(any(f"^  {key}: " in p for p in patterns),
                                f"{name}: no line requires {key}")
            self.assertIn("^# error: ",
                          [r.pattern for r in b.forbid_lines], name)
        hw = self.boots["inject-refused-hw"]
        self.assertIn("backend=hw", hw.options.split())
        self.assertEqual(hw.backend, "hw")
        for b in (hw, self.boots["inject-bad-spec"]):
            self.assertEqual(b.verdict, "pass", b.name)
            self.assertIn("^# inject: active",
                          [r.pattern for r in b.forbid_lines], b.name)

    def test_every_not_ok_noted_regex(self):
        rx = [r for r in self.boots["inject-p5-cesr"].require_lines
              if r.pattern == EVERY_NOT_OK_NOTED][0]
        self.assertTrue(rx.search(_NOTED))
        # a not ok without an injected_ line, anywhere in the log
        bad = _NOTED.replace('  injected_msr_0x12: "WRMSR 0x12=0x0 '
                             'dropped: injected stuck MSR 0x12"\n', "")
        self.assertIsNone(rx.search(bad))
        # a not ok with no YAML block at all
        self.assertIsNone(rx.search(_NOTED.replace(
            "1..4\n", "not ok 5 - p5/cc-010\n1..5\n")))
        self.assertIsNone(rx.search(_NOTED.replace(
            "1..4\n", "not ok 5 - p5/cc-010\n")))
        # an injected_ line of the next result does not count
        self.assertIsNone(rx.search(
            "not ok 1 - a/b\n  ---\n  x: 1\n  ...\n"
            "not ok 2 - a/c\n  ---\n  injected_rdpmc: x\n  ...\n"))
        # skips and passes need none
        self.assertTrue(rx.search("ok 1 - a/b # SKIP no\nok 2 - a/c\n"))


if __name__ == "__main__":
    unittest.main()
