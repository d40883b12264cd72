"""Firmware snapshots: tools/boot/snapshot.py against a fake QMP server (it
stops the machine only once the processor runs 64-bit code, at the console
point only after the first serial byte, saves through a fixed exec: line,
and refuses a state once a disk was used (status 4), after serial output
at the dxe point, or after a failed migration), and qemu-boot.sh's --snapshot / --save-snapshot with the fake
QEMU (the state reaches QEMU as `-incoming "exec:cat snapshot"`, a fixed
line; bad combinations are refused before QEMU starts).  The real boots
from snapshots are the matrix's and the kill stage's (docs/check.md)."""

import io
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import unittest
from contextlib import redirect_stderr
from pathlib import Path

from tools.boot import snapshot
from tools.testing.support import BOOT, IMAGE, fake_qemu, need_image

REGS_32 = "EAX=00000015 EBX=00000000\nEIP=0fecc2c2 EFL=00000012 CPL=0\n"
REGS_64 = "RAX=0000000000000000\nRIP=000000000feb3e2a RFL=00000246\n"


class FakeQmp:
    """A QMP server on a Unix socket: 32-bit registers for the first
    `polls_32` `info registers`, then 64-bit ones; `migrate` records its
    URI; query-migrate answers `status`; query-blockstats answers
    `stats` ({device: (reads, writes)}); `stop` records the serial
    file's size then."""

    def __init__(self, path, polls_32=3, status="completed", stats=None,
                 serial=None):
        self.polls_32, self.status = polls_32, status
        self.stats = stats if stats is not None else {
            "pflash0": (12, 0), "pflash1": (0, 0), "ide0-hd0": (0, 0)}
        self.serial, self.serial_at_stop = serial, None
        self.commands, self.migrate_uri, self.polls = [], None, 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(1)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def reply(self, conn, msg):
        conn.sendall(json.dumps(msg).encode() + b"\n")

    def answer(self, m):
        name = m["execute"]
        self.commands.append(name)
        if name == "human-monitor-command":
            self.polls += 1
            return REGS_32 if self.polls <= self.polls_32 else REGS_64
        if name == "migrate":
            self.migrate_uri = m["arguments"]["uri"]
        if name == "query-migrate":
            return {"status": self.status}
        if name == "query-blockstats":
            return [{"device": d, "stats": {"rd_operations": r,
                                            "wr_operations": w}}
                    for d, (r, w) in self.stats.items()]
        if name == "stop" and self.serial is not None:
            self.serial_at_stop = self.serial.stat().st_size \
                if self.serial.exists() else 0
        return {}

    def serve(self):
        conn, _ = self.server.accept()
        with conn:
            self.reply(conn, {"QMP": {"version": {}, "capabilities": []}})
            buf = b""
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    m = json.loads(line)
                    # an event between replies, which the client skips
                    self.reply(conn, {"event": "STOP"})
                    self.reply(conn, {"return": self.answer(m)})
                    if m["execute"] == "quit":
                        return


