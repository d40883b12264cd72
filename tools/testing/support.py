"""Shared helpers of the host tools' Python tests (tools/*/tests/)."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
BOOT = TOOLS / "boot"      # the boot and image scripts
PMU_HARNESS = TOOLS / "lab" / "pmu-harness"    # the lab command
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PY = sys.executable


def fixture_text(name):
    """A fixture file's text, exactly (CR LF kept)."""
    with open(FIXTURES / name, newline="") as f:
        return f.read()


def tap_part(serial):
    """What the harness writes to its volume log for a serial capture:
    from "TAP version 13" on, without CRs (independent of tools/lab/pmulog)."""
    return serial[serial.index("TAP version 13"):].replace("\r", "")


class LogDir:
    """A temporary --logs directory for tools/check/matrix.py."""

    def __init__(self):
        self.path = Path(tempfile.mkdtemp(prefix="pmu-py-"))

    def add(self, boot, serial, status, volume=True):
        """Writes BOOT.log, BOOT.status and (volume=True) a BOOT.volume.log
        equal to the serial log, (a string) that text."""
        (self.path / f"{boot}.log").write_text(serial, newline="")
        if status is not None:
            (self.path / f"{boot}.status").write_text(f"{status}\n")
        if volume is True:
            volume = tap_part(serial)
        if volume is not None and volume is not False:
            (self.path / f"{boot}.volume.log").write_text(volume, newline="")

    def cleanup(self):
        shutil.rmtree(self.path, ignore_errors=True)


# A stand-in for qemu-system-x86_64: writes the file $FAKE_QEMU_LOG to the
# -serial file, and (with $FAKE_QEMU_VOLUME) that file to
# \pmu-harness\fake.log on the boot disk, prints $FAKE_QEMU_STDERR and exits
# with $FAKE_QEMU_STATUS.  With $FAKE_QEMU_ARGV it writes its arguments
# there first, as a JSON list.
FAKE_QEMU = """#!{python}
import json, os, subprocess, sys
args = sys.argv[1:]
if os.environ.get("FAKE_QEMU_ARGV"):
    with open(os.environ["FAKE_QEMU_ARGV"], "w") as f:
        json.dump(args, f)
log = next(a[5:] for a in args if a.startswith("file:"))
with open(log, "w", newline="") as f:
    f.write(open(os.environ["FAKE_QEMU_LOG"], newline="").read())
vol = os.environ.get("FAKE_QEMU_VOLUME")
if vol:
    # the boot disk: the -drive that is not a pflash (--readonly's is
    # if=none,id=boot,format=raw,readonly=on,file=...)
    disk = next(a.split("file=")[1] for a in args
                if "format=raw" in a and "file=" in a
                and "if=pflash" not in a)
    off = subprocess.run([os.environ["FAKE_QEMU_ESP_OFFSET"], disk],
                         check=True, capture_output=True,
                         text=True).stdout.strip()
    subprocess.run(["mcopy", "-o", "-i", disk + "@@" + off, vol,
                    "::/pmu-harness/fake.log"], check=True,
                   env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
sys.stderr.write(os.environ.get("FAKE_QEMU_STDERR", ""))
sys.exit(int(os.environ["FAKE_QEMU_STATUS"]))
"""


def fake_qemu(tmp, status, log_text, stderr="", volume_text=None):
    """Installs the fake QEMU under tmp/bin; returns the environment that
    puts it first on PATH."""
    fake = Path(tmp) / "bin" / "qemu-system-x86_64"
    fake.parent.mkdir(exist_ok=True)
    fake.write_text(FAKE_QEMU.format(python=PY))
    fake.chmod(0o755)
    (Path(tmp) / "fake.log").write_text(log_text, newline="")
    env = dict(os.environ, FAKE_QEMU_STATUS=str(status),
               FAKE_QEMU_LOG=str(Path(tmp) / "fake.log"),
               FAKE_QEMU_STDERR=stderr,
               PATH=f"{fake.parent}:{os.environ['PATH']}")
    env.pop("FAKE_QEMU_VOLUME", None)
    env["FAKE_QEMU_ARGV"] = str(Path(tmp) / "fake.argv.json")
    env["FAKE_QEMU_ESP_OFFSET"] = str(BOOT / "esp-offset.sh")
    if volume_text is not None:
        (Path(tmp) / "fake.volume.log").write_text(volume_text, newline="")
        env["FAKE_QEMU_VOLUME"] = str(Path(tmp) / "fake.volume.log")
    return env


IMAGE = ROOT / "build" / "pmu-harness.img"


def need_image():
    """Builds build/pmu-harness.img when it is missing (make check has)."""
    if not IMAGE.is_file():
        subprocess.run(["make", "--no-print-directory", "-C", str(ROOT),
                        "image"], env=make_env(), check=True,
                       stdout=subprocess.DEVNULL, timeout=900)


def run_tool(argv, timeout=120, env=None):
    """Runs a host tool (an argument list); returns (status, stdout+stderr)."""
    p = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout


def check_matrix(*args, matrix=None):
    argv = [PY, "-m", "tools.check.matrix",
            "--matrix", str(matrix or FIXTURES / "matrix.yaml"), *args]
    return run_tool(argv)


def make_env():
    """The environment for a make started by a test: nothing inherited
    from a make that runs the tests (make check) changes its variables."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "CPU",
              "ARGS", "RUN_LOG", "PMU_CPU", "PMU_ARGS", "PMU_LOG"):
        env.pop(k, None)
    return env


def not_ok_lines(out):
    return [l for l in out.splitlines() if l.startswith("not ok - ")]


def ok_lines(out):
    return [l for l in out.splitlines() if l.startswith("ok - ")]


def esp(disk):
    """disk@@OFFSET: mtools' name of the boot volume (the EFI system
    partition) of a disk image (tools/boot/esp-offset.sh)."""
    off = subprocess.run([str(BOOT / "esp-offset.sh"), str(disk)],
                         check=True, capture_output=True,
                         text=True).stdout.strip()
    return f"{disk}@@{off}"
