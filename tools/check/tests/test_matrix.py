"""tools/check/matrix.py --logs: the checks of one boot's log, on fixture
logs, without booting."""

import unittest

import shutil
import tempfile
from pathlib import Path
from unittest import mock

from tools.testing.support import (FIXTURES, PY, LogDir, check_matrix,
                                   fake_qemu, fixture_text, matrix_main,
                                   need_image, not_ok_lines, ok_lines,
                                   run_tool, tap_part)

from tools.check import boottable
from tools.check import matrix as cm

# Debian's empty OVMF variable store: a store of the right size.
OVMF_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.fd")


class CheckLogs(unittest.TestCase):
    def setUp(self):
        self.dir = LogDir()
        self.addCleanup(self.dir.cleanup)

    def run_boot(self, *boots, matrix=None):
        return check_matrix("--logs", str(self.dir.path), *boots,
                            matrix=matrix)

    def assertFails(self, out, rc, *fragments):
        self.assertNotEqual(rc, 0, out)
        bad = not_ok_lines(out)
        self.assertTrue(bad, out)
        for f in fragments:
            self.assertTrue(any(f in l for l in bad),
                            f"no 'not ok' line with {f!r}:\n" + "\n".join(bad))

    def test_good_p54c_passes(self):
        self.dir.add("p54c", fixture_text("p54c.log"), 0)
        rc, out = self.run_boot("p54c")
        self.assertEqual(rc, 0, out)
        self.assertEqual(not_ok_lines(out), [])
        oks = ok_lines(out)
        for what in ("ok - p54c: cpu line matches vendor=GenuineIntel "
                     "family=5 model=2 stepping=5 name=Pentium (P54C)",
                     "ok - p54c: pmu line has kind=p5 counters=2 width=40 "
                     "rdpmc=no mmx_events=no",
                     "ok - p54c: no result p5/cc-* is skip",
                     "ok - p54c: result p5/cc-111 is ok",
                     "ok - p54c: volume log equals the serial log",
                     "ok - p54c: plan 1..21 equals 21 results"):
            self.assertIn(what, oks)

    def test_failing_p5_result_fails(self):
        # What `make check` let through before: a P5 test that fails.
        self.dir.add("p54c", fixture_text("p54c-p5-fail.log"), 1)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "run failed: not ok 12 - p5/cc-010")
        # ... also when the exit status claims a pass
        self.dir.add("p54c", fixture_text("p54c-p5-fail.log"), 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "exit status 0, the results say verdict 1",
                         "run failed: not ok 12 - p5/cc-010")

    def test_forbidden_skip_fails(self):
        log = fixture_text("p54c.log").replace(
            "ok 13 - p5/cc-011", "ok 13 - p5/cc-011 # SKIP no model")
        log = log.replace("passed=20 failed=0 skipped=1",
                          "passed=19 failed=0 skipped=2")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "forbidden: result p5/cc-* is skip: "
                                  "13 - p5/cc-011 # SKIP no model")

    def test_no_results_is_a_failed_run(self):
        log = fixture_text("selftest.log")
        log = log[:log.index("not ok 1")] + \
            "1..0\r\n# summary: passed=0 failed=0 skipped=0\r\n"
        self.dir.add("selftest", log, 1)
        rc, out = self.run_boot("selftest")
        self.assertFails(out, rc, "plan 1..0 but 0 results")
        self.assertIn("ok - selftest: exit status 1 matches the summary", out)

    def test_required_result_missing_fails(self):
        log = fixture_text("p54c.log").replace("p5/cc-111", "p5/cc-11x")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no result p5/cc-111 (expected ok)")

    def test_cpu_line_disagrees_fails(self):
        # The log of a different -cpu than the table's entry names.
        log = fixture_text("p54c.log").replace(
            "family=5 model=2 stepping=5", "family=5 model=4 stepping=3")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "cpu line is '# cpu: vendor=GenuineIntel "
                                  "family=5 model=4 stepping=3")
        log = fixture_text("p54c.log").replace('name="Pentium (P54C)"',
                                               'name="Pentium (P55C)"')
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "name=Pentium (P55C), expected")

    def test_pmu_and_backend_fields_fail(self):
        log = fixture_text("p54c.log").replace("rdpmc=no", "rdpmc=yes")
        log = log.replace("# backend: model", "# backend: hw")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "pmu line has rdpmc=yes, expected",
                         "backend is hw, expected model")

    def test_required_line_missing_fails(self):
        log = fixture_text("p54c.log").replace("  rdpmc_exists: 0",
                                               "  rdpmc_exists: 1")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no line matches /^  rdpmc_exists: 0/")

    def test_forbidden_line_fails(self):
        m = self.dir.path / "m.yaml"
        m.write_text((FIXTURES / "matrix.yaml").read_text().replace(
            "    require_lines:\n", "    forbid_lines: ['^# error: ']\n"
                                    "    require_lines:\n", 1))
        self.dir.add("p54c", fixture_text("p54c.log"), 0)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertEqual(rc, 0, out)
        self.assertIn("ok - p54c: no /^# error: /", out)
        log = fixture_text("p54c.log").replace(
            "ok 1 - ", "# error: option x: y\r\nok 1 - ")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertFails(out, rc, "unexpected /^# error: /: # error: option "
                                  "x: y")

    def test_header_missing_fails(self):
        log = fixture_text("p54c.log").replace(
            "# harness: pmu-harness 0.1.0\r\n", "")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "missing header # harness:")
        log = fixture_text("p54c.log").replace('# backend: model reason="',
                                               "# backend: model why=\"")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "header '# backend: model why=")

    def test_plan_mismatch_fails(self):
        log = fixture_text("p54c.log").replace("1..21", "1..22")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "plan 1..22 but 21 results")
        log = fixture_text("p54c.log").replace(
            "passed=20 failed=0", "passed=21 failed=0")
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "summary 'passed=21 failed=0 skipped=1' but "
                                  "counted passed=20")

    def test_no_summary_fails(self):
        self.dir.add("p54c", fixture_text("no-summary.log"), 0)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no '# summary:' line",
                         "log has 1 parse error(s)")

    def test_truncated_fails(self):
        self.dir.add("p54c", fixture_text("truncated.log"), 124)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "plan 1..missing but 12 results",
                         "no '# summary:' line", "not closed",
                         "exit status 124")

    def test_bail_out_fails(self):
        log = fixture_text("selftest.log").replace(
            "1..4\r\n", "Bail out! ring3 setup failed\r\n1..4\r\n")
        self.dir.add("selftest", log, 1)
        rc, out = self.run_boot("selftest")
        self.assertFails(out, rc, "harness bailed out: Bail out! ring3 setup "
                                  "failed")

    def test_missing_and_unreadable_log_fail(self):
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "cannot read")
        (self.dir.path / "p54c.log").mkdir()
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "cannot read")

    def test_no_tap_fails(self):
        self.dir.add("p54c", "BdsDxe: failed to load Boot0002\r\n", 3,
                     volume=None)
        (self.dir.path / "p54c.stderr").write_text(
            "qemu: qemu-system-x86_64: unable to find CPU model 'x'\n")
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no 'TAP version 13' line",
                         "unable to find CPU model")

    def test_missing_status_fails(self):
        self.dir.add("p54c", fixture_text("p54c.log"), None)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no qemu-boot exit status recorded")

    def test_volume_log_fails(self):
        serial = fixture_text("p54c.log")
        self.dir.add("p54c", serial, 0, volume=None)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "no log file on the boot volume")
        vol = serial[serial.index("TAP version 13"):].replace("\r", "")
        self.dir.add("p54c", serial, 0, volume=vol.replace("ok 5 -", "ok 6 -"))
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "volume log differs from the serial log at "
                                  "TAP line")

    def test_selftest_expects_failure(self):
        self.dir.add("selftest", fixture_text("selftest.log"), 1)
        rc, out = self.run_boot("selftest")
        self.assertEqual(rc, 0, out)
        self.assertIn("ok - selftest: run failed as expected", out)
        self.assertIn("ok - selftest: result selftest/unexpected-ud is not "
                      "ok", out)
        log = fixture_text("selftest.log").replace(
            "not ok 2 - selftest/fails-by-design",
            "ok 2 - selftest/fails-by-design").replace(
            "passed=1 failed=3", "passed=2 failed=2")
        self.dir.add("selftest", log, 1)
        rc, out = self.run_boot("selftest")
        self.assertFails(out, rc, "result selftest/fails-by-design expected "
                                  "not ok: ok 2")

    def test_shutdown_verdict(self):
        m = self.dir.path / "m.yaml"
        m.write_text((FIXTURES / "matrix.yaml").read_text().replace(
            "verdict: pass", "verdict: shutdown"))
        self.dir.add("p54c", fixture_text("p54c.log"), 3)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertEqual(rc, 0, out)
        self.assertIn("ok - p54c: QEMU powered off without isa-debug-exit",
                      out)
        self.dir.add("p54c", fixture_text("p54c.log"), 0)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertFails(out, rc, "exit status 0, expected 3")

    def test_untested_verdict(self):
        # A run whose summary says verdict=untested (nothing failed, no PMU
        # test ran) ends with qemu-boot.sh's 77: a boot that expects a
        # pass fails on it, one that expects untested passes, and status
        # 0 for such a log disagrees with the summary.
        log = fixture_text("p54c.log").replace(
            "passed=20 failed=0 skipped=1",
            'passed=20 failed=0 skipped=1 verdict=untested reason="all 3 '
            'selected PMU tests skipped (first p5/x: no backend)"')
        self.assertIn("verdict=untested", log)
        self.dir.add("p54c", log, 77)
        rc, out = self.run_boot("p54c")
        self.assertFails(out, rc, "run untested (verdict=untested reason="
                                  "\"all 3 selected PMU tests skipped")
        self.assertIn("ok - p54c: exit status 77 matches the summary", out)
        m = self.dir.path / "m.yaml"
        m.write_text((FIXTURES / "matrix.yaml").read_text().replace(
            "verdict: pass", "verdict: untested"))
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertEqual(rc, 0, out)
        self.assertIn("ok - p54c: run untested as expected: all 3 selected "
                      "PMU tests skipped (first p5/x: no backend)", out)
        self.dir.add("p54c", log, 0)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertFails(out, rc, "exit status 0, the results say verdict 77")
        # A passing log is not untested.
        self.dir.add("p54c", fixture_text("p54c.log"), 0)
        rc, out = self.run_boot("p54c", matrix=m)
        self.assertFails(out, rc, "run passed, untested was expected")

    def test_unknown_boot_name_fails(self):
        rc, out = self.run_boot("no-such-boot")
        self.assertFails(out, rc, "no-such-boot: no such boot in")


