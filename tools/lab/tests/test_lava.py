"""Tests of tools/lab/lava: the LAVA job definitions and the result checking
of tools/lab/lava/run.py (`make lava`), without LAVA itself.

The jobs' test monitors are applied here the way lava-dispatcher applies
them (lava_dispatcher/actions/test/monitor.py, on a pexpect stream): the
start pattern once, then the end pattern and the result pattern searched
together in the unread text, the earliest match winning (the end on a
tie), each match consuming the text up to its end; the text arrives in
pieces (partial reads), with the serial's line ends as a pty delivers
them ("\\r\\r\\n"), and only the last 4000 characters are searched
(LAVA's pexpect searchwindowsize).  What the monitors report must equal
what tools/lab/pmulog.py reads from the same log, for every result.
"""

import io
import os
import random
import re
import shlex
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path
from unittest import mock

import yaml

from tools.testing.support import FIXTURES, TOOLS, fixture_text
from tools.lab import pmulog
from tools.lab.lava import run as lava_run

LAVA = TOOLS / "lab" / "lava"
JOBS = {"qemu": LAVA / "qemu-uefi.yaml", "bios": LAVA / "qemu-bios.yaml",
        "x86": LAVA / "x86-ipxe.yaml"}
STDERR_FIXTURE = FIXTURES / "lab" / "lava-run.stderr"
LOG_FIXTURES = ["lab/skylake-model.serial.log", "lab/p54c-model.log",
                "lab/p5-inject-fails.log", "p54c.log", "selftest.log",
                "p54c-p5-fail.log", "options-errors.log",
                "logfile-full.log"]
WINDOW = 4000       # lava_dispatcher/shell.py: searchwindowsize=4000
FLAGS = re.DOTALL   # pexpect compiles string patterns with re.DOTALL



def load_job(kind):
    with open(JOBS[kind]) as f:
        return yaml.safe_load(f)


def monitors(job):
    (test,) = [a["test"] for a in job["actions"] if "test" in a]
    return test["monitors"]


def lava_case_id(text):
    """LAVA's sanitising of a captured test_case_id (monitor.py,
    check_patterns): strip, lower case, each run of \\W one '_'."""
    return re.sub(r"\W+", "_", text.strip().lower())


def record(mon, match):
    """What LAVA records for one pattern match (monitor.py
    check_patterns), or None when it records nothing."""
    g = match.groupdict()
    if "result" in g:
        result = (mon.get("fixupdict") or {}).get(g["result"], g["result"])
        if result not in ("pass", "fail", "skip", "unknown") or \
                "test_case_id" not in g:
            return None
        return {"suite": mon["name"], "case": lava_case_id(g["test_case_id"]),
                "test_case_id": g["test_case_id"].strip(), "result": result,
                "measurement": g.get("measurement")}
    if g.get("test_case_id") and g.get("measurement"):
        return {"suite": mon["name"], "case": lava_case_id(g["test_case_id"]),
                "test_case_id": g["test_case_id"].strip(), "result": "pass",
                "measurement": float(g["measurement"])}
    return None


def run_monitors(mons, pieces):
    """Feeds the pieces of console text through the monitors, one after
    the other, as LAVA does.  Returns (records, monitors that saw their
    end)."""
    buf, i, started, ended, out = "", 0, False, 0, []
    for piece in pieces:
        buf += piece
        while i < len(mons):
            buf = buf[-WINDOW:]
            mon = mons[i]
            if not started:
                m = re.compile(mon["start"], FLAGS).search(buf)
                if not m:
                    break
                buf, started = buf[m.end():], True
                continue
            best = None
            for kind in ("end", "pattern"):
                m = re.compile(mon[kind], FLAGS).search(buf)
                if m and (best is None or m.start() < best[1].start()):
                    best = (kind, m)
            if best is None:
                break
            buf = buf[best[1].end():]
            if best[0] == "end":
                i, started, ended = i + 1, False, ended + 1
            else:
                r = record(mon, best[1])
                if r:
                    out.append(r)
    return out, ended


def console(text):
    """A log as LAVA's pexpect reads it from QEMU's serial through a pty:
    every line ends in CR CR LF."""
    return text.replace("\r\n", "\n").replace("\n", "\r\r\n")


def chunkings(text, seed):
    """The same text cut three ways: at line ends, small random pieces,
    and pieces of up to 2000 characters (LAVA reads at most maxread=2000
    at a time: lava_dispatcher/shell.py)."""
    rnd = random.Random(seed)
    yield "lines", text.splitlines(keepends=True)
    for name, top in (("small", 40), ("maxread", 2000)):
        pieces, at = [], 0
        while at < len(text):
            n = rnd.randint(1, top)
            pieces.append(text[at:at + n])
            at += n
        yield name, pieces


