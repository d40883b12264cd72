"""snapshot: save the machine state of a UEFI boot early in OVMF, before any
disk is read, for qemu-boot.sh --save-snapshot (docs/check.md, "Firmware
snapshots").

Every UEFI boot spends its first ~3 s of CPU in OVMF's SEC and PEI phases
(the firmware volume's decompression, then PEI's TPM probe, which waits
out its timeouts where no TPM answers) and another ~1.3 s in DXE's driver
dispatch, the same work for every boot of one machine.  qemu-boot.sh
--save-snapshot starts QEMU with a QMP socket (and without the migration's
run state, so that a boot from the state runs at once) and runs this
module, which:

  1. polls the first processor's registers until it runs in 64-bit mode
     ("RIP=" where 32-bit code shows "EIP="): OVMF's DXE core has started;
  2. at --point dxe, stops the machine there; at --point console, waits
     for the first byte on the serial port (the boot manager has connected
     its consoles; it connects the disks next) and stops the machine then;
  3. refuses the state unless no disk, CD or variable store has seen a
     single read or write (QEMU's block statistics; the firmware code is
     mapped, not read): a boot from it must read its own disk, not find
     the saving boot's in a cache.  Exit status 4 says so: the caller may
     try again at the dxe point.  At dxe, any serial output refuses the
     state too (the boot manager had started);
  4. migrates the stopped machine into NAME (QEMU's own migration stream,
     through `exec:cat > NAME`, NAME a fixed file name in QEMU's working
     directory, never a caller's string).

Exit status 0: NAME holds the state; 4: too late, the disks had been used;
3: no state for another reason (on stderr).

    python3 -m tools.boot.snapshot --qmp SOCKET --name NAME --serial LOG
        [--point dxe|console] [--timeout S]
"""

import argparse
import json
import os
import re
import socket
import sys
import time

POLL_S = 0.01


class Qmp:
    """A QMP client: one command at a time, events skipped."""

    def __init__(self, path, limit):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(limit)
        self.sock.connect(path)
        self.buf = b""
        self._reply()                   # the greeting
        self.command("qmp_capabilities")

    def _message(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("QEMU closed its QMP socket")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def _reply(self):
        while True:
            m = self._message()
            if "event" not in m:
                return m

    def command(self, name, **arguments):
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        r = self._reply()
        if "error" in r:
            raise RuntimeError(f"QMP {name}: {r['error'].get('desc', r)}")
        return r.get("return")

    def hmp(self, line):
        return self.command("human-monitor-command", **{"command-line": line})


def in_long_mode(registers):
    """Whether `info registers` text shows a processor in 64-bit mode."""
    return "RIP=" in registers


class TooLate(Exception):
    """The machine had used a disk before it was stopped."""


def serial_bytes(serial):
    return os.path.getsize(serial) if os.path.exists(serial) else 0


def until(what, done, end, poll=POLL_S):
    while not done():
        if time.monotonic() > end:
            raise TimeoutError(what)
        time.sleep(poll)


def untouched(qmp):
    """Raises TooLate unless every block device but the firmware code
    (pflash0, mapped into memory) has seen no read and no write."""
    for dev in qmp.command("query-blockstats"):
        name = dev.get("device") or dev.get("qdev") or "?"
        st = dev.get("stats", {})
        ops = st.get("rd_operations", 0) + st.get("wr_operations", 0)
        if name != "pflash0" and ops:
            raise TooLate(f"{name} had {st.get('rd_operations', 0)} reads "
                          f"and {st.get('wr_operations', 0)} writes when "
                          "the machine stopped")


def save(qmp, name, serial, limit, point="dxe"):
    end = time.monotonic() + limit
    until(f"the firmware did not reach 64-bit mode in {limit} s",
          lambda: in_long_mode(qmp.hmp("info registers")), end)
    if point == "console":
        # a file's size, read every millisecond: the disks are connected
        # a few milliseconds after the consoles
        until(f"no serial output in {limit} s",
              lambda: serial_bytes(serial) > 0, end, poll=0.001)
    qmp.command("stop")
    untouched(qmp)
    if point == "dxe" and serial_bytes(serial):
        raise TooLate("the firmware wrote to the serial port before the "
                      "machine stopped: its boot manager had started")
    qmp.command("migrate", uri=f"exec:cat > {name}")
    while True:
        status = qmp.command("query-migrate").get("status")
        if status == "completed":
            break
        if status in ("failed", "cancelled"):
            raise RuntimeError(f"QEMU's migration {status}")
        if time.monotonic() > end:
            raise TimeoutError("the migration did not complete")
        time.sleep(POLL_S)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qmp", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--serial", required=True)
    ap.add_argument("--point", choices=("dxe", "console"), default="dxe")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args(argv)
    if not re.fullmatch(r"[A-Za-z0-9._-]+", a.name):
        print(f"snapshot: --name {a.name!r}: a plain file name (letters, "
              "digits, '.', '_', '-'): it is part of QEMU's exec: line",
              file=sys.stderr)
        return 3
    qmp = None
    try:
        until(f"QEMU made no QMP socket {a.qmp}",
              lambda: os.path.exists(a.qmp), time.monotonic() + a.timeout)
        qmp = Qmp(a.qmp, a.timeout)
        save(qmp, a.name, a.serial, a.timeout, a.point)
    except TooLate as e:
        print(f"snapshot: no state saved at {a.point}: too late: {e}",
              file=sys.stderr)
        return 4
    except (OSError, ValueError, RuntimeError, TimeoutError) as e:
        print(f"snapshot: no state saved: {e}", file=sys.stderr)
        return 3
    finally:
        if qmp is not None:
            try:
                qmp.command("quit")
            except (OSError, ValueError, RuntimeError):
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