class BrokenTable(unittest.TestCase):
    """A table that hands the checker a broken expectation fails it."""

    def setUp(self):
        self.dir = LogDir()
        self.addCleanup(self.dir.cleanup)
        self.dir.add("p54c", fixture_text("p54c.log"), 0)

    def table(self, old, new):
        text = (FIXTURES / "matrix.yaml").read_text()
        self.assertIn(old, text)
        m = self.dir.path / "broken.yaml"
        m.write_text(text.replace(old, new, 1))
        return check_matrix("--logs", str(self.dir.path), "p54c", matrix=m)

    def assertTableFails(self, rc, out, fragment):
        self.assertNotEqual(rc, 0, out)
        bad = not_ok_lines(out)
        self.assertTrue(any("table" in l and fragment in l for l in bad),
                        f"{fragment!r} not in {bad}")
        # the broken entry is not checked with what was left of it
        self.assertFalse(any(l.startswith("ok - p54c:") for l in
                             out.splitlines()), out)

    def test_bad_regex(self):
        rc, out = self.table("'^  rdpmc_exists: 0'", "'^  rdpmc_exists: (0'")
        self.assertTableFails(rc, out, "bad regex in 'require_lines[0]'")

    def test_unknown_key(self):
        rc, out = self.table("    require_lines:", "    requires_lines:")
        self.assertTableFails(rc, out, "unknown key 'requires_lines'")

    def test_missing_field(self):
        rc, out = self.table("    verdict: pass\n", "")
        self.assertTableFails(rc, out, "missing field 'verdict'")

    def test_wrong_type(self):
        rc, out = self.table('rdpmc: "no"', "rdpmc: no")
        self.assertTableFails(rc, out, "'expect_pmu.rdpmc' must be str or "
                                       "int, not bool")

    def test_table_not_yaml(self):
        rc, out = self.table("boots:", "boots: [")
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok - matrix: table", out)

    def test_missing_table(self):
        rc, out = check_matrix("--logs", str(self.dir.path),
                               matrix=self.dir.path / "none.yaml")
        self.assertNotEqual(rc, 0, out)
        self.assertIn("cannot read", out)