def expected_cases(log):
    """pmulog's results as LAVA should record them."""
    return [{"suite": "pmu-harness", "case": lava_case_id(r.name),
             "test_case_id": r.name.strip(),
             "result": {"ok": "pass", "not ok": "fail",
                        "skip": "skip"}[r.status],
             "measurement": None} for r in log.results]


def expected_summary(log):
    s = log.summary
    return [{"suite": "pmu-harness-summary", "case": k, "test_case_id": k,
             "result": "pass", "measurement": float(v)}
            for k, v in (("passed", s.passed), ("failed", s.failed),
                         ("skipped", s.skipped))]


# Names with characters LAVA's case id turns into "_", lines that look
# like results or plans inside YAML blocks, a SKIP and a failure: a log
# written here (the harness writes none of these names today).
ODD = """\
OVMF noise ok 7 - not/a-result
TAP version 13
# harness: pmu-harness test
ok 1 - p5/ctr-wraps-at-2^40
not ok 2 - Odd Name/with spaces (x=1), "quoted"
  ---
  failures:
    - "ok 99 - inside a YAML block"
  oracle: increment 1..5 (a range)
  ...
ok 3 - dots.and:colons # SKIP a reason with # and ok 4 - in it
ok 4 - ok 4 - a name that repeats the prefix
not ok 5 - x # SKIP a failure: TAP skips only ok lines
ok 6 - ünïcode/naïve
1..6
# summary: passed=3 failed=2 skipped=1
"""


class JobDefinitions(unittest.TestCase):
    """The job files have what LAVA's job schema requires."""

    def test_required_keys(self):
        for kind in JOBS:
            with self.subTest(job=kind):
                job = load_job(kind)
                for key in ("device_type", "job_name", "timeouts",
                            "visibility", "actions"):
                    self.assertIn(key, job)
                self.assertIn("job", job["timeouts"])
                self.assertEqual([next(iter(a)) for a in job["actions"]],
                                 ["deploy", "boot", "test"])
                for mon in monitors(job):
                    for key in ("name", "start", "end", "pattern"):
                        self.assertIn(key, mon)   # monitor.py accepts()

    def test_device_types_and_boot(self):
        qemu, x86 = load_job("qemu"), load_job("x86")
        self.assertEqual(qemu["device_type"], "qemu")
        self.assertTrue(qemu["context"]["no_kvm"])
        extra = qemu["context"]["extra_options"]
        for opt in ("-machine q35", "-accel tcg", "-cpu Skylake-Client"):
            self.assertIn(opt, extra)
        images = qemu["actions"][0]["deploy"]["images"]
        self.assertEqual(sorted(images), ["disk", "ovmf_code", "ovmf_vars"])
        for label, image in images.items():
            self.assertIn("{%s}" % label, image["image_arg"])
        self.assertIn("if=pflash", images["ovmf_code"]["image_arg"])
        self.assertIn("readonly=on", images["ovmf_code"]["image_arg"])
        self.assertEqual(qemu["actions"][1]["boot"]["method"], "qemu")
        self.assertEqual(x86["device_type"], "x86")
        self.assertEqual(x86["actions"][0]["deploy"]["to"], "tftp")
        self.assertEqual(x86["actions"][1]["boot"]["method"], "ipxe")
        self.assertTrue(any("{KERNEL}" in c
                            for c in x86["actions"][1]["boot"]["commands"]))

    def test_bios_job_boots_the_multiboot_kernel(self):
        # As tools/boot/qemu-boot.sh --bios kernel boots it: qemu-system-
        # i386 -machine pc, the ELF by QEMU's Multiboot -kernel, the
        # harness's options on -append.  lava-server's qemu.jinja2 takes
        # -cpu and -machine for arch i386 from the context's cpu and
        # machine (defaults core2duo, pc).
        bios = load_job("bios")
        self.assertEqual(bios["device_type"], "qemu")
        context = bios["context"]
        self.assertEqual(context["arch"], "i386")
        self.assertEqual(context["machine"], "pc")
        self.assertEqual(context["cpu"], "pentium3")
        self.assertTrue(context["no_kvm"])
        self.assertIn("-accel tcg", context["extra_options"])
        self.assertFalse([o for o in context["extra_options"]
                          if o.startswith(("-cpu", "-machine"))])
        self.assertIn("-device isa-debug-exit,iobase=0xf4,iosize=0x04",
                      context["extra_options"])
        deploy = bios["actions"][0]["deploy"]
        self.assertEqual(deploy["to"], "tmpfs")
        self.assertEqual(sorted(deploy["images"]), ["kernel"])
        self.assertEqual(bios["actions"][1]["boot"]["method"], "qemu")

    def test_bios_kernel_image_arg(self):
        # LAVA substitutes {kernel} with the downloaded file's path and
        # starts QEMU through pexpect, which splits the command line into
        # words as a POSIX shell would (no shell runs): shlex.split here.
        arg = load_job("bios")["actions"][0]["deploy"]["images"][
            "kernel"]["image_arg"]
        words = shlex.split(arg.replace("{kernel}",
                                        "/var/lib/lava/tmp/1/pmu-harness.elf"))
        self.assertEqual(words, ["-kernel",
                                 "/var/lib/lava/tmp/1/pmu-harness.elf",
                                 "-append", "tests=* timeout=30"])

    def test_all_jobs_share_the_monitors(self):
        # LAVA's results of each job compare with the TAP log the same way.
        self.assertEqual(monitors(load_job("qemu")),
                         monitors(load_job("x86")))
        self.assertEqual(monitors(load_job("qemu")),
                         monitors(load_job("bios")))

    def test_action_timeouts_within_the_job(self):
        for kind in JOBS:
            job = load_job(kind)
            limit = job["timeouts"]["job"]["minutes"]
            for a in job["actions"]:
                t = next(iter(a.values())).get("timeout", {})
                self.assertLessEqual(t.get("minutes", 0), limit)


