"""Shared helpers of the host tools' Python tests (tools/*/tests/)."""

import contextlib
import copy
import functools
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

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
# there first, as a JSON list.  With $FAKE_QEMU_KEEP (a directory) it keeps
# there, named after the -serial file (several runs by one make), its
# arguments as NAME.argv.json and the boot disk it was given (with its
# \pmu-harness.cfg) as NAME.disk.
FAKE_QEMU = """#!{python}
import json, os, shutil, subprocess, sys
args = sys.argv[1:]
if os.environ.get("FAKE_QEMU_ARGV"):
    with open(os.environ["FAKE_QEMU_ARGV"], "w") as f:
        json.dump(args, f)
log = next(a[5:] for a in args if a.startswith("file:"))
with open(log, "w", newline="") as f:
    f.write(open(os.environ["FAKE_QEMU_LOG"], newline="").read())
# the boot disk: the -drive that is not a pflash (--readonly's is
# if=none,id=boot,format=raw,readonly=on,file=...)
disk = next((a.split("file=")[1] for a in args
             if "format=raw" in a and "file=" in a
             and "if=pflash" not in a), None)
keep = os.environ.get("FAKE_QEMU_KEEP")
if keep:
    name = os.path.join(keep, os.path.basename(log))
    with open(name + ".argv.json", "w") as f:
        json.dump(args, f)
    shutil.copyfile(disk, name + ".disk")
vol = os.environ.get("FAKE_QEMU_VOLUME")
if vol:
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
    env.pop("FAKE_QEMU_KEEP", None)
    env["FAKE_QEMU_ARGV"] = str(Path(tmp) / "fake.argv.json")
    env["FAKE_QEMU_ESP_OFFSET"] = str(BOOT / "esp-offset.sh")
    if volume_text is not None:
        (Path(tmp) / "fake.volume.log").write_text(volume_text, newline="")
        env["FAKE_QEMU_VOLUME"] = str(Path(tmp) / "fake.volume.log")
    return env


IMAGE = ROOT / "build" / "pmu-harness.img"


@functools.lru_cache(maxsize=None)
def _real_table():
    from tools.check import boottable
    return boottable.load(TOOLS / "check" / "matrix.yaml")


def real_table():
    """boottable.load(tools/check/matrix.yaml): (boots, errors), read once
    per test run (the table's YAML takes a fifth of a second to read);
    each call gets its own copy.  test_boottable's
    test_matrix_yaml_is_valid reads it itself."""
    return copy.deepcopy(_real_table())


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


class _Sink(io.RawIOBase):
    """One captured stream's bytes; each write also goes to the shared
    list of both streams, in the order written (as 2>&1 would have it)."""

    def __init__(self, both):
        self.data = bytearray()
        self.both = both

    def writable(self):
        return True

    def write(self, b):
        self.data += b
        self.both += b
        return len(b)


class Ran:
    """What call_main saw: returncode; stdout, stderr and output (both
    streams interleaved as written) as text decoded the way subprocess's
    text=True decodes a pipe (UTF-8, universal newlines); the *_bytes
    attributes unchanged."""

    def __init__(self, returncode, out, err, both):
        self.returncode = returncode
        self.stdout_bytes, self.stderr_bytes = bytes(out), bytes(err)
        self.output_bytes = bytes(both)

    @staticmethod
    def text(data, errors="strict"):
        """bytes as subprocess's text=True (and errors) decodes them."""
        return data.decode("utf-8", errors).replace("\r\n", "\n") \
            .replace("\r", "\n")

    _text = text

    @property
    def stdout(self):
        return self._text(self.stdout_bytes)

    @property
    def stderr(self):
        return self._text(self.stderr_bytes)

    @property
    def output(self):
        return self._text(self.output_bytes)


def call_main(main, argv, prog="python3", env=None, cwd=None):
    """Runs a host tool's main(argv) in this process, as `python3 -m
    MODULE ARGV...` runs it from the repository's root, without paying
    for a new interpreter and its imports: argv is passed as data (a
    list), stdin is empty, stdout and stderr are captured (stdout has a
    binary .buffer, as a real one), sys.exit() and the returned value
    become the exit status.  prog is sys.argv[0] meanwhile (argparse's
    program name); env (a dict) replaces os.environ meanwhile; cwd is the
    working directory meanwhile (default the repository's root).  An
    exception main does not handle propagates: the test errs, as the
    tool's traceback would have failed it.  Each CLI keeps at least one
    test through a real process (docs/check.md, "The Python host tests")."""
    both = bytearray()
    out_sink, err_sink = _Sink(both), _Sink(both)
    out = io.TextIOWrapper(out_sink, encoding="utf-8",
                           errors="surrogateescape", write_through=True)
    err = io.TextIOWrapper(err_sink, encoding="utf-8",
                           errors="backslashreplace", write_through=True)
    stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(sys, "argv",
                                              [prog, *argv]))
        stack.enter_context(mock.patch.object(sys, "stdin", stdin))
        stack.enter_context(mock.patch.object(sys, "stdout", out))
        stack.enter_context(mock.patch.object(sys, "stderr", err))
        if env is not None:
            stack.enter_context(mock.patch.dict(os.environ, env,
                                                clear=True))
        stack.enter_context(contextlib.chdir(cwd or ROOT))
        try:
            status = main(list(argv))
        except SystemExit as e:
            status = e.code
        finally:
            out.flush()
            err.flush()
    if status is None:
        status = 0
    elif not isinstance(status, int):
        # sys.exit("message"): Python prints it and exits with 1
        err_sink.write(f"{status}\n".encode())
        status = 1
    return Ran(status, out_sink.data, err_sink.data, both)


def harness(*args, **kw):
    """`pmu-harness ARGS...` (tools/lab/cli.py) in this process: a
    call_main Ran."""
    from tools.lab import cli
    return call_main(cli.main, [str(a) for a in args], prog="pmu-harness",
                     **kw)


def matrix_main(*args, env=None):
    """`python3 -m tools.check.matrix ARGS...` in this process (call_main):
    (status, stdout+stderr)."""
    from tools.check import matrix
    r = call_main(matrix.main, [str(a) for a in args],
                  prog=str(TOOLS / "check" / "matrix.py"), env=env)
    return r.returncode, r.output


def check_matrix(*args, matrix=None):
    """tools/check/matrix.py --matrix MATRIX (default the fixture table)
    ARGS... in this process: (status, stdout+stderr)."""
    return matrix_main("--matrix", str(matrix or FIXTURES / "matrix.yaml"),
                       *args)


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