class BootMode(unittest.TestCase):
    """Booting through tools/boot/qemu-boot.sh, with a fake QEMU that writes a
    fixture log to the serial file and to the boot volume."""

    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-boot-mode-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def boot(self, status, serial, volume, stderr="", jobs="2",
             process=False):
        """matrix.py boots p54c (in this process, support.matrix_main;
        process=True: `python3 -m tools.check.matrix` itself)."""
        env = fake_qemu(self.tmp, status, serial, stderr, volume)
        env["JOBS"] = jobs
        argv = ["--matrix", str(FIXTURES / "matrix.yaml"), "--out",
                str(self.tmp / "out"), "--vars", str(OVMF_VARS), "p54c"]
        if process:
            return run_tool([PY, "-m", "tools.check.matrix", *argv],
                            env=env)
        return matrix_main(*argv, env=env)

    def test_warm_vars_missing(self):
        env = fake_qemu(self.tmp, 1, fixture_text("p54c.log"), "", None)
        rc, out = matrix_main("--matrix", str(FIXTURES / "matrix.yaml"),
                              "--out", str(self.tmp / "out"), "--vars",
                              str(self.tmp / "none.fd"), "p54c", env=env)
        self.assertNotEqual(rc, 0, out)
        self.assertIn(f"not ok - matrix: no vars {self.tmp / 'none.fd'} "
                      "(make ovmf-vars): its boots are left out", out)
        self.assertFalse((self.tmp / "fake.argv.json").exists())

    def test_pass(self):
        # the command itself, in a process of its own
        serial = fixture_text("p54c.log")
        rc, out = self.boot(1, serial, tap_part(serial), process=True)
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r"(?m)^# boot p54c: \d+\.\d s, cpu \d+\.\d s$")
        self.assertIn("ok - p54c: volume log equals the serial log", out)
        o = self.tmp / "out"
        self.assertEqual((o / "p54c.status").read_text(), "0\n")
        self.assertEqual((o / "p54c.volume.log").read_text(),
                         tap_part(serial))
        self.assertFalse((o / "p54c.disk").exists())

    def test_failing_p5_result(self):
        serial = fixture_text("p54c-p5-fail.log")
        rc, out = self.boot(3, serial, tap_part(serial))
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok - p54c: run failed: not ok 12 - p5/cc-010", out)
        self.assertIn("ok - p54c: exit status 1 matches the summary", out)
        self.assertEqual((self.tmp / "out" / "p54c.status").read_text(),
                         "1\n")

    def test_qemu_fails_to_start(self):
        rc, out = self.boot(1, "", None, "qemu-system-x86_64: unable to find "
                                         "CPU model 'x'\n")
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok - p54c: no 'TAP version 13' line", out)
        self.assertIn("unable to find CPU model", out)

    def test_no_volume_log(self):
        rc, out = self.boot(1, fixture_text("p54c.log"), None)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok - p54c: no log file on the boot volume: no "
                      "*.log file in \\pmu-harness (it is empty)", out)

    def test_bad_jobs(self):
        rc, out = self.boot(1, fixture_text("p54c.log"), None, jobs="zero")
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok - matrix: JOBS='zero' is not a positive number",
                      out)