class Docs(unittest.TestCase):
    """What the LAVA docs say about the jobs and the harness holds."""

    TEXTS = (TOOLS / "lab" / "lava" / "README.md",
             TOOLS.parent / "docs" / "lab.md")

    def test_no_stale_claims(self):
        makefile = (TOOLS.parent / "Makefile").read_text()
        self.assertRegex(makefile, r"(?m)^i386:")   # the Multiboot kernel
        for path in self.TEXTS:
            text = " ".join(path.read_text().split())
            with self.subTest(doc=path.name):
                # the harness boots on a legacy BIOS too (make i386)
                self.assertNotRegex(text, r"(?i)only as a UEFI application")
                self.assertNotRegex(text, r"(?i)comes with the legacy-boot")
                # a count of the suite's tests goes stale with each test
                self.assertNotRegex(text, r"\b\d+ tests on ")
                # there is one: qemu-bios.yaml (issue 31, item 7)
                for stale in (r"(?i)\bno BIOS\b[^.]* job",
                              r"(?i)\bboth jobs boot UEFI"):
                    m = re.search(stale, text)
                    self.assertIsNone(m, m and f"stale: {m.group(0)!r}")
                self.assertIn("qemu-bios.yaml", text)


class Monitors(unittest.TestCase):
    """The monitor patterns on real logs give pmulog's results."""

    def check_log(self, name, text):
        log = pmulog.parse(text)
        mons = monitors(load_job("qemu"))
        want = expected_cases(log) + expected_summary(log)
        self.assertGreater(len(log.results), 0)
        for how, pieces in chunkings(console(text), name):
            with self.subTest(log=name, read=how):
                got, ended = run_monitors(mons, pieces)
                self.assertEqual(ended, 2, "both monitors saw their end")
                self.assertEqual(len(got), len(want))
                for g, w in zip(got, want):
                    self.assertEqual(g, w)

    def test_fixture_logs(self):
        for name in LOG_FIXTURES:
            self.check_log(name, fixture_text(name))

    def test_fixtures_cover_every_outcome(self):
        seen = set()
        for name in LOG_FIXTURES:
            seen |= {r.status for r in pmulog.parse(fixture_text(name))
                     .results}
        self.assertEqual(seen, {"ok", "not ok", "skip"})

    def test_odd_names(self):
        log = pmulog.parse(ODD)
        self.assertEqual(log.parse_errors, [])
        self.assertEqual([r.status for r in log.results],
                         ["ok", "not ok", "skip", "ok", "not ok", "ok"])
        self.check_log("odd", ODD)
        got, _ = run_monitors(monitors(load_job("qemu")),
                              console(ODD).splitlines(keepends=True))
        self.assertEqual(got[0]["case"], "p5_ctr_wraps_at_2_40")
        self.assertEqual(got[1]["case"], "odd_name_with_spaces_x_1_quoted_")

    def test_truncated_log_stops_without_end(self):
        text = fixture_text("lab/truncated-kill.log")
        log = pmulog.parse(text)
        got, ended = run_monitors(monitors(load_job("qemu")),
                                  console(text).splitlines(keepends=True))
        self.assertEqual(ended, 0)      # LAVA: the job ends incomplete
        self.assertEqual(got, expected_cases(log))

    def test_a_pattern_without_the_line_end_lookahead_cuts_names(self):
        # The reason for the lookahead: on partial reads a name is cut.
        mons = monitors(load_job("qemu"))
        broken = [dict(mons[0], pattern=mons[0]["pattern"].replace(
            r"(?=\r*\n)", "")), mons[1]]
        text = fixture_text("lab/skylake-model.serial.log")
        log = pmulog.parse(text)
        pieces = dict(chunkings(console(text), "cut"))["small"]
        got, _ = run_monitors(broken, pieces)
        self.assertNotEqual(got, expected_cases(log) + expected_summary(log))

    def test_case_id_of_run_py_is_lavas(self):
        for r in pmulog.parse(ODD).results:
            self.assertEqual(lava_run.case_id(r.name), lava_case_id(r.name))


