"""build/host/ptdecode (tools/pt/ptdecode.c): the exact --packets and
--timing lines and exit statuses on hand-made Intel PT streams (Intel SDM
Vol. 3C, order no. 326019-060US, §36.4.2), --offset, the usage errors, and
random bytes (no crash, every line well formed).  The tool is built with
make first, as make check builds it."""

import random
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools.testing.support import ROOT

PTDECODE = ROOT / "build" / "host" / "ptdecode"
PSB = bytes([0x02, 0x82] * 8)
PSBEND = bytes([0x02, 0x23])


def cyc(value):
    """The shortest CYC of value (Table 36-33)."""
    rest = value >> 5
    out = [(value & 31) << 3 | (4 if rest else 0) | 3]
    while rest:
        b = (rest & 127) << 1
        rest >>= 7
        out.append(b | (1 if rest else 0))
    return bytes(out)


def tnt8(bits, count):
    """TNT-8: bits[count-1] the oldest branch (Table 36-16)."""
    return bytes([((1 << count) | bits) << 1])


def ip_packet(opc, ipc, payload):
    """TIP 0x0d, TIP.PGE 0x11, TIP.PGD 0x01, FUP 0x1d (Table 36-17)."""
    n = [0, 2, 4, 6, 6, 0, 8, 0][ipc]
    return bytes([ipc << 5 | opc]) + payload.to_bytes(8, "little")[:n]


# (bytes, the --packets line's NAME PAYLOAD) of one packet of each kind
KINDS = [
    (PSB, "psb -"),
    (bytes([0x19, 1, 2, 3, 4, 5, 6, 7]), "tsc 0x7060504030201"),
    (bytes([0x02, 0x73, 0x34, 0x12, 0, 0x10, 0x01]), "tma 0x1234:0x110"),
    (bytes([0x02, 0x03, 0x2a, 0]), "cbr 0x2a"),
    (bytes([0x99, 0x01]), "mode.exec 0x1"),
    (ip_packet(0x1d, 3, 0x800000401000), "fup 3:0xffff800000401000"),
    (PSBEND, "psbend -"),
    (cyc(0), "cyc 0x0"),
    (cyc(31), "cyc 0x1f"),
    (cyc(32), "cyc 0x20"),
    (cyc(4095), "cyc 0xfff"),
    (cyc(4096), "cyc 0x1000"),
    (cyc(2 ** 64 - 1), "cyc 0xffffffffffffffff"),
    (tnt8(0b101, 3), "tnt.8 0x5/3"),
    (tnt8(0, 6), "tnt.8 0x0/6"),
    (bytes([0x02, 0xa3]) + (1 << 47 | 0x1234).to_bytes(6, "little"),
     "tnt.64 0x1234/47"),
    (ip_packet(0x0d, 1, 0xbeef), "tip 1:0xffff80000040beef"),
    (ip_packet(0x0d, 2, 0x12345678), "tip 2:0xffff800012345678"),
    (ip_packet(0x0d, 4, 0x0000aabbccdd), "tip 4:0xffff0000aabbccdd"),
    (ip_packet(0x11, 6, 0x1122334455667788), "tip.pge 6:0x1122334455667788"),
    (ip_packet(0x01, 0, 0), "tip.pgd 0:-"),
    (ip_packet(0x1d, 1, 0x9999), "fup 1:0x1122334455669999"),
    (bytes([0x59, 0xab]), "mtc 0xab"),
    (bytes([0x99, 0x22]), "mode.tsx 0x2"),
    (bytes([0x00]), "pad -"),
    (bytes([0x02, 0xf3]), "ovf -"),
    (bytes([0x02, 0x83]), "stop -"),
    (bytes([0x02, 0x43, 1, 2, 3, 4, 5, 6]), "pip -"),
    (bytes([0x02, 0xc8, 1, 2, 3, 4, 5]), "vmcs -"),
    (bytes([0x02, 0xc3, 0x88, 1, 2, 3, 4, 5, 6, 7, 8]), "mnt -"),
    (bytes([0x02, 0x12, 1, 2, 3, 4]), "ptw -"),
    (bytes([0x02, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8]), "ptw -"),
    (bytes([0x02, 0x62]), "exstop -"),
    (bytes([0x02, 0xc2, 1, 2, 3, 4, 5, 6, 7, 8]), "mwait -"),
    (bytes([0x02, 0x22, 1, 2]), "pwre -"),
    (bytes([0x02, 0xa2, 1, 2, 3, 4, 5]), "pwrx -"),
    (bytes([0x02, 0x63, 0x80]), "bbp -"),
    (bytes([0x04, 1, 2, 3, 4]), "bip -"),
    (bytes([0x02, 0x33]), "bep -"),
    (bytes([0x04]), "tnt.8 0x0/1"),
    (bytes([0x02, 0x13, 0x01, 0x00]), "cfe -"),
    (bytes([0x02, 0x53, 0x01, 1, 2, 3, 4, 5, 6, 7, 8]), "evd -"),
]

