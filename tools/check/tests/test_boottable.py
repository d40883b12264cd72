"""tools/check/boottable.py: the boot table is validated strictly."""

import importlib.util
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import ROOT, TOOLS, real_table

from tools.check import boottable

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
        boots, errors = boottable.load(TOOLS / "check" / "matrix.yaml")
        self.assertEqual([str(e) for e in errors], [])
        names = [b.name for b in boots]
        self.assertEqual(len(names), len(set(names)))
        # The boots up to selftest; later sections add their own and
        # test them in their own test methods.
        self.assertEqual(names[:25], ["p54c", "p55c", "p55c-erratum74",
                                 "p6-ppro", "p6-ppro-erratum26",
                                 "p6-pii", "p6-piii",
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

    def test_logfile_boots(self):
        """The log-file rows of issue 11 (docs/reliability.md): a volume
        with 8 KiB and with no KiB free, \\pmu-harness a file, a read-only
        disk.  Each passes its tests; the full ones keep a sound prefix and
        say so in an error line and the summary, the others keep no file
        and say why in the header."""
        boots, errors = real_table()
        self.assertEqual([str(e) for e in errors], [])
        by = {b.name: b for b in boots}
        names = ("logfile-free-8k", "logfile-full", "logfile-dir-is-file",
                 "logfile-readonly")
        for name in names:
            self.assertIn(name, by)
            self.assertEqual(by[name].verdict, "pass", name)
        self.assertEqual(by["logfile-free-8k"].volume_free_kib, 8)
        self.assertEqual(by["logfile-full"].volume_free_kib, 0)
        self.assertTrue(by["logfile-dir-is-file"].volume_logdir_file)
        self.assertTrue(by["logfile-readonly"].volume_readonly)
        # what the harness writes (boot/console.c, lib/tap.c)
        what = ("write of {w} bytes failed (EFI_VOLUME_FULL), {k} bytes "
                "kept in \\pmu-harness\\20261122-062203.log")
        full = {"logfile-free-8k": what.format(w=27, k=8171),
                "logfile-full": what.format(w=15, k=0)}
        for name, text in full.items():
            b = by[name]
            self.assertEqual(b.volume_log, "prefix", name)
            tap = ("# console: serial=com1 via=uefi-serial-io text=none(0) "
                   'logfile="\\pmu-harness\\20261122-062203.log"\n'
                   f"# error: log file: {text}\n# summary: passed=4 "
                   f'failed=0 skipped=0 logfile_error="{text}"\n')
            pats = [r.pattern for r in b.require_lines]
            self.assertTrue(any(p.startswith("^# error: log file:")
                                for p in pats), name)
            self.assertTrue(any("logfile_error=" in p for p in pats), name)
            for r in b.require_lines:
                self.assertTrue(r.search(tap), (name, r.pattern))
                # and the same run without the failure does not pass
                self.assertFalse(r.search(tap.replace("EFI_VOLUME_FULL",
                                                      "x")) and
                                 "EFI_VOLUME_FULL" in r.pattern,
                                 (name, r.pattern))
        states = {"logfile-dir-is-file": "\\pmu-harness is not a directory",
                  "logfile-readonly": "volume read-only"}
        for name, state in states.items():
            b = by[name]
            self.assertEqual(b.volume_log, "absent", name)
            console = ("# console: serial=com1 via=uefi-serial-io "
                       f'text=none(0) logfile="{state}"\n')
            self.assertTrue(any(r.search(console) for r in b.require_lines),
                            name)
            self.assertFalse(any(r.search(console.replace(state, "none"))
                                 for r in b.require_lines), name)
            forbid = [r.pattern for r in b.forbid_lines]
            self.assertIn("^# error: log file:", forbid, name)
            self.assertIn("logfile_error=", forbid, name)

    def test_memory_boots(self):
        """Row "QEMU's default 128 MiB, or 64 MiB": the whole default
        suite at 128 and 64 MiB passes with nothing failing or skipping for
        memory and the pointer chase running (on 32 and 8 MiB); at 48 MiB
        only the pointer chase's three tests SKIP, with the shortfall."""
        boots, _ = real_table()
        by = {b.name: b for b in boots}
        runs = {"memory-128": (128, "ok", 32), "memory-64": (64, "ok", 8),
                "memory-48": (48, "skip", None)}
        chase = ("oracle/pointer-chase", "trace/access-addresses",
                 "trace/regs-after-step")
        for name, (mib, status, size) in runs.items():
            b = by[name]
            self.assertEqual(b.memory, mib, name)
            self.assertEqual(b.verdict, "pass", name)
            self.assertNotIn("tests=", b.options, name)    # the whole suite
            self.assertIn(("*", "not ok"),
                          [(r.name, r.status) for r in b.forbid_results])
            required = {r.name: r.status for r in b.require_results}
            for test in chase:
                self.assertEqual(required.get(test), status, (name, test))
            lines = [p.pattern for p in b.require_lines]
            forbidden = [p.pattern for p in b.forbid_lines]
            if size:
                self.assertIn(r"^# memory: free_mib=\d+ largest_mib=\d+$",
                              lines, name)
                self.assertIn(f"^  data_size: {size} MiB of 64 MiB "
                              "wanted$", lines, name)
                self.assertIn(r"# SKIP .*needs \d+ MiB", forbidden, name)
            else:
                for test in chase:
                    self.assertIn(rf"^ok \d+ - {test} # SKIP pointer-chase: "
                                  r"needs 8 MiB, \d+ MiB free$", lines)
            self.assertIn("no data buffer|no memory", forbidden, name)

    def test_cfg_and_serial_boots(self):
        r"""The boots of the rows "\pmu-harness.cfg over 4096 bytes", "NUL
        byte / UTF-8 BOM / UTF-16 cfg", "control bytes and ESC sequences"
        and "serial=0x80/0xf0/0xcf8": each ends with its error line (the
        file over 64 KiB fails: a source of options not read whole runs
        no test, a not ok selection result, issue 43), and the fixtures
        hold what the boots rely on."""
        boots, errors = real_table()
        self.assertEqual([str(e) for e in errors], [])
        by = {b.name: b for b in boots}

        def lines(name):
            return "\n".join(r.pattern for r in by[name].require_lines)

        cfg_dir = ROOT / "tests" / "fixtures" / "cfg"
        cfg_boots = {"cfg-over-64k": "over-64k.cfg",
                     "cfg-control-esc": "control-esc.cfg"}
        # Decoded and parsed by host tests (test_cfgtext.c
        # test_fixture_files), not booted: issue 24.
        host_only = ("over-4096.cfg", "nul-byte.cfg", "bom-utf8.cfg",
                     "utf16le-bom.cfg")
        fixture = {file: (cfg_dir / file).read_bytes() for file in host_only}
        verdicts = {"cfg-over-64k": "fail", "cfg-control-esc": "pass"}
        for name, file in cfg_boots.items():
            boot = by[name]
            self.assertEqual(boot.verdict, verdicts[name], name)
            self.assertEqual(boot.cfg_file, "tests/fixtures/cfg/" + file)
            fixture[name] = (ROOT / boot.cfg_file).read_bytes()
        host_c = (ROOT / "tests" / "host" / "boot" / "test_cfgtext.c").read_text()
        for file in host_only:
            self.assertIn(f'.file = "{file}"', host_c, file)
        # the fixtures are what make_fixtures.py writes
        spec = importlib.util.spec_from_file_location(
            "make_fixtures", cfg_dir / "make_fixtures.py")
        make = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(make)
        self.assertEqual(sorted(make.FIXTURES),
                         sorted([*cfg_boots.values(), *host_only]))
        for file, write in make.FIXTURES.items():
            self.assertEqual((cfg_dir / file).read_bytes(), write(), file)
        # over 4096: the tests= word starts before offset 4096, ends after
        word = b"tests=detect/*,arch/*"
        at = fixture["over-4096.cfg"].index(word)
        self.assertLess(at, 4096)
        self.assertGreater(at + len(word), 4096)
        # over 64 KiB, starting with options a half-applied file would show
        data = fixture["cfg-over-64k"]
        self.assertGreater(len(data), 65536)
        self.assertIn(b"\ntests=detect/* verbose=1\n", data[:200])
        self.assertIn("%d bytes, over the limit of 65536" % len(data),
                      lines("cfg-over-64k"))
        # nothing of it applied (verbose=0), and no test runs (tests=)
        self.assertIn(r"tests= backend=auto exit=auto verbose=0",
                      lines("cfg-over-64k"))
        # the NUL: where test_cfgtext.c's message says
        data = fixture["nul-byte.cfg"]
        self.assertEqual(data.count(b"\0"), 1)
        self.assertIn("NUL byte at offset %d " % data.index(b"\0"),
                      host_c)
        self.assertTrue(fixture["bom-utf8.cfg"].startswith(b"\xef\xbb\xbf"))
        self.assertTrue(fixture["utf16le-bom.cfg"].startswith(b"\xff\xfe"))
        # the first control byte (an ESC) where the error line says, and
        # the count of all (the ESCs and a BEL); no raw ESC in the log
        data = fixture["cfg-control-esc"]
        controls = [b for b in data if (b < 0x20 and b not in b"\t\r\n")
                    or b == 0x7f]
        self.assertEqual(data[min(data.index(b"\x1b"),
                                  data.index(b"\x07"))], 0x1b)
        self.assertIn(r"control byte \\x1b at offset %d \(%d in all\)"
                      % (data.index(b"\x1b"), len(controls)),
                      lines("cfg-control-esc"))
        self.assertIn(r"\x1b", [r.pattern for r in
                                by["cfg-control-esc"].forbid_lines])
        # serial=: a base with no UART is probed on a boot, the log on com1
        # with the error line; the refused bases are host tests
        # (test_options.c test_refused_whole_messages).
        boot = by["serial-no-uart"]
        self.assertEqual(boot.verdict, "pass")
        self.assertIn("serial=0x3e8 tests=detect/*", boot.options)
        self.assertIn("^# console: serial=com1 via=uefi-serial-io ",
                      lines("serial-no-uart"))
        self.assertIn("^# error: ", lines("serial-no-uart"))
        self.assertIn("nothing written", lines("serial-no-uart"))
        opts_c = (ROOT / "tests" / "host" / "boot" / "test_options.c").read_text()
        for port in ("0x80", "0xf0", "0xcf8"):
            self.assertIn(f'.text = "serial={port} tests=detect/*"', opts_c)


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



# A table with golden files: how to boot here, what to expect in
# GOLDEN_FILES (docs/check.md, "Golden files").
GOLDEN_TABLE = """
golden: [tests/*/golden.yaml]
boots:
  - name: one
    cpu: Nehalem
    verdict: pass
    pmu: arch-perfmon
"""
GOLDEN_DETECT = """
boots:
  one:
    expect_cpu: {vendor: GenuineIntel, family: 6, model: 26, stepping: 3}
    expect_pmu: {version: 3}
    expect_backend: {name: model}
"""
GOLDEN_P5 = """
boots:
  one:
    forbid_results:
      - {name: p5/*, status: ok}
    require_lines: ['^  rdpmc_exists: 0']
"""


class GoldenFiles(unittest.TestCase):
    def load(self, table=GOLDEN_TABLE, **files):
        golden = {"tests/detect/golden.yaml": GOLDEN_DETECT,
                  "tests/p5/golden.yaml": GOLDEN_P5}
        golden.update({k.replace("__", "/") + "/golden.yaml": v
                       for k, v in files.items()})
        boots, errors = boottable.loads(table, golden=golden)
        return boots, [str(e) for e in errors]

    def assertError(self, fragment, table=GOLDEN_TABLE, **files):
        boots, msgs = self.load(table, **files)
        self.assertTrue(any(fragment in m for m in msgs),
                        f"{fragment!r} not in {msgs}")
        self.assertEqual(boots, [], "a boot with errors is left out")

    def test_merged_into_the_boot(self):
        boots, msgs = self.load()
        self.assertEqual(msgs, [])
        b = boots[0]
        self.assertEqual(b.expect_pmu, {"kind": "arch-perfmon",
                                        "version": 3})
        self.assertEqual(b.expect_cpu["model"], 26)
        self.assertEqual(b.backend, "model")
        self.assertEqual([(r.name, r.status) for r in b.forbid_results],
                         [("p5/*", "ok")])
        self.assertEqual([r.pattern for r in b.require_lines],
                         ["^  rdpmc_exists: 0"])

    def test_unknown_boot(self):
        boots, msgs = self.load(tests__p5=GOLDEN_P5 + "  two:\n    "
                                "require_lines: ['x']\n")
        self.assertEqual(msgs, ["two: tests/p5/golden.yaml: no boot 'two' "
                                "in the table"])
        # the table's boots keep their own expectations
        self.assertEqual([b.name for b in boots], ["one"])

    def test_unknown_key(self):
        self.assertError("one: tests/p5/golden.yaml: key 'require_line' is "
                         "no golden file's",
                         tests__p5=GOLDEN_P5 + "    require_line: ['x']\n")
        # forbid_lines search every line: the run's file, not a group's
        self.assertError("key 'forbid_lines' is tools/check/suite/",
                         tests__p5=GOLDEN_P5 + "    forbid_lines: ['x']\n")
        # the header lines only in tests/detect/golden.yaml
        self.assertError("key 'expect_backend' is tests/detect/golden.yaml's",
                         tests__p5=GOLDEN_P5 +
                         "    expect_backend: {name: hw}\n")

    def test_bad_row_and_regex(self):
        self.assertError("tests/p5/golden.yaml: bad regex in "
                         "'require_lines[0]'",
                         tests__p5=GOLDEN_P5.replace("rdpmc_exists: 0",
                                                     "(x"))
        self.assertError("tests/p5/golden.yaml: 'forbid_results[0].status' "
                         "is 'fine'",
                         tests__p5=GOLDEN_P5.replace("status: ok",
                                                     "status: fine"))
        # a group's file holds its group's results
        self.assertError("'forbid_results' row 'p6/*' is not a p5/* result",
                         tests__p5=GOLDEN_P5.replace("p5/*", "p6/*"))
        self.assertError("tests/detect/golden.yaml: 'expect_pmu.kind' is the "
                         "table's 'pmu' key",
                         tests__detect=GOLDEN_DETECT.replace(
                             "{version: 3}", "{kind: p5}"))

    def test_not_a_golden_file(self):
        boots, msgs = self.load(tests__p5="boots: [one]\n")
        self.assertEqual(boots, [])
        self.assertTrue(any(m.startswith("tests/p5/golden.yaml: a golden "
                                         "file is a mapping") for m in msgs),
                        msgs)
        boots, msgs = self.load(tests__p5="boots: {one: [\n")
        self.assertEqual(boots, [])
        self.assertIn("tests/p5/golden.yaml: not valid YAML", msgs[0])

    def test_expectations_left_in_the_table(self):
        self.assertError("one: 'require_lines' is an expectation: it belongs "
                         "in a golden file",
                         GOLDEN_TABLE + "    require_lines: ['x']\n")
        self.assertError("one: 'expect_cpu' is an expectation",
                         GOLDEN_TABLE + "    expect_cpu: {vendor: V}\n")

    def test_an_entry_needs_pmu_cpu_and_backend(self):
        self.assertError("one: missing field 'pmu' (the PMU kind",
                         GOLDEN_TABLE.replace("    pmu: arch-perfmon\n", ""))
        self.assertError("one: missing field 'verdict'",
                         GOLDEN_TABLE.replace("    verdict: pass\n", ""))
        self.assertError("one: no expect_cpu for this boot in "
                         "tests/detect/golden.yaml",
                         tests__detect=GOLDEN_DETECT.replace(
                             "    expect_cpu: {vendor: GenuineIntel, family: "
                             "6, model: 26, stepping: 3}\n", ""))
        self.assertError("one: no expect_backend for this boot in "
                         "tests/detect/golden.yaml",
                         tests__detect=GOLDEN_DETECT.replace(
                             "    expect_backend: {name: model}\n", ""))

    def test_golden_key_of_the_table(self):
        root = Path(tempfile.mkdtemp(prefix="pmu-golden-"))
        self.addCleanup(shutil.rmtree, root, True)
        for name, text in (("detect", GOLDEN_DETECT), ("p5", GOLDEN_P5)):
            (root / "tests" / name).mkdir(parents=True)
            (root / "tests" / name / "golden.yaml").write_text(text)
        boots, errors = boottable.loads(GOLDEN_TABLE, root)
        self.assertEqual([str(e) for e in errors], [])
        self.assertEqual(boots[0].backend, "model")
        _, errors = boottable.loads(GOLDEN_TABLE.replace(
            "tests/*/golden.yaml", "tools/none/golden.yaml"), root)
        self.assertIn("'golden' glob 'tools/none/golden.yaml' matches no "
                      "file", str(errors[0]))
        _, errors = boottable.loads(GOLDEN_TABLE.replace(
            "tests/*/golden.yaml", "../x.yaml"), root)
        self.assertIn("leads out of the repository", str(errors[0]))

    def test_real_golden_files_name_their_groups(self):
        """Each group's golden file of the repository holds its group's
        rows only (the loader refuses others), and the real table loads
        with every golden file."""
        files = sorted(p.relative_to(ROOT).as_posix()
                       for p in ROOT.glob("tests/*/golden.yaml"))
        self.assertIn("tests/detect/golden.yaml", files)
        boots, errors = boottable.load(TOOLS / "check" / "matrix.yaml")
        self.assertEqual([str(e) for e in errors], [])
        for b in boots:
            self.assertTrue(b.expect_cpu and b.backend, b.name)


class ReliabilityKeys(unittest.TestCase):
    """The keys of issue 11: memory, cfg_file, volume_free_kib,
    volume_logdir_file, volume_readonly, volume_log and verdict bail."""

    def setUp(self):
        # a repository of its own, so cfg_file has files to name
        self.root = Path(tempfile.mkdtemp(prefix="pmu-boottable-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        cfg = self.root / "tests" / "fixtures" / "cfg"
        cfg.mkdir(parents=True)
        (cfg / "nul.cfg").write_bytes(b"tests=detect/*\0x\n")
        (cfg / "sub").mkdir()
        (self.root / "tools").mkdir()
        (self.root / "tools" / "secret.cfg").write_text("x\n")
        os.symlink("../../../tools/secret.cfg", cfg / "out.cfg")

    def loads(self, extra):
        return boottable.loads(GOOD + extra, self.root)

    def one(self, extra):
        boots, errors = self.loads(extra)
        self.assertEqual([str(e) for e in errors], [], extra)
        return boots[0]

    def assertError(self, extra, fragment):
        boots, errors = self.loads(extra)
        msgs = [str(e) for e in errors]
        self.assertEqual(boots, [], "a table entry with errors is left out")
        self.assertTrue(any(fragment in m for m in msgs),
                        f"{fragment!r} not in {msgs}")

    def test_defaults(self):
        b = self.one("")
        self.assertEqual((b.memory, b.cfg_file, b.volume_free_kib,
                          b.volume_logdir_file, b.volume_readonly,
                          b.volume_log), (None, None, None, False, False,
                                          "same"))

    def test_accepted(self):
        b = self.one("    memory: 64\n    volume_free_kib: 8\n"
                     "    volume_logdir_file: true\n"
                     "    volume_readonly: true\n    volume_log: prefix\n"
                     "    cfg_file: tests/fixtures/cfg/nul.cfg\n")
        self.assertEqual((b.memory, b.cfg_file, b.volume_free_kib,
                          b.volume_logdir_file, b.volume_readonly,
                          b.volume_log), (64, "tests/fixtures/cfg/nul.cfg",
                                          8, True, True, "prefix"))
        for mib in (16, 4096):
            self.assertEqual(self.one(f"    memory: {mib}\n").memory, mib)
        self.assertEqual(self.one("    volume_free_kib: 0\n")
                         .volume_free_kib, 0)
        for mode in ("same", "prefix", "absent"):
            self.assertEqual(self.one(f"    volume_log: {mode}\n")
                             .volume_log, mode)
        b = self.one("    cfg_file: tests/fixtures/cfg/nul.cfg\n"
                     "    options: ''\n")
        self.assertEqual(b.options, "")
        b = boottable.loads(with_line("verdict: pass", "verdict: bail"))[0]
        self.assertEqual(b[0].verdict, "bail")

    def test_memory(self):
        for bad in (15, 4097, 0, -1):
            self.assertError(f"    memory: {bad}\n",
                             f"'memory' must be 16..4096 (MiB), not {bad}")
        self.assertError("    memory: '128'\n",
                         "'memory' must be int, not str")
        self.assertError("    memory: true\n",
                         "'memory' must be int, not bool")
        self.assertError("    memory: 128.0\n",
                         "'memory' must be int, not float")

    def test_volume_free_kib(self):
        self.assertError("    volume_free_kib: -1\n",
                         "'volume_free_kib' must be >= 0, not -1")
        self.assertError("    volume_free_kib: '8'\n",
                         "'volume_free_kib' must be int, not str")
        self.assertError("    volume_free_kib: null\n",
                         "'volume_free_kib' must be int, not null")

    def test_volume_bools(self):
        for key in ("volume_logdir_file", "volume_readonly"):
            self.assertError(f"    {key}: 'yes'\n",
                             f"'{key}' must be bool, not str")
            self.assertError(f"    {key}: 1\n",
                             f"'{key}' must be bool, not int")

    def test_volume_log(self):
        self.assertError("    volume_log: none\n",
                         "'volume_log' is 'none', expected one of same, "
                         "prefix, absent")
        self.assertError("    volume_log: Prefix\n", "'volume_log' is")
        self.assertError("    volume_log: true\n",
                         "'volume_log' must be str, not bool")

    def test_unknown_key_and_verdict(self):
        self.assertError("    volume_log: same\n    volume_Log: same\n",
                         "unknown key 'volume_Log'")
        boots, errors = boottable.loads(with_line("verdict: pass",
                                                  "verdict: bailout"))
        self.assertIn("'verdict' is 'bailout', expected one of pass, fail, "
                      "shutdown, bail, untested", [e.message for e in errors])

    def test_cfg_file(self):
        self.assertError("    cfg_file: tests/fixtures/cfg/none.cfg\n",
                         "'cfg_file' 'tests/fixtures/cfg/none.cfg': no "
                         "such file")
        self.assertError("    cfg_file: tests/fixtures/cfg/sub\n",
                         "is not a regular file")
        self.assertError("    cfg_file: tools/secret.cfg\n",
                         "is not below tests/fixtures/")
        self.assertError("    cfg_file: tests/fixtures/cfg/out.cfg\n",
                         "leads out of tests/fixtures/")
        for bad in ("/etc/passwd", "tests/fixtures/../../tools/secret.cfg",
                    "tests/fixtures/cfg/../cfg/nul.cfg",
                    "tests/fixtures/./cfg/nul.cfg",
                    "tests//fixtures/cfg/nul.cfg", "",
                    "tests/fixtures/cfg\\nul.cfg"):
            self.assertError(f"    cfg_file: {bad!r}\n",
                             "must be a plain relative path below "
                             "tests/fixtures/")
        self.assertError("    cfg_file: tests/fixtures\n",
                         "is not below tests/fixtures/")
        self.assertError("    cfg_file: 3\n",
                         "'cfg_file' must be str, not int")
        self.assertError("    cfg_file: tests/fixtures/cfg/nul.cfg\n"
                         "    options: tests=detect/*\n",
                         "'cfg_file' and a non-empty 'options' exclude "
                         "each other")

    def test_cfg_file_is_relative_to_the_repository(self):
        # the default root is this repository, which has no such file
        (self.root / "tests/fixtures/cfg/py-only.cfg").write_text("x\n")
        extra = "    cfg_file: tests/fixtures/cfg/py-only.cfg\n"
        boots, errors = boottable.loads(GOOD + extra)
        self.assertIn("no such file", str(errors[0]))
        self.assertEqual(self.one(extra).cfg_file,
                         "tests/fixtures/cfg/py-only.cfg")


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
        boots, errors = real_table()
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