class LavaRunOutput(unittest.TestCase):
    """run.py's reading of a real lava-run log (fixture: lab/
    lava-run.stderr, tests=detect/*,selftest/*,p5/cc-01*,p5/ctr-wraps*,
    pebs/adaptive-groups on Skylake-Client)."""

    def setUp(self):
        self.text = STDERR_FIXTURE.read_text()
        self.records, self.other = lava_run.read_records(self.text)
        self.log = pmulog.parse(lava_run.target_text(self.records))

    def test_records(self):
        self.assertEqual(self.other, [])
        self.assertEqual(len(self.records), len(self.text.splitlines()))
        self.assertEqual(lava_run.lava_job_result(self.records), "pass")

    def test_target_text_is_the_harness_log(self):
        self.assertTrue(self.log.found_version)
        self.assertEqual(self.log.parse_errors, [])   # quotes unescaped
        self.assertIsNotNone(self.log.summary)
        self.assertEqual({r.status for r in self.log.results},
                         {"ok", "not ok", "skip"})
        # LAVA's "poweroff" (its finalize step) is not the target's
        self.assertNotIn("poweroff", self.log.tap_text)

    def test_quotes_read_back(self):
        # LAVA logs '"' as '\\"'; undone, YAML strings and quoted header
        # fields read as the harness wrote them.
        failed = [r for r in self.log.results if r.status == "not ok"
                  and r.yaml and "failures" in r.yaml]
        self.assertTrue(failed)
        for r in failed:
            self.assertTrue(all(isinstance(f, str)
                                for f in r.yaml["failures"]), r.yaml)
        name = self.log.header("cpu").fields["name"]
        self.assertTrue(name and '"' not in name and "\\" not in name, name)

    def test_cases_and_measurements(self):
        cases = lava_run.lava_cases(self.records, "pmu-harness")
        self.assertEqual([(c.case, c.test_case_id, c.result) for c in cases],
                         [(lava_case_id(r.name), r.name,
                           lava_run.LAVA_RESULT[r.status])
                          for r in self.log.results])
        s = self.log.summary
        self.assertEqual(lava_run.lava_measurements(self.records),
                         {"passed": f"{s.passed:.1f}",
                          "failed": f"{s.failed:.1f}",
                          "skipped": f"{s.skipped:.1f}"})

    def test_compare_matches(self):
        checks = lava_run.compare(self.log, self.records, 0)
        self.assertTrue(all(ok for ok, _ in checks), checks)
        self.assertGreaterEqual(len(checks), 5)

    def altered(self, case_name, key, value):
        """The records with one LAVA result changed."""
        text = self.text
        line = next(l for l in text.splitlines()
                    if '"lvl": "results"' in l and
                    f'"case": "{case_name}"' in l)
        d = yaml.safe_load(line)
        d["msg"][key] = value
        return lava_run.read_records(text.replace(line, yaml.safe_dump(
            d, default_flow_style=True, width=10**6).strip()))[0]

    def bad_checks(self, records, status=0):
        return [t for ok, t in lava_run.compare(self.log, records, status)
                if not ok]

    def test_compare_finds_a_changed_result(self):
        bad = self.bad_checks(self.altered("selftest_fails_by_design",
                                           "result", "pass"))
        self.assertTrue(any("selftest_fails_by_design" in b for b in bad),
                        bad)

    def test_compare_finds_a_changed_name(self):
        bad = self.bad_checks(self.altered("p5_cc_010", "case", "p5_cc_01"))
        self.assertTrue(any("case 5:" in b for b in bad), bad)

    def test_compare_finds_a_wrong_measurement(self):
        bad = self.bad_checks(self.altered("skipped", "measurement", "3.0"))
        self.assertTrue(any("measurements" in b for b in bad), bad)

    def test_compare_finds_a_missing_case(self):
        records = [r for r in self.records
                   if not (r.lvl == "results" and
                           r.msg.get("case") == "pebs_adaptive_groups")]
        bad = self.bad_checks(records)
        self.assertTrue(any("not in LAVA" in b for b in bad), bad)

    def test_compare_finds_a_failed_job(self):
        self.assertTrue(self.bad_checks(self.records, status=1))
        bad = self.bad_checks(self.altered("job", "result", "fail"))
        self.assertTrue(any("job result: fail" in b for b in bad), bad)

    def test_compare_without_tap(self):
        bad = [t for ok, t in lava_run.compare(pmulog.parse("OVMF only\n"),
                                                self.records, 0) if not ok]
        self.assertTrue(any("TAP version 13" in b for b in bad), bad)

    def test_log_only_notes(self):
        self.assertEqual(lava_run.log_only(self.log), [])
        log = pmulog.parse("TAP version 13\nok 1 - a/b\nBail out! it broke"
                           "\n# error: log file: full (EFI_VOLUME_FULL)\n"
                           "1..1\n# summary: passed=1 failed=0 skipped=0\n")
        notes = lava_run.log_only(log)
        self.assertEqual(len(notes), 2, notes)
        self.assertIn("Bail out! it broke (serial.log line 3)", notes)

    def test_other_lines_kept(self):
        records, other = lava_run.read_records(
            "Traceback (most recent call last):\n" + self.text)
        self.assertEqual(other, [(1, "Traceback (most recent call last):")])
        self.assertEqual(len(records), len(self.records))