class Saver(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-snapshot-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.sock = self.tmp / "qmp"
        self.serial = self.tmp / "serial.log"

    def save(self, name="snapshot.part", point="dxe"):
        err = io.StringIO()
        with redirect_stderr(err):
            rc = snapshot.main(["--qmp", str(self.sock), "--name", name,
                                "--serial", str(self.serial),
                                "--point", point, "--timeout", "5"])
        return rc, err.getvalue()

    def test_saves_at_the_first_64_bit_poll(self):
        qmp = FakeQmp(self.sock, polls_32=3)
        self.serial.write_bytes(b"")
        rc, err = self.save()
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(qmp.polls, 4)
        self.assertEqual(qmp.migrate_uri, "exec:cat > snapshot.part")
        self.assertEqual(qmp.commands[0], "qmp_capabilities")
        self.assertEqual(qmp.commands[-1], "quit")
        # stopped, then checked, then migrated
        order = [qmp.commands.index(c) for c in
                 ("human-monitor-command", "stop", "query-blockstats",
                  "migrate")]
        self.assertEqual(order, sorted(order))

    def test_console_point_waits_for_the_first_serial_byte(self):
        qmp = FakeQmp(self.sock, polls_32=0, serial=self.serial)
        self.serial.write_bytes(b"")
        timer = threading.Timer(0.3, self.serial.write_bytes,
                                (b"\x1b[2J",))
        timer.start()
        self.addCleanup(timer.cancel)
        rc, err = self.save(point="console")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(qmp.serial_at_stop, 4)

    def test_a_used_disk_is_too_late(self):
        for dev in ("ide0-hd0", "pflash1", "boot"):
            self.setUp()
            FakeQmp(self.sock, polls_32=0,
                    stats={"pflash0": (3, 0), dev: (0, 1)})
            rc, err = self.save()
            self.assertEqual(rc, 4, err)
            self.assertIn(f"too late: {dev} had 0 reads and 1 writes", err)

    def test_serial_output_at_dxe_is_too_late(self):
        FakeQmp(self.sock, polls_32=0)
        self.serial.write_bytes(b"BdsDxe: loading Boot0002\r\n")
        rc, err = self.save()
        self.assertEqual(rc, 4)
        self.assertIn("boot manager had started", err)

    def test_failed_migration(self):
        FakeQmp(self.sock, polls_32=0, status="failed")
        rc, err = self.save()
        self.assertEqual(rc, 3)
        self.assertIn("migration failed", err)

    def test_no_socket(self):
        err = io.StringIO()
        with redirect_stderr(err):
            rc = snapshot.main(["--qmp", str(self.sock), "--name", "s",
                                "--serial", str(self.serial),
                                "--timeout", "0.2"])
        self.assertEqual(rc, 3)
        self.assertIn("no QMP socket", err.getvalue())

    def test_name_is_a_plain_file_name(self):
        for name in ("a b", "x;rm -rf y", "../s", "$(id)", ""):
            rc, err = self.save(name)
            self.assertEqual(rc, 3, name)
            self.assertIn("a plain file name", err)

    def test_long_mode_from_the_registers(self):
        self.assertFalse(snapshot.in_long_mode(REGS_32))
        self.assertTrue(snapshot.in_long_mode(REGS_64))


LOG = ("TAP version 13\r\n# harness: pmu-harness 0.1.0\r\nok 1 - a/t1\r\n"
       "1..1\r\n# summary: passed=1 failed=0 skipped=0\r\n")


class BootFlags(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        need_image()

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="pmu-snapshot-flags-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.state = self.tmp / "a state"
        self.state.write_bytes(b"QEVM")

    def boot(self, *extra):
        env = fake_qemu(self.tmp, 1, LOG)
        p = subprocess.run([str(BOOT / "qemu-boot.sh"), "--image",
                            str(IMAGE), "--cpu", "Nehalem", "--log",
                            str(self.tmp / "serial.log"), *extra],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, env=env, timeout=120)
        argv_file = self.tmp / "fake.argv.json"
        argv = json.loads(argv_file.read_text()) \
            if argv_file.exists() else None
        return p.returncode, p.stderr, argv

    def test_snapshot_reaches_qemu_as_a_fixed_line(self):
        rc, err, argv = self.boot("--snapshot", str(self.state))
        self.assertEqual(rc, 0, err)
        i = argv.index("-incoming")
        self.assertEqual(argv[i + 1], "exec:cat snapshot")

    def test_no_snapshot_no_incoming(self):
        rc, err, argv = self.boot()
        self.assertEqual(rc, 0, err)
        self.assertNotIn("-incoming", argv)

    def test_refused(self):
        cases = [
            (("--snapshot", str(self.tmp / "none")), "not a readable file"),
            (("--snapshot", str(self.state), "--save-snapshot",
              str(self.tmp / "s")), "exclude each other"),
            (("--bios", "kernel", "--snapshot", str(self.state)),
             "no firmware snapshot"),
            (("--bios", "kernel", "--save-snapshot", str(self.state)),
             "no firmware snapshot"),
            (("--save-snapshot", str(self.state), "--snapshot-point",
              "bds"), "wants dxe or console"),
        ]
        for extra, fragment in cases:
            (self.tmp / "fake.argv.json").unlink(missing_ok=True)
            rc, err, argv = self.boot(*extra)
            self.assertEqual(rc, 3, extra)
            self.assertIn(fragment, err)
            self.assertIsNone(argv, "QEMU started after a bad argument")

    def test_save_without_qmp_saves_nothing(self):
        # The fake QEMU opens no QMP socket: the saver gives up at the
        # time limit and nothing is written.
        out = self.tmp / "saved.state"
        rc, err, argv = self.boot("--save-snapshot", str(out),
                                  "--timeout", "1")
        self.assertEqual(rc, 3, err)
        self.assertIn("not saved", err)
        self.assertFalse(out.exists())
        self.assertIn("-qmp", argv)
        self.assertEqual(argv[argv.index("-global") + 1],
                         "migration.store-global-state=off")
        self.assertNotIn("-incoming", argv)


if __name__ == "__main__":
    unittest.main()
