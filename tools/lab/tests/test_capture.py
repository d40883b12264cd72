"""pmu-harness capture (tools/lab/capture.py, tools/lab/serialclean.py):
serial logs of a row of machines, read from ptys standing in for serial
lines, files and FIFOs.

A "machine" here is an os.openpty() pair: the capture opens the slave by
its path; a writer thread replays a real serial capture into the master
in chunks, split at awkward points (inside an escape sequence, inside
"TAP version 13", between CR and LF).  The expected clean log is
support.tap_part (the fixture from "TAP version 13" on, CRs removed),
computed without the code under test.
"""

import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import tty
import unittest
from pathlib import Path

from tools.testing.support import (FIXTURES, PY, PMU_HARNESS, fixture_text,
                                   harness, tap_part)

from tools.lab import capture, serialclean

SKYLAKE = "lab/skylake-model.serial.log"        # verbose=0, ANSI, CR LF
NEHALEM = "lab/nehalem-verbose.serial.log"      # verbose=1: "# running"
SKYLAKE_SLUG = "core-6th-gen-skylake-0x506e3"
NEHALEM_SLUG = "core-i7-xeon-5500-nehalem-ep-bloomfield-0x106a3"
STAMP = r"\d{8}-\d{6}"


def fixture_bytes(name):
    return (FIXTURES / name).read_bytes()


def expected_log(name):
    return tap_part(fixture_text(name)).encode()


def awkward_points(data):
    """Offsets that split an escape sequence, "TAP version 13", a CR LF
    (first after the TAP line and after the cpu line) and ESC from '['."""
    tap = data.index(b"TAP version 13")
    cpu = data.index(b"# cpu:")
    pts = [data.index(b"\x1b[=3h") + 3, data.index(b"\x1b[01;01H") + 1,
           data.index(b"\x1b[2J") + 1, tap + 7,
           data.index(b"\r\n", tap) + 1, data.index(b"\r\n", cpu) + 1]
    for p in pts:
        assert 0 < p < len(data)
    return pts


def chunks(data, points, seed):
    """data cut at the points and at pseudo-random places between."""
    rng = random.Random(seed)
    cuts = set(points)
    at = 0
    while at < len(data):
        at += rng.randint(1, 3000)
        cuts.add(at)
    cuts = sorted(c for c in cuts if 0 < c < len(data))
    return [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]


def pty_stem(path):
    return capture.port_stem(path)