LINE = re.compile(r"^(\d+) (error .+|[a-z0-9.]+ (-|\d:-|\d:0x[0-9a-f]+|"
                  r"0x[0-9a-f]+(/\d+|:0x[0-9a-f]+)?))$")
TIMING = re.compile(r"^(\d+) (error .+|(tnt \d+/\d+ [TN]|"
                    r"tip(\.pge|\.pgd)? (-|0x[0-9a-f]+)) "
                    r"(\d+|\[\d+,(\d+|-)\))( epoch=[1-9]\d*)?)$")
SUMMARY = re.compile(r"^# branches=(\d+) exact=(\d+) bounded=(\d+) "
                     r"errors=(\d+) cycles=(\d+)$")


class PtDecode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        p = subprocess.run(["make", "-s", "build/host/ptdecode"], cwd=ROOT,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=300)
        if p.returncode != 0:
            raise AssertionError("make build/host/ptdecode failed:\n"
                                 + p.stdout + p.stderr)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ptdecode-")
        self.addCleanup(self.tmp.cleanup)
        self.n = 0

    def file(self, data):
        self.n += 1
        path = Path(self.tmp.name) / f"s{self.n}.pt"
        path.write_bytes(data)
        return path

    def run_tool(self, *args):
        """(exit status, stdout lines, stderr) of ptdecode args."""
        p = subprocess.run([str(PTDECODE)] + [str(a) for a in args],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60)
        return p.returncode, p.stdout.splitlines(), p.stderr

    def test_every_kind(self):
        data, want = b"", []
        for raw, text in KINDS:
            want.append(f"{len(data)} {text}")
            data += raw
        rc, out, err = self.run_tool("--packets", self.file(data))
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, want)

    def test_last_ip_reset_at_psb(self):
        data = (ip_packet(0x0d, 6, 0xffffffff81000000) +
                ip_packet(0x0d, 1, 0x1234) + PSB +
                ip_packet(0x0d, 1, 0x5678))
        rc, out, _ = self.run_tool("--packets", self.file(data))
        self.assertEqual(rc, 0)
        self.assertEqual(out, ["0 tip 6:0xffffffff81000000",
                               "9 tip 1:0xffffffff81001234",
                               "12 psb -", "28 tip 1:0x5678"])

    def test_errors_resume_at_psb(self):
        data = (tnt8(0, 1) + bytes([0xc9]) + tnt8(1, 1) +   # 0, 1, 2
                PSB + PSBEND +                              # 3, 19
                ip_packet(0x0d, 1, 0x2211) +                # 21
                bytes([0xbd]) + bytes(9) +                  # 24: IPBytes 5
                PSB + bytes([0x99, 0x40]) +                 # 34, 50: leaf 2
                PSB + bytes([0x02, 0xa3]) + bytes(6) +      # 52, 68: no stop
                PSB + cyc(7) + bytes([0xff] * 10) +         # 76, 92, 93
                bytes([0x00]) + PSB + bytes([0x19, 1, 2]))  # 103, 104, 120
        rc, out, err = self.run_tool("--packets", self.file(data))
        self.assertEqual((rc, err), (1, ""))
        self.assertEqual(out, [
            "0 tnt.8 0x0/1",
            "1 error unknown opcode",
            "3 psb -", "19 psbend -", "21 tip 1:0x2211",
            "24 error reserved IPBytes",
            "34 psb -", "50 error reserved MODE leaf",
            "52 psb -", "68 error TNT-64 without branches",
            "76 psb -", "92 cyc 0x7", "93 error CYC overflow",
            "104 psb -", "120 error truncated packet"])

    def test_cyc_ten_bytes(self):
        top = cyc(2 ** 64 - 1)
        over = top[:9] + bytes([0x10])
        eleven = bytes([0x0f] + [0x01] * 9 + [0x00])
        self.assertEqual(len(top), 10)
        rc, out, _ = self.run_tool("--packets",
                                   self.file(top + over + PSB + eleven))
        self.assertEqual(rc, 1)
        self.assertEqual(out, ["0 cyc 0xffffffffffffffff",
                               "10 error CYC overflow", "20 psb -",
                               "36 error CYC overflow"])

    def test_offset(self):
        data = tnt8(1, 1) + PSB + tnt8(0, 2) + PSB + PSBEND + bytes([0x00])
        path = self.file(data)
        rc, out, _ = self.run_tool("--packets", "--offset", 0, path)
        self.assertEqual((rc, out[0]), (0, "1 psb -"))
        for off in (1,):
            rc, out, _ = self.run_tool("--packets", "--offset", off, path)
            self.assertEqual((rc, out), (0, ["1 psb -", "17 tnt.8 0x0/2",
                                             "18 psb -", "34 psbend -",
                                             "36 pad -"]))
        for off in (2, 17, 18):
            rc, out, _ = self.run_tool("--offset", str(off), "--packets",
                                       path)
            self.assertEqual((rc, out), (0, ["18 psb -", "34 psbend -",
                                             "36 pad -"]))
        for off in (19, len(data), len(data) + 5, 2 ** 64 - 1):
            rc, out, err = self.run_tool("--packets", "--offset", off, path)
            self.assertEqual((rc, out, err), (0, [], ""))
        rc, out, _ = self.run_tool("--timing", "--offset", 0x12, path)
        self.assertEqual((rc, out), (0, [
            "# branches=0 exact=0 bounded=0 errors=0 cycles=0"]))

    def test_timing(self):
        data = (PSB + PSBEND +                       # 0, 16
                cyc(3) + cyc(4) + bytes([0x00]) +    # 18, 19, 20
                ip_packet(0x11, 2, 0x401000) +       # 21: 7, accumulated
                cyc(5) +                             # 26
                tnt8(0b110, 3) +                     # 27: 12, then bounded
                ip_packet(0x0d, 1, 0x2000) +         # 28: bounded
                cyc(40) +                            # 31 (2 bytes): 52
                ip_packet(0x1d, 1, 0x3000) +         # 33: FUP, none
                ip_packet(0x0d, 1, 0x4000) +         # 36: 52
                ip_packet(0x01, 0, 0) +              # 39: open
                bytes([0xc9]) +                      # 40: error
                cyc(9) + PSB + PSBEND +              # 41, 42, 58
                tnt8(1, 1) +                         # 60: [0,2) epoch 1
                cyc(2) + tnt8(0, 1))                 # 61, 62: 2 epoch 1
        rc, out, err = self.run_tool("--timing", self.file(data))
        self.assertEqual((rc, err), (1, ""))
        self.assertEqual(out, [
            "21 tip.pge 0x401000 7",
            "27 tnt 0/3 T 12",
            "27 tnt 1/3 T [12,52)",
            "27 tnt 2/3 N [12,52)",
            "28 tip 0x402000 [12,52)",
            "36 tip 0x404000 52",
            "39 tip.pgd - [52,-)",
            "40 error unknown opcode",
            "60 tnt 0/1 T [0,2) epoch=1",
            "62 tnt 0/1 N 2 epoch=1",
            "# branches=9 exact=4 bounded=5 errors=1 cycles=2"])

    def test_empty_file(self):
        path = self.file(b"")
        self.assertEqual(self.run_tool("--packets", path), (0, [], ""))
        self.assertEqual(self.run_tool("--timing", path), (0, [
            "# branches=0 exact=0 bounded=0 errors=0 cycles=0"], ""))

    def test_usage(self):
        path = self.file(PSB)
        for args in ([], [path], ["--packets"], ["--timing"],
                     ["--packets", "--timing", path],
                     ["--bogus", "--packets", path],
                     ["--packets", path, path],
                     ["--packets", "--offset", path],
                     ["--packets", "--offset", "12x", path],
                     ["--packets", "--offset", "-1", path],
                     ["--packets", "--offset", "", path],
                     ["--packets", "--offset", "99999999999999999999999",
                      path],
                     ["--packets", Path(self.tmp.name) / "missing.pt"],
                     ["--timing", self.tmp.name],
                     ["--packets", "-x"]):
            rc, out, err = self.run_tool(*args)
            self.assertEqual((rc, out), (2, []), args)
            self.assertIn("ptdecode:", err, args)
        rc, out, err = self.run_tool("--help")
        self.assertEqual(rc, 0)
        self.assertIn("usage: ptdecode", out[0])
        # a file named like an option, after --
        dash = Path(self.tmp.name) / "--timing"
        dash.write_bytes(PSB)
        rc, out, _ = self.run_tool("--packets", "--", dash)
        self.assertEqual((rc, out), (0, ["0 psb -"]))

    def test_each(self):
        """--each: every file's output as ptdecode prints it alone, each
        followed by "# end K STATUS", the exit status the largest."""
        dash = Path(self.tmp.name) / "--timing"
        dash.write_bytes(PSB + tnt8(0, 1))
        files = [self.file(PSB + PSBEND + tnt8(1, 1) + tnt8(0, 1)),
                 self.file(tnt8(0, 1) + bytes([0xd9]) + PSB),
                 self.file(b""), dash, self.file(bytes([0x99, 0x40]))]
        missing = Path(self.tmp.name) / "missing.pt"
        for mode in (["--packets"], ["--timing"], ["--packets", "--offset",
                                                   "1"]):
            for names in (files, files[:2] + [missing] + files[2:]):
                want, worst = [], 0
                for k, f in enumerate(names, 1):
                    rc, out, _ = self.run_tool(*mode, "--", f)
                    want += out + [f"# end {k} {rc}"]
                    worst = max(worst, rc)
                rc, out, err = self.run_tool(*mode, "--each", *names)
                self.assertEqual((rc, out), (worst, want), (mode, names))
                self.assertEqual(err != "", missing in names)
        self.assertEqual(worst, 2)
        # --each needs a file; a FILE before it is one FILE too many
        for args in (["--packets", "--each"],
                     ["--packets", files[0], "--each", files[1]]):
            rc, out, err = self.run_tool(*args)
            self.assertEqual((rc, out), (2, []), args)

    def check_order(self, body):
        """Offsets never go back, except where decoding resumes after an
        error at a PSB the damaged packet ran into: no legal packet
        sequence contains the PSB pattern (SDM Vol. 3C 36.3.7), so the
        search starts up to 15 bytes before the error (libipt's rule),
        never at or before the last PSB decoded."""
        last_psb, prev, prev_error = -1, -1, False
        for line in body:
            off = int(line.split(" ")[0])
            if off < prev:
                self.assertTrue(prev_error and line.endswith(" psb -"),
                                (line, body))
                self.assertLessEqual(prev - off, 15, (line, body))
                self.assertGreater(off, last_psb, (line, body))
            if line.endswith(" psb -"):
                last_psb = off
            prev, prev_error = off, " error " in line

    def test_random_bytes(self):
        rng = random.Random(14)
        pieces = [PSB, PSBEND, cyc(rng.randrange(2 ** 40)), bytes([0x02]),
                  bytes([0xff] * 9), bytes([0x02, 0x63, 0x80])]
        for n in range(60):
            data = bytearray()
            while len(data) < rng.randrange(1, 400):
                if rng.random() < 0.3:
                    data += rng.choice(pieces)
                else:
                    data += bytes([rng.randrange(256)])
            path = self.file(bytes(data))
            for mode in ("--packets", "--timing"):
                rc, out, err = self.run_tool(mode, path)
                self.assertIn(rc, (0, 1), (n, mode, err))
                self.assertEqual(err, "")
                body = out if mode == "--packets" else out[:-1]
                form = LINE if mode == "--packets" else TIMING
                for line in body:
                    self.assertRegex(line, form)
                self.check_order(body)
                self.assertTrue(all(int(l.split(" ")[0]) < len(data)
                                    for l in body))
                errors = sum(" error " in l for l in body)
                self.assertEqual(rc, 1 if errors else 0)
                if mode == "--timing":
                    m = SUMMARY.match(out[-1])
                    self.assertIsNotNone(m, out[-1:])
                    self.assertEqual(int(m.group(4)), errors)
                    self.assertEqual(int(m.group(1)), len(body) - errors)


if __name__ == "__main__":
    unittest.main()
