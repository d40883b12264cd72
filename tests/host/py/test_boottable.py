"""tools/boottable.py: the boot table is validated strictly."""

import importlib.util
import unittest

from support import ROOT, TOOLS

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

    def test_cfg_and_serial_boots(self):
        """The boots of the rows "\pmu-harness.cfg over 4096 bytes", "NUL
        byte / UTF-8 BOM / UTF-16 cfg", "control bytes and ESC sequences"
        and "serial=0x80/0xf0/0xcf8": each passes with its error line, and
        the fixtures hold what the boots rely on."""
        boots, errors = boottable.load(TOOLS / "matrix.yaml")
        self.assertEqual([str(e) for e in errors], [])
        by = {b.name: b for b in boots}

        def lines(name):
            return "\n".join(r.pattern for r in by[name].require_lines)

        cfg_dir = ROOT / "tests" / "fixtures" / "cfg"
        cfg_boots = {"cfg-over-4096": "over-4096.cfg",
                     "cfg-over-64k": "over-64k.cfg",
                     "cfg-nul-byte": "nul-byte.cfg",
                     "cfg-bom-utf8": "bom-utf8.cfg",
                     "cfg-utf16le-bom": "utf16le-bom.cfg",
                     "cfg-control-esc": "control-esc.cfg"}
        fixture = {}
        for name, file in cfg_boots.items():
            boot = by[name]
            self.assertEqual(boot.verdict, "pass", name)
            self.assertEqual(boot.cfg_file, "tests/fixtures/cfg/" + file)
            fixture[name] = (ROOT / boot.cfg_file).read_bytes()
        # the fixtures are what make_fixtures.py writes
        spec = importlib.util.spec_from_file_location(
            "make_fixtures", cfg_dir / "make_fixtures.py")
        make = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(make)
        self.assertEqual(sorted(make.FIXTURES), sorted(cfg_boots.values()))
        for file, write in make.FIXTURES.items():
            self.assertEqual((cfg_dir / file).read_bytes(), write(), file)
        # over 4096: the tests= word starts before offset 4096, ends after
        word = b"tests=detect/*,arch/*"
        at = fixture["cfg-over-4096"].index(word)
        self.assertLess(at, 4096)
        self.assertGreater(at + len(word), 4096)
        self.assertIn(r"tests=detect/\*,arch/\* ", lines("cfg-over-4096"))
        # over 64 KiB, starting with options a half-applied file would show
        data = fixture["cfg-over-64k"]
        self.assertGreater(len(data), 65536)
        self.assertIn(b"\ntests=detect/* verbose=1\n", data[:200])
        self.assertIn("%d bytes, over the limit of 65536" % len(data),
                      lines("cfg-over-64k"))
        self.assertIn(r"tests=\* backend=auto exit=auto verbose=0",
                      lines("cfg-over-64k"))
        # the NUL: where the error line says
        data = fixture["cfg-nul-byte"]
        self.assertEqual(data.count(b"\0"), 1)
        self.assertIn("NUL byte at offset %d " % data.index(b"\0"),
                      lines("cfg-nul-byte"))
        self.assertTrue(fixture["cfg-bom-utf8"].startswith(b"\xef\xbb\xbf"))
        self.assertTrue(fixture["cfg-utf16le-bom"].startswith(b"\xff\xfe"))
        # ESC: the first one where the error line says, and the count;
        # no raw ESC in the log
        data = fixture["cfg-control-esc"]
        self.assertIn(r"control byte \\x1b at offset %d \(%d in all\)"
                      % (data.index(b"\x1b"), data.count(b"\x1b")),
                      lines("cfg-control-esc"))
        self.assertIn(r"\x1b", [r.pattern for r in
                                by["cfg-control-esc"].forbid_lines])
        # serial=: refused, the log on com1 with the error line
        for name, port in (("serial-0x80", "0x80"), ("serial-0xf0", "0xf0"),
                           ("serial-0xcf8", "0xcf8"),
                           ("serial-no-uart", "0x3e8")):
            boot = by[name]
            self.assertEqual(boot.verdict, "pass", name)
            self.assertIn("serial=%s tests=detect/*" % port, boot.options)
            self.assertIn("^# console: serial=com1 via=uefi-serial-io ",
                          lines(name), name)
            self.assertIn("^# error: ", lines(name), name)
        self.assertIn("nothing written", lines("serial-no-uart"))


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


if __name__ == "__main__":
    unittest.main()
