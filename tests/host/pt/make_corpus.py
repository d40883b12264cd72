#!/usr/bin/env python3
"""make_corpus: writes the fuzz target's seed corpus, tests/host/pt/corpus/
(committed; tools/pt/fuzz.sh only reads it).  Run it again after `make
build/host/ipt-gen build/host/pt-modelgen` to refresh it.

  ipt-gen-*.pt     random packet sequences of libipt's encoder (ipt-gen)
  model-*.pt       the model's streams of a few benchmarks (pt-modelgen)
  flip-*.pt        a model stream with bits flipped
  the rest         hand-made damage, one kind each: CYCs of 10 bytes that
                   fit in 64 bits and that do not, of 11 bytes, cut short;
                   TNT-64 with no stop bit and with no branch; reserved
                   IPBytes and MODE leaf; a broken PSB, PSBs back to back,
                   an unknown extended opcode, packets cut short

Packet bytes: Intel SDM Vol. 3C, order no. 326019-060US, §36.4.2.

    make_corpus.py
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "tests" / "host" / "pt" / "corpus"
HB = ROOT / "build" / "host"

PSB = bytes([0x02, 0x82] * 8)
PSBEND = bytes([0x02, 0x23])
START = PSB + bytes([0x02, 0x03, 0x20, 0x00]) + PSBEND   # PSB, CBR, PSBEND


def cyc(value, size=None):
    """A CYC of value in its shortest form, or padded to size bytes with
    zero groups (Table 36-33)."""
    groups = [value & 0x1f]
    value >>= 5
    while value or (size and len(groups) < size):
        groups.append(value & 0x7f)
        value >>= 7
    out = bytearray()
    for i, g in enumerate(groups):
        more = i + 1 < len(groups)
        out.append((g << 3) | (4 if more else 0) | 3 if i == 0 else
                   (g << 1) | (1 if more else 0))
    return bytes(out)


def tip(ipc, payload):
    n = {0: 0, 1: 2, 2: 4, 3: 6, 4: 6, 6: 8}.get(ipc, 0)
    return bytes([0x0d | ipc << 5]) + payload.to_bytes(8, "little")[:n]


HAND = {
    "cyc10-fits.pt": START + cyc((1 << 63) | 5) + bytes([0x0a]) +
    tip(6, 0x401000) + PSB + PSBEND + bytes([0x0c]),
    "cyc10-overflow.pt": START + cyc(1 << 64) + bytes([0x0a]) + PSB,
    "cyc11.pt": START + cyc(3, size=11) + bytes([0x0a]) + PSB + PSBEND,
    "cyc-cut.pt": START + cyc(1 << 40)[:-1],
    "cyc-lengths.pt": START + b"".join(cyc(1 << (4 + 7 * k)) +
                                       bytes([0x06]) for k in range(9)) +
    cyc((1 << 61) + 1) + bytes([0x06]),
    "tnt64-no-stop.pt": START + bytes([0x02, 0xa3] + [0] * 6) + PSB,
    "tnt64-empty.pt": START + bytes([0x02, 0xa3, 1] + [0] * 5) + PSB,
    "ipbytes-reserved.pt": START + tip(6, 0xffff800000001000) +
    bytes([0xad] + [0x11] * 6 + [0xed] + [0x22] * 8) + PSB + PSBEND +
    tip(1, 0x1234),
    "mode-reserved.pt": START + bytes([0x99, 0x40, 0x99, 0x21, 0x99, 0x03])
    + PSB,
    "psb-broken.pt": bytes([0x02, 0x82] * 5) + bytes([0x00]) + START,
    "psb-back-to-back.pt": PSB + PSB + PSB + PSBEND + bytes([0x0c]),
    "ext-unknown.pt": START + bytes([0x02, 0xff, 0x02, 0x02]) + START,
    "cut-tip.pt": START + bytes([0xcd, 0x01, 0x02]),
    "cut-tsc.pt": START + bytes([0x19, 1, 2, 3]),
    "cut-psb.pt": START + PSB[:9],
    "empty.pt": b"",
}


def run(argv):
    subprocess.run([str(a) for a in argv], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in HAND.items():
        (OUT / name).write_bytes(data)
    for seed, count in ((1, 40), (2, 150), (3, 600)):
        run([HB / "ipt-gen", seed, count, OUT / f"ipt-gen-{seed}.pt"])
    with tempfile.TemporaryDirectory() as tmp:
        run([HB / "pt-modelgen", tmp, "cpuid", "gpr-values",
             "branch-alternating", "indirect-jump"])
        for name in ("cpuid-c0", "gpr-values-t3", "gpr-values-c0-mtc-tsc",
                     "branch-alternating-c0-psb", "indirect-jump-t6"):
            data = (Path(tmp) / f"{name}.pt").read_bytes()[:4096]
            (OUT / f"model-{name}.pt").write_bytes(data)
        data = bytearray((Path(tmp) / "branch-alternating-t3.pt")
                         .read_bytes()[:2048])
        for i in range(40, len(data), 97):
            data[i] ^= 1 << (i % 8)
        (OUT / "flip-branch-alternating-t3.pt").write_bytes(bytes(data))
    print(f"make_corpus: {len(list(OUT.iterdir()))} files in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