class BootEnv(unittest.TestCase):
    def entry(self, boot, cpu):
        boots, errors = boottable.loads(
            f"boots:\n - name: e\n   boot: {boot}\n   cpu: {cpu}\n"
            "   verdict: pass\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(errors, [])
        return boots[0]

    def test_bochs_gets_an_alsa_with_no_device(self):
        out = Path(tempfile.mkdtemp(prefix="pmu-boot-env-"))
        self.addCleanup(shutil.rmtree, out, True)
        env = cm.boot_env(self.entry("bochs-cd", "pentium"), out)
        conf = Path(env["ALSA_CONFIG_PATH"])
        self.assertEqual(conf.parent, out)
        self.assertEqual(conf.read_bytes(), b"")

    def test_qemu_boots_keep_the_environment(self):
        out = Path(tempfile.mkdtemp(prefix="pmu-boot-env-"))
        self.addCleanup(shutil.rmtree, out, True)
        with mock.patch.dict("os.environ", {"ALSA_CONFIG_PATH": "/x"}):
            env = cm.boot_env(self.entry("uefi", "Nehalem"), out)
        self.assertEqual(env["ALSA_CONFIG_PATH"], "/x")


class RunTimed(unittest.TestCase):
    def test_status_and_cpu_of_the_script_and_its_children(self):
        with tempfile.TemporaryFile() as err:
            status, cpu = cm.run_timed(
                [PY, "-c", "import subprocess, sys; subprocess.run([sys."
                 "executable, '-c', 'import time\\nt = time.process_time()"
                 "\\nwhile time.process_time() - t < 0.3: pass']); "
                 "raise SystemExit(3)"], err, None, 60)
        self.assertEqual(status, 3)
        self.assertGreaterEqual(cpu, 0.3)

    def test_past_the_limit(self):
        with tempfile.TemporaryFile() as err:
            with self.assertRaises(cm.subprocess.TimeoutExpired):
                cm.run_timed([PY, "-c", "import time; time.sleep(30)"], err,
                             None, 0.5)


class Argv(unittest.TestCase):
    def test_boot_argv_is_a_list_of_data(self):
        boots, errors = boottable.loads(
            "boots:\n - name: x\n   cpu: \"Nehalem;touch /tmp/p\"\n"
            "   options: \"a'; touch /tmp/q; '\"\n   verdict: pass\n"
            "   com4: true\n   vga: true\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(errors, [])
        from pathlib import Path
        argv = cm.boot_argv(boots[0], Path("img"), Path("out"))
        self.assertEqual(argv[1:], [
            "--image", "img", "--cpu", "Nehalem;touch /tmp/p",
            "--args", "a'; touch /tmp/q; '", "--log", "out/x.log",
            "--timeout", "180", "--keep", "out/x.disk", "--com4", "--vga",
            "--vars", str(cm.WARM_VARS)])

    def test_nvram_fresh_starts_empty(self):
        boots, errors = boottable.loads(
            "boots:\n - name: f\n   cpu: Nehalem\n   verdict: pass\n"
            "   nvram: fresh\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(errors, [])
        self.assertNotIn("--vars", cm.boot_argv(boots[0], Path("img"),
                                                Path("out")))

    def test_nvram_is_warm_or_fresh(self):
        boots, errors = boottable.loads(
            "boots:\n - name: f\n   cpu: Nehalem\n   verdict: pass\n"
            "   nvram: hot\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(boots, [])
        self.assertIn("'nvram' is 'hot', expected one of warm, fresh",
                      str(errors))

    def test_boot_argv_smp(self):
        boots, errors = boottable.loads(
            "boots:\n - name: ht\n   cpu: Nehalem\n"
            "   smp: 2,sockets=1,cores=1,threads=2\n   verdict: pass\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(errors, [])
        from pathlib import Path
        argv = cm.boot_argv(boots[0], Path("img"), Path("out"))
        self.assertEqual(argv[1:], [
            "--image", "img", "--cpu", "Nehalem", "--args", "",
            "--log", "out/ht.log", "--timeout", "180", "--keep",
            "out/ht.disk", "--smp", "2,sockets=1,cores=1,threads=2",
            "--vars", str(cm.WARM_VARS)])

    def test_boot_argv_bochs_smp(self):
        """A Bochs boot's smp names packages, cores and threads: bochs-boot.sh
        --smp P:C:T (Bochs's cpu count=P:C:T); other forms are refused."""
        from pathlib import Path
        head = ("boots:\n - name: b\n   cpu: p4_willamette\n"
                "   boot: bochs-cd\n   verdict: pass\n"
                "   expect_cpu: {vendor: V, family: 1, model: 2, "
                "stepping: 3}\n   expect_pmu: {kind: none}\n"
                "   expect_backend: {name: none}\n")
        boots, errors = boottable.loads(
            head + "   smp: 2,sockets=1,cores=1,threads=2\n")
        self.assertEqual(errors, [])
        argv = cm.boot_argv(boots[0], {"image": Path("i")}, Path("out"))
        self.assertEqual(argv[argv.index("--smp") + 1], "1:1:2")
        boots, errors = boottable.loads(head)
        self.assertNotIn("--smp", cm.boot_argv(boots[0], {"image": Path("i")},
                                               Path("out")))
        for spec in ("2", "2,cores=2", "2,sockets=1,cores=1,threads=2,"
                     "maxcpus=2", "10,sockets=1,cores=1,threads=10"):
            boots, errors = boottable.loads(head + f"   smp: {spec!r}\n")
            self.assertEqual(boots, [], spec)
            self.assertIn("of a Bochs boot must be N,sockets=P", str(errors))

    def test_boot_argv_no_hpet(self):
        """no_hpet: a QEMU BIOS boot without an HPET (the PIT watchdog);
        refused elsewhere."""
        from pathlib import Path
        head = ("boots:\n - name: p\n   cpu: pentium3\n   verdict: pass\n"
                "   expect_cpu: {vendor: V, family: 1, model: 2, "
                "stepping: 3}\n   expect_pmu: {kind: none}\n"
                "   expect_backend: {name: none}\n   no_hpet: true\n")
        boots, errors = boottable.loads(head + "   boot: bios-kernel\n")
        self.assertEqual(errors, [])
        argv = cm.boot_argv(boots[0], {"kernel": Path("k")}, Path("out"))
        self.assertEqual(argv.count("--no-hpet"), 1)
        self.assertEqual(argv[argv.index("--bios") + 1], "kernel")
        for kind in ("uefi", "bochs-cd"):
            boots, errors = boottable.loads(head + f"   boot: {kind}\n")
            self.assertEqual(boots, [])
            self.assertIn("'no_hpet' is for QEMU BIOS boots only",
                          str(errors))
        boots, errors = boottable.loads(head.replace("true", "'yes'") +
                                        "   boot: bios-kernel\n")
        self.assertIn("'no_hpet' must be bool, not str", str(errors))
        acpi = head.replace("no_hpet", "no_acpi")
        boots, errors = boottable.loads(acpi + "   boot: bios-kernel\n")
        self.assertEqual(errors, [])
        argv = cm.boot_argv(boots[0], {"kernel": Path("k")}, Path("out"))
        self.assertEqual((argv.count("--no-acpi"), argv.count("--no-hpet")),
                         (1, 0))
        boots, errors = boottable.loads(acpi + "   boot: uefi\n")
        self.assertIn("'no_acpi' is for QEMU BIOS boots only", str(errors))


if __name__ == "__main__":
    unittest.main()


class FlushPolicy(unittest.TestCase):
    """The "# log-file:" tally against the flush policy's own bounds
    (boot/logflush.c): interval flushes wait 250 ms and the previous
    flush's time after it.  Numbers are hand-computed microseconds."""

    def errs(self, n, interval, urgent, busy, longest, span):
        from tools.check import logcheck
        return logcheck.flush_policy_errors(n, interval, urgent, busy,
                                            longest, span)

    def test_a_slow_medium_run_keeps_the_bounds(self):
        # conroe at 50 writes a second: 11 x 250 ms = 2.75 s <= 4.77 s
        # idle; 0.23 s of flushing <= 4.77 s + 2 x 0.047 s
        self.assertEqual(self.errs(12, 11, 1, 226333, 46842, 4994992), [])

    def test_flush_after_every_test_breaks_both(self):
        # 180 flushes after passing tests in a 9.4 s span, 7.6 s of them
        # flushing: 180 x 250 ms = 45 s of waits in 1.76 s idle, and 7.6 s
        # > 1.76 s + 2 x 0.18 s
        e = self.errs(181, 180, 1, 7622812, 179053, 9386334)
        self.assertEqual(len(e), 2, e)
        self.assertIn("180 interval flushes need 180 x 250 ms", e[0])
        self.assertIn("flushing took 7622812 us", e[1])

    def test_four_a_second_at_the_edge(self):
        # 4 interval flushes of 100 us: 1 s of waits needs 1 000 000 us
        # idle, with 4 + 1 us for the rounding
        self.assertEqual(self.errs(4, 4, 0, 400, 100, 1000400), [])
        self.assertEqual(self.errs(4, 4, 0, 400, 100, 1000395), [])
        e = self.errs(4, 4, 0, 400, 100, 1000394)
        self.assertEqual(len(e), 1, e)
        self.assertIn("4 interval flushes", e[0])

    def test_slow_flushes_at_most_double(self):
        # urgent 300 ms, wait 300, interval 300, wait 300, interval 300:
        # busy 0.9 s <= idle 0.6 s + (1 + 1) x 0.3 s
        self.assertEqual(self.errs(3, 2, 1, 900000, 300000, 1500000), [])
        # three flushes of 400 ms with 300 ms between them in all:
        # 1.2 s of flushing > 0.3 s + (1 + 1) x 0.4 s
        e = self.errs(3, 2, 1, 1200000, 400000, 1200000 + 300000)
        self.assertTrue(any("flushing took 1200000 us" in x for x in e), e)

    def test_inconsistent_tally(self):
        e = self.errs(5, 2, 2, 10, 20, 5)
        self.assertTrue(any("flushes=5 is not interval=2 + urgent=2" in x
                            for x in e), e)
        self.assertTrue(any("longest_us=20 <= flush_us=10" in x
                            for x in e), e)

    def check(self, boot_text, comments):
        from types import SimpleNamespace
        from tools.check import logcheck
        boots, errors = boottable.loads(boot_text)
        self.assertEqual(errors, [])
        out = []
        log = SimpleNamespace(comments=[SimpleNamespace(text=c)
                                        for c in comments])
        logcheck._check_flush_policy(boots[0], log,
                                     lambda ok, what: out.append((ok, what)))
        return out

    HEAD = ("boots:\n - name: u\n   cpu: Conroe\n   verdict: pass\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")

    def test_slow_medium_boot_needs_the_tally(self):
        self.assertEqual(self.check(self.HEAD, []), [])
        got = self.check(self.HEAD + "   write_iops: 50\n", [])
        self.assertEqual(got, [(False, "no '# log-file:' line (the flush "
                                       "policy's tally)")])
        got = self.check(self.HEAD, ["log-file: flushes=1"])
        self.assertFalse(got[0][0])
        got = self.check(self.HEAD, [
            "log-file: flushes=2 interval=1 urgent=1 flush_us=20 "
            "longest_us=10 span_us=250030"])
        self.assertEqual(got[0][0], True, got)

    def test_write_iops_key(self):
        boots, errors = boottable.loads(self.HEAD + "   write_iops: 50\n")
        self.assertEqual(errors, [])
        argv = cm.boot_argv(boots[0], Path("img"), Path("out"))
        i = argv.index("--write-iops")
        self.assertEqual(argv[i + 1], "50")
        _, errors = boottable.loads(self.HEAD + "   write_iops: 0\n")
        self.assertIn("'write_iops' must be >= 1", str(errors))
        _, errors = boottable.loads(self.HEAD + "   write_iops: 50\n"
                                    "   boot: bios-kernel\n")
        self.assertIn("'write_iops' is for UEFI boots only", str(errors))


class WatchdogStops(unittest.TestCase):
    """A timed-out result's stops against the watchdog's own rules, in its
    own clock (arch/x86/watchdog.h, struct wd_event; issue 46): the first
    stop not before limit_s, a root stop not before grace_s after it, and
    nothing said of how late, which is the host's load.  Values are
    hand-written YAML blocks as the runner writes them."""

    def errs(self, **y):
        from tools.check import logcheck
        return logcheck.watchdog_stop_errors(y)

    ROOT = "at the test's root frame (it ignored the first stop)"

    def test_stopped_on_time_or_late(self):
        self.assertEqual(self.errs(limit_s="1.000", watchdog_stop_s="1.000"),
                         [])
        # a busy host: the NMI came 2 s late; not the harness's to bound
        self.assertEqual(self.errs(limit_s="1.000", watchdog_stop_s="3.002"),
                         [])
        # YAML's floats, and 1 ms of rounding
        self.assertEqual(self.errs(limit_s=1.0, watchdog_stop_s=0.999), [])

    def test_stopped_early(self):
        e = self.errs(limit_s="1.000", watchdog_stop_s="0.998")
        self.assertEqual(len(e), 1, e)
        self.assertIn("before the limit of 1000 ms", e[0])

    def test_root_stop_after_the_grace(self):
        ok = dict(limit_s="1.000", watchdog_stop_s="1.004", grace_s="2.000",
                  watchdog_root_stop_s="3.004", stopped=self.ROOT)
        self.assertEqual(self.errs(**ok), [])
        ok["watchdog_root_stop_s"] = "9.500"    # late: fine
        self.assertEqual(self.errs(**ok), [])
        ok["watchdog_root_stop_s"] = "2.500"    # 1.496 s after the first
        e = self.errs(**ok)
        self.assertEqual(len(e), 1, e)
        self.assertIn("less than the grace of 2000 ms", e[0])

    def test_missing_values(self):
        self.assertIn("not both seconds",
                      self.errs(limit_s="1.000")[0])
        e = self.errs(limit_s="1.000", watchdog_stop_s="1.000",
                      stopped=self.ROOT)
        self.assertIn("a root stop without grace_s", e[0])


class SkipReasons(unittest.TestCase):
    """The generic must-not-skip rule (logcheck.SKIP_REASONS): a SKIP is
    accepted only when its reason says the test does not apply here."""

    def bad(self, *reasons):
        from tools.check import logcheck
        from tools.lab import pmulog
        lines = [f"ok {i} - g/t{i} # SKIP {r}"
                 for i, r in enumerate(reasons, 1)]
        log = pmulog.parse("TAP version 13\n" + "\n".join(lines) +
                           f"\n1..{len(lines)}\n")
        return logcheck.skip_reason_errors(log.results)

    def test_does_not_apply_forms(self):
        self.assertEqual(self.bad(
            "kind=netburst: this CPU has no p5 PMU",
            "no sibling logical processor: BIOS boot: no firmware MP service",
            "no Intel PT: CPUID.07H:EBX[25] (Intel PT) is clear",
            "no PEBS: IA32_MISC_ENABLE bit 12 (PEBS unavailable) is set",
            "PEBS format 4: adaptive records came with format 4",
            "needs architectural perfmon v2, CPUID.0AH:EAX[7:0] = 1",
            "LLC Misses not modelled: the trace has no caches",
            "pointer-chase: needs 8 MiB, 3 MiB free",
            "no HT (CPUID.01H EDX.HTT=0, EBX[23:16]=1): T1 bits"), [])

    def test_other_reasons_fail(self):
        self.assertEqual(self.bad("no memory", "not implemented yet",
                                  "", "LLC Misses not modelled"),
                         ["1 - g/t1 # SKIP no memory",
                          "2 - g/t2 # SKIP not implemented yet",
                          "3 - g/t3 # SKIP ",
                          "4 - g/t4 # SKIP LLC Misses not modelled"])

    def test_every_boot_checks_them(self):
        from tools.check import logcheck
        from tools.lab import pmulog
        boots, errors = boottable.loads(
            "boots:\n - name: x\n   cpu: Nehalem\n   verdict: pass\n"
            "   expect_cpu: {vendor: V, family: 1, model: 2, stepping: 3}\n"
            "   expect_pmu: {kind: none}\n   expect_backend: {name: none}\n")
        self.assertEqual(errors, [])
        log = pmulog.parse("TAP version 13\nok 1 - a/b # SKIP broke\n1..1\n")
        checks = logcheck.check_boot(boots[0], log, 0, logcheck.Missing("x"))
        bad = [c.what for c in checks if not c.ok
               and c.what.startswith("skip reasons")]
        self.assertEqual(bad, ["skip reasons not of a 'does not apply' form "
                               "(logcheck.SKIP_REASONS): 1 - a/b # SKIP "
                               "broke"])