# lava-server's device-types/qemu.jinja2, the part that reads the job
# context for arch i386 and amd64 (lava-server 2023.01): the QEMU binary
# by arch, "-cpu {{ cpu|default('core2duo') }}" and "-machine
# {{ machine|default('pc') }}" for i386, "-cpu host -enable-kvm" for
# amd64 unless no_kvm, then extra_options.  A stand-in, written here.
QEMU_TEMPLATE = """\
{% if arch == 'i386' %}command: qemu-system-i386
options: [-cpu {{ cpu|default('core2duo') }}, -machine {{ machine|default('pc') }}]
{% else %}command: qemu-system-x86_64
options: [{% if not no_kvm %}-cpu host, -enable-kvm{% endif %}]
{% endif %}extra: {{ extra_options }}
"""


class RunPy(unittest.TestCase):
    """run.py's preparation steps that need no LAVA."""

    def setUp(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        self.dir = Path(d.name)
        self.img = self.dir / "x.img"
        self.elf = self.dir / "x.elf"
        self.img.write_bytes(b"")
        self.elf.write_bytes(b"")
        self.files = {"disk": self.img, "kernel": self.elf}

    def test_make_job(self):
        job = lava_run.make_job(JOBS["qemu"], self.files, "Penryn")
        disk = job["actions"][0]["deploy"]["images"]["disk"]
        self.assertEqual(disk["url"], self.img.resolve().as_uri())
        self.assertIn("-cpu Penryn", job["context"]["extra_options"])
        self.assertNotIn("-cpu Skylake-Client",
                         job["context"]["extra_options"])

    def test_make_bios_job(self):
        job = lava_run.make_job(JOBS["bios"], self.files, None)
        kernel = job["actions"][0]["deploy"]["images"]["kernel"]
        self.assertEqual(kernel["url"], "file://" + str(self.elf.resolve()))
        self.assertEqual(job["context"]["cpu"], "pentium3")
        job = lava_run.make_job(JOBS["bios"], self.files, "pentium2")
        self.assertEqual(job["context"]["cpu"], "pentium2")
        self.assertFalse([o for o in job["context"]["extra_options"]
                          if o.startswith("-cpu")])

    def test_make_job_needs_its_file(self):
        with self.assertRaisesRegex(lava_run.CannotRun,
                                    "qemu-bios.yaml boots a kernel: give it "
                                    "with --kernel"):
            lava_run.make_job(JOBS["bios"], {"disk": self.img}, None)
        with self.assertRaisesRegex(lava_run.CannotRun,
                                    "no such kernel \\(make i386 builds"):
            lava_run.make_job(JOBS["bios"],
                              {"kernel": self.dir / "none.elf"}, None)
        with self.assertRaisesRegex(lava_run.CannotRun,
                                    "boots a disk: give it with --image"):
            lava_run.make_job(JOBS["qemu"], {"kernel": self.elf}, None)

    def render(self, kind, cpu=None):
        (self.dir / "qemu.jinja2").write_text(QEMU_TEMPLATE)
        job = lava_run.make_job(JOBS[kind], self.files, cpu)
        return yaml.safe_load(lava_run.render_device(self.dir,
                                                     job["context"]))

    def test_bios_device_renders(self):
        device = self.render("bios")
        self.assertEqual(device["command"], "qemu-system-i386")
        self.assertEqual(device["options"], ["-cpu pentium3", "-machine pc"])
        self.assertEqual(device["extra"],
                         load_job("bios")["context"]["extra_options"])
        self.assertEqual(self.render("bios", "Conroe")["options"],
                         ["-cpu Conroe", "-machine pc"])

    def test_uefi_device_renders(self):
        device = self.render("qemu")
        self.assertEqual(device["command"], "qemu-system-x86_64")
        self.assertEqual(device["options"], [])     # no_kvm: no -cpu host
        self.assertIn("-cpu Skylake-Client", device["extra"])

    def test_preflight_says_what_is_missing(self):
        job = lava_run.make_job(JOBS["bios"], self.files, None)
        with mock.patch.object(lava_run.shutil, "which", return_value=None):
            with self.assertRaisesRegex(lava_run.CannotRun,
                                        "lava-run is not installed"):
                lava_run.preflight(job)
        with mock.patch.object(lava_run.shutil, "which",
                               side_effect=lambda t: None if t ==
                               "qemu-system-i386" else "/bin/true"):
            with self.assertRaisesRegex(lava_run.CannotRun,
                                        "qemu-system-i386 is not installed"):
                lava_run.preflight(job)
        uefi = lava_run.make_job(JOBS["qemu"], self.files, None)
        uefi["actions"][0]["deploy"]["images"]["ovmf_code"]["url"] = \
            "file:///usr/share/OVMF/none.fd"
        with mock.patch.object(lava_run.shutil, "which",
                               return_value="/bin/true"):
            with self.assertRaisesRegex(lava_run.CannotRun,
                                        "none.fd is missing \\(Debian "
                                        "package ovmf\\)"):
                lava_run.preflight(uefi)
        with mock.patch.object(lava_run.shutil, "which",
                               return_value="/bin/true"), \
                mock.patch.object(lava_run.os.path, "isfile",
                                  return_value=True), \
                mock.patch.object(lava_run.os, "geteuid",
                                  return_value=1000):
            with self.assertRaisesRegex(lava_run.CannotRun, "root"):
                lava_run.preflight(job)

    def test_main_cannot_run_exits_2(self):
        err = io.StringIO()
        with redirect_stderr(err):
            status = lava_run.main(["run.py", "--image", "/nonexistent.img",
                                    "--job", str(JOBS["qemu"]),
                                    "--out", str(self.dir / "out")])
        self.assertEqual(status, lava_run.EXIT_CANNOT)
        self.assertEqual(err.getvalue(), "lava/run.py: cannot run the LAVA "
                         "job qemu-uefi.yaml here: /nonexistent.img: no such "
                         "image (make image builds it)\n")

    def test_main_runs_each_job(self):
        # Both jobs by default, each in its own directory, the highest
        # exit status returned.
        seen = []

        def run_job(args, job_file, job_id, top):
            seen.append((job_file.name, job_id, top))
            return {"qemu-uefi.yaml": 0, "qemu-bios.yaml": 1}[job_file.name]
        out = io.StringIO()
        with mock.patch.object(lava_run, "run_job", run_job), \
                mock.patch("sys.stdout", out):
            status = lava_run.main(["run.py", "--out", str(self.dir),
                                    "--job-id", "7"])
        self.assertEqual(status, lava_run.EXIT_DIFFER)
        self.assertEqual(seen, [("qemu-uefi.yaml", 7, self.dir.resolve()),
                                ("qemu-bios.yaml", 8, self.dir.resolve())])
        self.assertIn("# job qemu-bios.yaml: exit status 1", out.getvalue())


if __name__ == "__main__":
    unittest.main()