def sigint_default():
    """In the child: SIGINT as a terminal would deliver it.  A test run
    started in the background by a non-interactive shell (as CI may start
    make check) inherits SIGINT ignored, and Python then installs no
    KeyboardInterrupt handler: the capture under test would never see the
    interrupt these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

class Machine:
    """A pty pair replaying data once the capture has opened the slave
    (pyserial flushes the input queue when it opens a port, as a UART's
    would be).  pause_after: hold that long after the chunk that ends
    at offset pause_at; stop_at: write only data[:stop_at], then wait
    until it was read and (close=True) close the line."""

    def __init__(self, data, out, points=(), seed=1, pause_at=None,
                 pause_s=0.0, stop_at=None, close=False):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.data, self.out, self.close = data, Path(out), close
        cut = list(points) + [p for p in (pause_at, stop_at) if p]
        self.chunks = chunks(data[:stop_at] if stop_at else data, cut, seed)
        self.points, self.pause_at, self.pause_s = set(cut), pause_at, \
            pause_s
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def raw_files(self):
        return list(self.out.glob("*.raw"))

    def _opened(self):
        stem = pty_stem(self.path)
        return any(p.name.startswith(stem + "-") for p in self.raw_files())

    def _wait(self, cond, what, limit=60):
        end = time.monotonic() + limit
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError(what)
            time.sleep(0.02)

    def _run(self):
        try:
            self._wait(self._opened, f"capture never opened {self.path}")
            at = 0
            for c in self.chunks:
                view = memoryview(c)
                while view:
                    view = view[os.write(self.master, view):]
                at += len(c)
                time.sleep(0.06 if at in self.points else 0.002)
                if at == self.pause_at:
                    time.sleep(self.pause_s)
            if self.close:
                written = sum(map(len, self.chunks))
                self._wait(lambda: self._received() >= written,
                           "capture did not read everything")
                os.close(self.master)
                self.master = None
        except Exception as e:      # noqa: BLE001 -- reported by the test
            self.error = e

    def _received(self):
        return sum(p.stat().st_size for p in self.raw_files())

    def finish(self):
        self.thread.join(10)
        for fd in (self.master, self.slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self.error:
            raise self.error


def run_capture(*args, timeout=None):
    """pmu-harness capture in this process (support.harness): (status,
    stdout, stderr).  (timeout: the test's own limit for a process; a
    capture in this process ends at its --timeout.)  The tests that
    interrupt a capture or hold a port (test_interrupt_keeps_files,
    test_port_in_use_is_refused) run the command itself."""
    r = harness("capture", *args)
    # decoded by hand: text=True would turn the redraws' CRs into LFs
    return r.returncode, r.stdout_bytes.decode(), r.stderr_bytes.decode()


def command(*args, timeout=120):
    """tools/lab/pmu-harness capture in a process of its own; (status,
    stdout, stderr)."""
    p = subprocess.run([PY, str(PMU_HARNESS), "capture", *args],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    # decoded by hand: text=True would turn the redraws' CRs into LFs
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-capture-"))
        self.out = self.tmp / "out"
        self.out.mkdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def capture(self, *args, timeout=120):
        st, out, err = run_capture("--out", str(self.out), *args,
                                   timeout=timeout)
        for text in (out, err):
            self.assertNotIn("Traceback", text)
        return st, out, err

    def files(self, suffix):
        return sorted(p.name for p in self.out.glob(f"*{suffix}"))

    def one(self, prefix, suffix):
        found = [p for p in self.out.glob(f"{prefix}*{suffix}")]
        self.assertEqual(len(found), 1, (prefix, self.files("")))
        return found[0]


class Cleaning(unittest.TestCase):
    def test_whole_capture_equals_tap_part(self):
        for name in (SKYLAKE, NEHALEM):
            with self.subTest(name):
                self.assertEqual(serialclean.clean(fixture_bytes(name)),
                                 expected_log(name))

    def test_byte_by_byte(self):
        data = fixture_bytes(SKYLAKE)
        c = serialclean.Cleaner()
        out = b"".join(c.feed(data[i:i + 1]) for i in range(len(data)))
        self.assertEqual(out, expected_log(SKYLAKE))
        self.assertTrue(c.started)

    def test_every_split_of_a_short_capture(self):
        # escapes after the TAP line too (firmware output interleaved)
        data = (b"\x1b[2J\x1b[01;01H\x1b[=3hBdsDxe: starting\r\n"
                b"TAP version 13\r\n# cpu: x\x1b[=3h\r\n"
                b"ok 1 - a/b\x1b]0;t\x1b\\\r\n")
        want = b"TAP version 13\n# cpu: x\nok 1 - a/b\n"
        for i in range(len(data) + 1):
            for j in range(i, len(data) + 1):
                c = serialclean.Cleaner()
                got = c.feed(data[:i]) + c.feed(data[i:j]) + c.feed(data[j:])
                self.assertEqual(got, want, (i, j))

    def test_escape_forms(self):
        cases = [
            (b"TAP version 13\n\x1b[=3hA\x1b[?25lB\x1b[1;31mC\n", b"ABC\n"),
            (b"TAP version 13\n\x1b(Bx\x1b7y\x1bcz\n", b"xyz\n"),
            (b"TAP version 13\n\x1b]0;title\x07a\x1b]2;t\x1b\\b\n", b"ab\n"),
            # a broken sequence: dropped up to the byte that broke it
            (b"TAP version 13\n\x1b[12\x01x\n", b"\x01x\n"),
            # a stray OSC opener does not swallow the next lines
            (b"TAP version 13\n\x1b]junk\nok 1 - a\n", b"\nok 1 - a\n"),
            # CR LF -> LF; after the TAP line a lone CR is a line end (a
            # port sending CR-only line ends; the harness writes none)
            (b"TAP version 13\r\nab\rc\r\n", b"ab\nc\n"),
        ]
        for raw, want in cases:
            with self.subTest(raw):
                self.assertEqual(serialclean.clean(raw),
                                 b"TAP version 13\n" + want)

    def test_cr_only_line_ends(self):
        # a port that sends CR for every line end (issue 43): the log's
        # lines, whatever the split, and the firmware's redraws before the
        # TAP line still dropped
        data = (b"BdsDxe\rloading\r\x1b[2JTAP version 13\r# cpu: x\r"
                b"ok 1 - a/b\r1..1\r# summary: passed=1\r")
        want = (b"TAP version 13\n# cpu: x\nok 1 - a/b\n1..1\n"
                b"# summary: passed=1\n")
        for i in range(len(data) + 1):
            c = serialclean.Cleaner()
            self.assertEqual(c.feed(data[:i]) + c.feed(data[i:]), want, i)
        # CR LF split between two chunks: one line end
        c = serialclean.Cleaner()
        self.assertEqual(c.feed(b"TAP version 13\r") + c.feed(b"\nok\r\n"),
                         b"TAP version 13\nok\n")

    def test_firmware_text_on_the_tap_line_and_restart_kept(self):
        raw = b"noise TAP version 13\nok 1 - a\nTAP version 13\n"
        self.assertEqual(serialclean.clean(raw),
                         b"TAP version 13\nok 1 - a\nTAP version 13\n")
        c = serialclean.Cleaner()
        self.assertEqual(c.feed(b"firmware only\r\n\x1b[2J"), b"")
        self.assertFalse(c.started)


class Names(unittest.TestCase):
    def test_slugs(self):
        self.assertEqual(capture.slug("Core 6th gen (Skylake) 0x506e3"),
                         SKYLAKE_SLUG)
        self.assertEqual(capture.slug("Core i7 / Xeon 5500 (Nehalem-EP, "
                                      "Bloomfield) 0x106a3"), NEHALEM_SLUG)
        self.assertEqual(capture.slug("../../etc/passwd"), "etc-passwd")
        self.assertEqual(capture.port_stem("/dev/ttyS0"), "port-ttyS0")
        self.assertEqual(capture.port_stem("/dev/pts/3"), "port-pts-3")
        self.assertEqual(capture.port_stem("/tmp/a b/x.log"), "port-x.log")
        self.assertEqual(capture.port_stem("socket://lab:7001"),
                         "port-lab-7001")

    def test_never_overwrites(self):
        d = Path(tempfile.mkdtemp(prefix="pmu-capture-"))
        self.addCleanup(shutil.rmtree, d, True)
        (d / "m-1.log").write_text("old log")
        (d / "m-1-2.raw").write_text("old raw")
        log, raw, fl, fr = capture.create_files(d, "m-1")
        fl.close(), fr.close()
        self.assertEqual((log.name, raw.name), ("m-1-3.log", "m-1-3.raw"))
        (d / "n.log").write_text("other machine's log")
        new_log, new_raw = capture.rename_files(log, raw, "n")
        self.assertEqual((new_log.name, new_raw.name), ("n-2.log", "n-2.raw"))
        self.assertEqual((d / "n.log").read_text(), "other machine's log")
        self.assertEqual((d / "m-1.log").read_text(), "old log")
        self.assertEqual((d / "m-1-2.raw").read_text(), "old raw")
        self.assertFalse(log.exists() or raw.exists())


class Ptys(Tmp):
    def test_two_ports_at_once(self):
        sky, neh = fixture_bytes(SKYLAKE), fixture_bytes(NEHALEM)
        a = Machine(sky, self.out, awkward_points(sky), seed=1)
        b = Machine(neh, self.out, awkward_points(neh), seed=2)
        st, out, err = self.capture("--port", a.path, "--port", b.path,
                                    "--timeout", "90")
        a.finish(), b.finish()
        # the Nehalem log's "# error:" lines (an unknown option) make its
        # run no pass: ERRORS, 4 (docs/lab.md, "Verdicts and exit
        # statuses")
        self.assertEqual(st, 4, err)
        for m, name, slug in ((a, SKYLAKE, SKYLAKE_SLUG),
                              (b, NEHALEM, NEHALEM_SLUG)):
            log = self.one(slug, ".log")
            self.assertRegex(log.name, rf"^{slug}-{STAMP}\.log$")
            self.assertEqual(log.read_bytes(), expected_log(name))
            self.assertEqual(log.with_suffix(".raw").read_bytes(),
                             fixture_bytes(name))
            self.assertIn(f"{m.path}: {log}: passed=", out)
        self.assertIn("passed=119 failed=0 skipped=15", out)
        self.assertIn("passed=118 failed=0 skipped=16: ERRORS: 3 '# error:' "
                      "line(s)", out)
        self.assertIn("passed=119 failed=0 skipped=15: PASSED\n", out)
        self.assertEqual(len(self.files("")), 4, self.files(""))
        self.assertNotIn("\x1b[", err)          # no tty: no redraws

    def test_timeout_keeps_partial_log(self):
        data = fixture_bytes(SKYLAKE)
        # up to the line end after result 37's line
        cut = data.index(b"\r\n", data.index(b"\r\nok 37 - ") + 2) + 2
        m = Machine(data, self.out, awkward_points(data), stop_at=cut)
        t0 = time.monotonic()
        st, out, err = self.capture("--port", m.path, "--timeout", "4")
        m.finish()
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(st, 3, err)
        log = self.one(SKYLAKE_SLUG, ".log")
        self.assertIn(f"{m.path}: {log}: incomplete: timed out after 4 s: "
                      "37 results, no summary", err)
        self.assertEqual(log.read_bytes(),
                         tap_part(data[:cut].decode()).encode())
        self.assertEqual(log.with_suffix(".raw").read_bytes(), data[:cut])
        self.assertEqual(out, "")

    def test_port_closed_midway(self):
        data = fixture_bytes(SKYLAKE)
        cut = data.index(b"\r\nok 20 - ") + 2
        m = Machine(data, self.out, stop_at=cut, close=True)
        st, out, err = self.capture("--port", m.path, "--timeout", "60")
        m.finish()
        self.assertEqual(st, 3, err)
        # the line ends sent before the cut; an unplugged adapter is said
        # in plain words, not pyserial's "device reports readiness..."
        lines = data[:cut].count(b"\n")
        self.assertIn(f"{m.path}: ", err)
        self.assertRegex(err, rf"\.log: incomplete: serial port "
                              rf"{re.escape(m.path)} disconnected after "
                              rf"{lines} lines: 19 results, no summary")
        self.assertNotIn("readiness", err)
        log = self.one(SKYLAKE_SLUG, ".log")
        self.assertEqual(log.read_bytes(),
                         tap_part(data[:cut].decode()).encode())

    def test_idle_names_the_last_line(self):
        # a hung machine with its cable attached: the line stays open,
        # nothing more comes; --idle ends the capture, not --timeout
        data = fixture_bytes(SKYLAKE)
        cut = data.index(b"\r\n", data.index(b"\r\nok 37 - ") + 2) + 2
        last = data[data.index(b"\r\nok 37 - ") + 2:cut - 2].decode()
        m = Machine(data, self.out, stop_at=cut)
        t0 = time.monotonic()
        st, out, err = self.capture("--port", m.path, "--idle", "1",
                                    "--timeout", "60")
        m.finish()
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(st, 3, err)
        self.assertIn(f"incomplete: nothing received for 1 s after the "
                      f"machine's last line {last!r}: 37 results, no "
                      "summary", err)

    def test_progress_always_shows_count_and_test_in_flight(self):
        data = fixture_bytes(NEHALEM)
        # hold while test 37 runs: after its "# running" line
        run37 = data.index(b"\r\n# running ",
                           data.index(b"\r\nok 36 - ")) + 2
        assert data.index(b"\r\nok 37 - ") > run37
        name = data[run37 + 10:data.index(b":", run37 + 10)].decode()
        pause = data.index(b"\r\n", run37) + 2
        m = Machine(data, self.out, pause_at=pause, pause_s=1.5)
        st, out, err = self.capture("--port", m.path, "--progress",
                                    "always", "--timeout", "90")
        m.finish()
        self.assertEqual(st, 4, err)     # its "# error:" lines: ERRORS
        self.assertIn(f"36 done  running {name}", err)
        self.assertIn("\x1b[1A\r\x1b[2K", err)  # redrawn in place
        last = err.rstrip("\n").split("\r\x1b[2K")[-1]
        self.assertIn("134/134 done", last)
        self.assertIn("summary: passed=118 failed=0 skipped=16", last)

    def test_port_in_use_is_refused(self):
        master, slave = os.openpty()
        self.addCleanup(os.close, master)
        self.addCleanup(os.close, slave)
        path = os.ttyname(slave)
        first = subprocess.Popen(
            [PY, str(PMU_HARNESS), "capture", "--port", path,
             "--out", str(self.out), "--timeout", "30"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=sigint_default)
        try:
            end = time.monotonic() + 30
            while not list(self.out.glob("port-*.raw")):
                self.assertLess(time.monotonic(), end)
                time.sleep(0.05)
            st, out, err = command("--port", path, "--out",
                                   str(self.tmp / "second"))
        finally:
            first.send_signal(signal.SIGINT)
            first.wait(30)
        self.assertEqual(st, 2, err)
        self.assertIn(f"cannot open {path}: in use by another program", err)
        self.assertNotIn("Traceback", err)


class Files(Tmp):
    def test_regular_files(self):
        p54c = FIXTURES / "lab/p54c-model.log"
        st, out, err = self.capture("--port", str(p54c))
        self.assertEqual(st, 0, err)
        log = self.one("pentium-p54c-0x525", ".log")
        self.assertEqual(log.read_bytes(), p54c.read_bytes())
        self.assertIn(f"{p54c}: {log}: passed=", out)
        self.assertIn("capturing", err)

    def test_failed_test_exits_1(self):
        st, out, err = self.capture(
            "--port", str(FIXTURES / "lab/p5-inject-fails.log"))
        self.assertEqual(st, 1, err)
        self.assertIn("failed=50", out)

    def test_missing_port_other_still_captured(self):
        st, out, err = self.capture("--port", str(self.tmp / "ttyS9"),
                                    "--port", str(FIXTURES / SKYLAKE))
        self.assertEqual(st, 2, err)
        self.assertIn(f"pmu-harness capture: cannot open {self.tmp}/ttyS9: "
                      "No such file or directory\n", err)
        log = self.one(SKYLAKE_SLUG, ".log")
        self.assertEqual(log.read_bytes(), expected_log(SKYLAKE))
        self.assertIn("passed=119 failed=0 skipped=15", out)
        self.assertEqual(len(self.files("")), 2)

    def test_not_a_port(self):
        st, out, err = self.capture("--port", str(self.tmp),
                                    "--port", "/dev/null")
        self.assertEqual(st, 2, err)
        self.assertIn(f"cannot open {self.tmp}: not a serial device", err)
        self.assertIn("cannot open /dev/null: cannot configure it as a "
                      "serial port", err)
        self.assertEqual(self.files(""), [])

    def test_truncated_file_is_incomplete(self):
        src = FIXTURES / "lab/truncated-kill.log"
        st, out, err = self.capture("--port", str(src))
        self.assertEqual(st, 3, err)
        self.assertIn(": incomplete: end of file: 6 results, no summary",
                      err)
        self.assertEqual(self.one(SKYLAKE_SLUG, ".log").read_bytes(),
                         src.read_bytes())

    def test_no_harness_output_named_after_port(self):
        src = self.tmp / "ovmf only.txt"
        src.write_bytes(b"\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001\r\n")
        size = src.stat().st_size
        st, out, err = self.capture("--port", str(src))
        self.assertEqual(st, 3, err)
        self.assertIn("incomplete: end of file: no 'TAP version 13' line "
                      ""
                      f"({size} bytes received)", err)
        log = self.one("port-ovmf-only.txt-", ".log")
        self.assertRegex(log.name, rf"^port-ovmf-only\.txt-{STAMP}\.log$")
        self.assertEqual(log.read_bytes(), b"")
        self.assertEqual(log.with_suffix(".raw").read_bytes(),
                         src.read_bytes())

    def test_damaged_complete_log_has_line_numbers(self):
        text = fixture_text(SKYLAKE)
        at = text.index("ok 11 - ")
        src = self.tmp / "garbage.log"
        src.write_text(text[:at] + "BdsDxe: garbage\r\n" + text[at:],
                       newline="")
        st, out, err = self.capture("--port", str(src))
        self.assertEqual(st, 3, err)
        log = self.one(SKYLAKE_SLUG, ".log")
        lineno = log.read_text().split("\n").index("BdsDxe: garbage") + 1
        self.assertIn(f"pmu-harness capture: {log}:{lineno}: not a TAP "
                      "line: 'BdsDxe: garbage'", err)

    def test_fifo(self):
        fifo = self.tmp / "console.fifo"
        os.mkfifo(fifo)
        data = fixture_bytes(SKYLAKE)

        def writer():
            with open(fifo, "wb") as f:
                for c in chunks(data, awkward_points(data), 3):
                    f.write(c)
                    f.flush()
                    time.sleep(0.002)
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        st, out, err = self.capture("--port", str(fifo), "--timeout", "60")
        t.join(10)
        self.assertEqual(st, 0, err)
        self.assertEqual(self.one(SKYLAKE_SLUG, ".log").read_bytes(),
                         expected_log(SKYLAKE))

    def test_interrupt_keeps_files(self):
        fifo = self.tmp / "console.fifo"
        os.mkfifo(fifo)
        data = fixture_bytes(SKYLAKE)
        cut = data.index(b"\r\nok 9 - ") + 2
        p = subprocess.Popen([PY, str(PMU_HARNESS), "capture",
                              "--port", str(fifo), "--out", str(self.out)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             preexec_fn=sigint_default)
        w = os.open(fifo, os.O_WRONLY)     # once the capture opened it
        try:
            os.write(w, data[:cut])
            raw = self.out.glob(f"{SKYLAKE_SLUG}-*.raw")
            end = time.monotonic() + 30
            while not any(r.stat().st_size == cut for r in raw):
                self.assertLess(time.monotonic(), end, self.files(""))
                time.sleep(0.05)
                raw = self.out.glob(f"{SKYLAKE_SLUG}-*.raw")
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=30)
        finally:
            os.close(w)
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 130, err)
        self.assertIn(b": incomplete: interrupted: 8 results, no summary",
                      err)
        self.assertNotIn(b"Traceback", err)
        self.assertEqual(self.one(SKYLAKE_SLUG, ".log").read_bytes(),
                         tap_part(data[:cut].decode()).encode())

    def test_same_machine_twice_gets_a_counter(self):
        a = self.tmp / "a.log"
        b = self.tmp / "b.log"
        shutil.copy(FIXTURES / SKYLAKE, a)
        shutil.copy(FIXTURES / SKYLAKE, b)
        st, out, err = self.capture("--port", str(a), "--port", str(b))
        self.assertEqual(st, 0, err)
        names = self.files(".log")
        self.assertEqual(len(names), 2, names)
        self.assertRegex(names[0], rf"^{SKYLAKE_SLUG}-{STAMP}-2\.log$")
        self.assertRegex(names[1], rf"^{SKYLAKE_SLUG}-{STAMP}\.log$")
        for n in names:
            self.assertEqual((self.out / n).read_bytes(),
                             expected_log(SKYLAKE))


class Arguments(Tmp):
    def test_bad_arguments(self):
        f = str(FIXTURES / SKYLAKE)
        for args, msg in ((["--port", f, "--timeout", "0"], "--timeout 0"),
                          (["--port", f, "--port", f], "given twice"),
                          (["--port", f, "--baud", "-5"], "--baud -5"),
                          (["--port", f, "--idle", "-1"], "--idle -1"),
                          (["--timeout", "5"], "--port"),
                          (["--port", f, "--progress", "x"], "--progress")):
            with self.subTest(args):
                st, out, err = self.capture(*args)
                self.assertEqual(st, 2, err)
                self.assertIn(msg, err)
                self.assertEqual(self.files(""), [])

    def test_unwritable_out(self):
        blocker = self.tmp / "file"
        blocker.write_text("")
        st, out, err = run_capture("--port", str(FIXTURES / SKYLAKE),
                                   "--out", str(blocker / "sub"))
        self.assertEqual(st, 2, err)
        self.assertIn(f"--out {blocker}/sub: Not a directory", err)
        self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
