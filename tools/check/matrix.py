"""check_matrix: boot the harness image under every entry of the boot table
(tools/check/matrix.yaml) and check each log (docs/check.md).

    python3 -m tools.check.matrix [--matrix FILE] [--image IMG]
        [--kernel ELF] [--floppy IMG] [--out DIR] [BOOT...]
    python3 -m tools.check.matrix --logs DIR [--matrix FILE] [BOOT...]

The first form boots each entry (JOBS at a time, default 2) through
tools/boot/qemu-boot.sh (UEFI from IMG; --bios for the bios-* kinds, from IMG,
the 32-bit ELF or the floppy) or tools/boot/bochs-boot.sh (bochs-* kinds) and
keeps, per boot, in DIR (default build/check):
NAME.log (the serial capture), NAME.status (qemu-boot.sh's exit status),
NAME.stderr (its messages), NAME.volume.log (the log file found on the boot
volume; else NAME.volume.none saying why the volume holds none, or
NAME.volume.err saying why it could not be read; UEFI boots only).  The
second form checks such files without booting.  BOOT names
restrict the run to those entries.

Prints one "ok - BOOT: what" or "not ok - BOOT: what" line per check
("matrix" for the table as a whole); exits 1 when a check failed or none
passed, 2 on bad usage.
"""

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.lab import pmulog

from . import boottable, logcheck, proctime, volumelog

ROOT = Path(__file__).resolve().parents[2]
QEMU_BOOT = ROOT / "tools" / "boot" / "qemu-boot.sh"
BOCHS_BOOT = ROOT / "tools" / "boot" / "bochs-boot.sh"
ESP_OFFSET = ROOT / "tools" / "boot" / "esp-offset.sh"
# The warm UEFI variable store of `nvram: warm` boots (make ovmf-vars).
WARM_VARS = ROOT / "build" / "ovmf-vars.fd"
# The medium each boot kind boots, by its option name (main's --image,
# --kernel, --floppy); the bios-* and bochs-* MEDIUM is the kind's tail.
MEDIUM_OF = {"uefi": "image", "bios-kernel": "kernel", "bios-disk": "image",
             "bios-cd": "image", "bios-floppy": "floppy",
             "bochs-cd": "image", "bochs-disk": "image",
             "bochs-floppy": "floppy"}


# What makes each medium (main's message for one that is missing).
MADE_BY = {"image": "make image", "kernel": "make i386",
           "floppy": "make floppy", "vars": "make ovmf-vars"}


def media_needed(boot):
    """The media (MEDIUM_OF's names, and "vars") a boot needs: its
    medium, and a UEFI boot from the warm variable store that store."""
    return [MEDIUM_OF[boot.boot]] + (["vars"] if boot.boot == "uefi" and
                                     boot.nvram == "warm" else [])


def boot_argv(boot, media, out, snapshot=None):
    """The boot script's arguments for one boot: a list, never a shell
    line (the table's strings are data).  media maps "image", "kernel"
    and "floppy" to their files (MEDIUM_OF); a single path is the image
    (enough for UEFI boots).  snapshot: a UEFI boot starts from that
    firmware snapshot."""
    if not isinstance(media, dict):
        media = {"image": media, "vars": WARM_VARS}
    image = media[MEDIUM_OF[boot.boot]]
    log = ["--log", str(out / f"{boot.name}.log"),
           "--timeout", str(boot.timeout),
           "--keep", str(out / f"{boot.name}.disk")]
    medium = boot.boot.split("-", 1)[-1]
    if boot.boot.startswith("bochs-"):
        argv = [str(BOCHS_BOOT), "--medium", medium, "--image", str(image),
                "--cpu", boot.cpu, "--args", boot.options, *log]
        if boot.memory is not None:
            argv += ["--mem", str(boot.memory)]
        if boot.smp is not None:
            argv += ["--smp", boottable.bochs_count(boot.smp)]
        return argv
    if boot.boot.startswith("bios-"):
        argv = [str(QEMU_BOOT), "--bios", medium, "--image", str(image),
                "--cpu", boot.cpu, "--args", boot.options, *log]
        if boot.smp is not None:
            argv += ["--smp", boot.smp]
        if boot.com4:
            argv.append("--com4")
        if boot.no_hpet:
            argv.append("--no-hpet")
        if boot.no_acpi:
            argv.append("--no-acpi")
        if boot.memory is not None:
            argv += ["--mem", str(boot.memory)]
        return argv
    cfg = ["--cfg-file", str(ROOT / boot.cfg_file)] if boot.cfg_file \
        else ["--args", boot.options]
    argv = [str(QEMU_BOOT), "--image", str(image), "--cpu", boot.cpu,
            *cfg, "--log", str(out / f"{boot.name}.log"),
            "--timeout", str(boot.timeout),
            "--keep", str(out / f"{boot.name}.disk")]
    if boot.smp is not None:
        argv += ["--smp", boot.smp]
    if boot.com4:
        argv.append("--com4")
    if boot.vga:
        argv.append("--vga")
    if boot.memory is not None:
        argv += ["--mem", str(boot.memory)]
    if boot.volume_free_kib is not None:
        argv += ["--volume-free", str(boot.volume_free_kib)]
    if boot.volume_logdir_file:
        argv.append("--logdir-file")
    if boot.volume_readonly:
        argv.append("--readonly")
    if boot.write_iops is not None:
        argv += ["--write-iops", str(boot.write_iops)]
    if boot.nvram == "warm":
        argv += ["--vars", str(media["vars"])]
    if snapshot is not None:
        argv += ["--snapshot", str(snapshot)]
    return argv


# -cpu properties that change only CPUID's signature (leaf 1 EAX), which
# OVMF's SEC and PEI phases do not depend on: boots that differ in these
# alone share a firmware snapshot.  Any other property (a feature flag, a
# vendor) makes another machine.
SIGNATURE_PROPERTIES = ("family", "model", "stepping")


def snapshot_shape(boot):
    """What a UEFI boot's machine is made of, as far as a firmware snapshot
    taken at OVMF's DXE entry is concerned: the CPU model and its
    properties but the signature's, processors, memory, devices (COM4,
    VGA, the read-only virtio disk) and the variable store.  None for a
    boot that is not UEFI."""
    if boot.boot != "uefi":
        return None
    model, *props = boot.cpu.split(",")
    kept = tuple(sorted(p for p in props
                        if p.split("=", 1)[0] not in SIGNATURE_PROPERTIES))
    return (model, kept, boot.smp, boot.memory, bool(boot.com4),
            bool(boot.vga), bool(boot.volume_readonly), boot.nvram)


def shared_shapes(boots):
    """{shape: [boot, ...]} for the shapes of two boots or more, in table
    order: the ones a snapshot pays for (its saving costs a boot's
    SEC and PEI once)."""
    groups = {}
    for b in boots:
        shape = snapshot_shape(b)
        if shape is not None:
            groups.setdefault(shape, []).append(b)
    return {k: v for k, v in groups.items() if len(v) >= 2}


def save_snapshot(image, cpu, machine, path, limit, point="console"):
    """Saves a firmware snapshot to path (qemu-boot.sh --save-snapshot):
    IMAGE booted with --cpu CPU and the machine flags machine (a list)
    until point (--snapshot-point: console, else dxe).  A console state
    that comes too late (a disk used: status 4) is saved again at dxe.
    Returns (ok, text); qemu-boot.sh's messages are kept beside path
    (.stderr), the serial capture (.log)."""
    start = time.monotonic()
    cpu_s = 0.0
    for at in ([point, "dxe"] if point == "console" else ["dxe"]):
        argv = [str(QEMU_BOOT), "--image", str(image), "--cpu", cpu,
                "--log", str(path.with_suffix(".log")),
                "--timeout", str(limit), "--save-snapshot", str(path),
                "--snapshot-point", at, *machine]
        with open(path.with_suffix(".stderr"), "ab") as err:
            try:
                status, used = run_timed(argv, err, dict(os.environ),
                                         limit + 60)
            except (subprocess.TimeoutExpired, OSError) as e:
                return False, f"not saved: {e}"
        cpu_s += used
        if status != 4:
            break
    took = f"at {at}, {time.monotonic() - start:.1f} s, cpu {cpu_s:.1f} s"
    if status != 0 or not path.is_file():
        why = path.with_suffix(".stderr").read_text(errors="replace")
        return False, (f"not saved (status {status}, {took}): "
                       + " ".join(why.split())[-300:])
    return True, took


def snapshot_point(members):
    """Where a shape's snapshot is taken: at the boot manager's console
    (later, cheaper boots) when every boot of it has the same -cpu, since
    the state then holds tables DXE built from the machine's description
    (SMBIOS's processor signature); at DXE's entry when they differ in
    the signature."""
    return "console" if len({b.cpu for b in members}) == 1 else "dxe"


def shape_argv(argv):
    """The machine's flags of a UEFI boot's argv (boot_argv): the ones
    snapshot_shape() stands for."""
    values = {"--smp": 1, "--mem": 1, "--vars": 1, "--com4": 0,
              "--vga": 0, "--readonly": 0}
    out, i = [], 0
    while i < len(argv):
        n = values.get(argv[i])
        if n is None:
            i += 1
            continue
        out += argv[i:i + 1 + n]
        i += 1 + n
    return out


def save_snapshots(boots, media, out, jobs, say):
    """Saves a snapshot for every shared shape; returns {boot name: path}
    for the boots that start from one.  A snapshot that cannot be saved
    is a failed check, and its boots start from reset."""
    groups = shared_shapes(boots)
    if not groups:
        return {}
    where = out / "snapshots"
    where.mkdir(parents=True, exist_ok=True)
    paths = {shape: where / f"shape-{i}.state"
             for i, shape in enumerate(groups)}
    for p in paths.values():
        p.unlink(missing_ok=True)
        p.with_suffix(".stderr").unlink(missing_ok=True)

    def one(shape):
        # The first boot's machine; its options, log and kept disk do not
        # reach the state (no disk has been read when it is saved).
        b = groups[shape][0]
        return save_snapshot(media["image"], b.cpu,
                             shape_argv(boot_argv(b, media, out)),
                             paths[shape], b.timeout,
                             snapshot_point(groups[shape]))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, groups))
    start_from = {}
    for (shape, members), (ok, text) in zip(groups.items(), results):
        names = ", ".join(b.name for b in members)
        say(ok, "matrix", f"firmware snapshot of {shape[0]} "
                          f"({paths[shape].name}; {text}) for "
                          f"{len(members)} boots: {names}")
        if ok:
            start_from.update({b.name: paths[shape] for b in members})
    return start_from


def longest_first(boots):
    """The order the boots start in: the Bochs boots (the longest, 15 to
    25 s of CPU each) first, then the table's order, so that the matrix
    does not end on one long boot while the other processor idles."""
    return sorted(boots, key=lambda b: not b.boot.startswith("bochs-"))


def boot_env(boot, out):
    """The boot script's environment.  A Bochs boot gets an ALSA that knows
    no device at all (ALSA_CONFIG_PATH names an empty file), as on a
    server, a container or a CI runner without sound: Bochs must boot
    there, whatever the machine running make check has."""
    env = dict(os.environ)
    if boot.boot.startswith("bochs-"):
        empty = out / "alsa-none.conf"
        empty.write_bytes(b"")
        env["ALSA_CONFIG_PATH"] = str(empty)
    return env


def volume_log(disk, dest):
    """Copies the one log file in \\pmu-harness of the boot volume of disk
    (a kept image) to dest.  Returns None, or a logcheck.Missing saying
    why it could not: absent=True when the volume was read and holds no
    log file (no \\pmu-harness, a file of that name, or no *.log in it)."""
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")

    def mtools(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True,
                                  env=env, timeout=60), None
        except (OSError, subprocess.SubprocessError) as e:
            return None, logcheck.Missing(f"{argv[0]}: {e}")

    # The boot volume: the image's EFI system partition.
    off, err = mtools([str(ESP_OFFSET), str(disk)])
    if err:
        return err
    if off.returncode != 0 or not off.stdout.strip().isdigit():
        return logcheck.Missing("no EFI system partition in the kept "
                                "image: " + " ".join(off.stderr.split()))
    img = f"{disk}@@{off.stdout.strip()}"
    ls, err = mtools(["mdir", "-b", "-i", img, "::/pmu-harness"])
    if err:
        return err
    said = " ".join((ls.stderr or ls.stdout).split())
    if ls.returncode != 0:
        return logcheck.Missing("no \\pmu-harness on the boot volume: "
                                + said, absent="not found" in said)
    names = [l.strip() for l in ls.stdout.splitlines() if l.strip()]
    if names == ["::/pmu-harness"]:
        # mdir -b of a file names the file itself; a directory's entries
        # are named below it.
        return logcheck.Missing("\\pmu-harness on the boot volume is a "
                                "file, not a directory", absent=True)
    logs = [n for n in names if n.lower().endswith(".log")]
    if not logs:
        return logcheck.Missing("no *.log file in \\pmu-harness"
                                + (": only " + " ".join(names) if names
                                   else " (it is empty)"), absent=True)
    if len(logs) != 1:
        return logcheck.Missing(f"{len(logs)} log files in \\pmu-harness, "
                                "expected 1: " + " ".join(logs))
    cp, err = mtools(["mcopy", "-n", "-i", img, logs[0], str(dest)])
    if err:
        return err
    if cp.returncode != 0:
        return logcheck.Missing(f"mcopy {logs[0]}: "
                                + " ".join(cp.stderr.split()))
    return None


def run_timed(argv, err, env, limit):
    """Runs the boot script to its end: (exit status, CPU seconds of it and
    of every process it waited for, QEMU or Bochs included).  Past limit
    seconds it is killed and TimeoutExpired raised."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err,
                            stderr=subprocess.STDOUT, env=env)
    killed = []

    def kill():
        killed.append(1)
        proc.kill()
    timer = threading.Timer(limit, kill)
    timer.start()
    try:
        status, cpu = proctime.wait_cpu(proc)
    finally:
        timer.cancel()
    if killed:
        raise subprocess.TimeoutExpired(argv, limit)
    return status, cpu


def run_boot(boot, media, out, snapshot=None):
    """Boots one entry (from the firmware snapshot, if one is given);
    leaves NAME.log, NAME.status, NAME.stderr and, for a UEFI boot,
    NAME.volume.log (or NAME.volume.err or .none) in out."""
    base = out / boot.name
    disk = out / f"{boot.name}.disk"
    for suffix in (".log", ".status", ".stderr", ".volume.log",
                   ".volume.err", ".volume.none"):
        Path(f"{base}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(disk, ignore_errors=True)
    start = time.monotonic()
    cpu = 0.0
    with open(f"{base}.stderr", "wb") as err:
        try:
            status, cpu = run_timed(boot_argv(boot, media, out, snapshot),
                                    err,
                                    boot_env(boot, out), boot.timeout + 60)
        except subprocess.TimeoutExpired:
            status = 124
            err.write(b"check_matrix: the boot script did not return\n")
        except OSError as e:
            status = None
            err.write(f"check_matrix: cannot run the boot script: {e}\n"
                      .encode())
    if status is not None:
        Path(f"{base}.status").write_text(f"{status}\n")
    # What the boot cost, for docs/check.md's stage table and for finding
    # the boots that make the matrix long.
    print(f"# boot {boot.name}: {time.monotonic() - start:.1f} s, "
          f"cpu {cpu:.1f} s{' (snapshot)' if snapshot else ''}", flush=True)
    if boot.boot != "uefi":
        shutil.rmtree(disk, ignore_errors=True)
        return
    why = volume_log(disk / "disk.img", Path(f"{base}.volume.log")) \
        if (disk / "disk.img").exists() \
        else logcheck.Missing("the boot left no disk image")
    if why:
        suffix = ".volume.none" if why.absent else ".volume.err"
        Path(f"{base}{suffix}").write_text(why.why + "\n")
    shutil.rmtree(disk, ignore_errors=True)


def safe_run_boot(boot, media, out, snapshot=None):
    """run_boot; an unexpected error is written to NAME.stderr, where the
    checks of that boot will show it, and the other boots go on."""
    try:
        run_boot(boot, media, out, snapshot)
    except Exception as e:      # noqa: BLE001 - reported, never hidden
        with open(out / f"{boot.name}.stderr", "a") as f:
            f.write(f"check_matrix: boot failed: {e!r}\n")


def read_status(path):
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def check_one(boot, logs):
    """Checks the files of one boot in the directory logs."""
    base = logs / boot.name
    log = pmulog.parse_file(f"{base}.log")
    status = read_status(f"{base}.status")
    try:
        stderr = Path(f"{base}.stderr").read_text(errors="replace")
    except OSError:
        stderr = ""
    volume = read_volume(base)
    try:
        tap = volumelog.serial_tap(Path(f"{base}.log").read_bytes())
    except OSError:
        tap = None
    return logcheck.check_boot(boot, log, status, volume, stderr, tap)


def read_volume(base):
    """BASE.volume.log's bytes, or a logcheck.Missing from BASE.volume.none
    (absent) or BASE.volume.err."""
    try:
        return Path(f"{base}.volume.log").read_bytes()
    except OSError:
        pass
    for suffix, absent in ((".volume.none", True), (".volume.err", False)):
        try:
            why = Path(f"{base}{suffix}").read_text().strip()
        except OSError:
            continue
        return logcheck.Missing(why, absent)
    return logcheck.Missing(f"no file {base}.volume.log")


def jobs_from_env():
    v = os.environ.get("JOBS", "2")
    try:
        n = int(v)
    except ValueError:
        n = 0
    return n if n >= 1 else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matrix", default=str(ROOT / "tools" / "check" /
                                             "matrix.yaml"))
    ap.add_argument("--image", default=str(ROOT / "build" / "pmu-harness.img"))
    ap.add_argument("--kernel", default=str(ROOT / "build" / "i386" /
                                            "pmu-harness.elf"))
    ap.add_argument("--floppy", default=str(ROOT / "build" /
                                            "pmu-harness-floppy.img"))
    ap.add_argument("--vars", default=str(WARM_VARS),
                    help="the warm UEFI variable store (make ovmf-vars)")
    ap.add_argument("--out", default=str(ROOT / "build" / "check"))
    ap.add_argument("--logs", metavar="DIR",
                    help="check the logs in DIR, boot nothing")
    ap.add_argument("boots", nargs="*", metavar="BOOT")
    a = ap.parse_args(argv)

    lines = []          # (ok, text)

    def say(ok, boot, what):
        lines.append(ok)
        print(f"{'ok' if ok else 'not ok'} - {boot}: {what}", flush=True)

    boots, errors = boottable.load(a.matrix)
    for e in errors:
        say(False, e.boot or "matrix", f"table {a.matrix}: {e.message}")
    if a.boots:
        known = {b.name for b in boots} | {e.boot for e in errors}
        for n in a.boots:
            if n not in known:
                say(False, n, f"no such boot in {a.matrix}")
        boots = [b for b in boots if b.name in a.boots]

    if a.logs:
        logs = Path(a.logs)
    else:
        logs = Path(a.out)
        jobs = jobs_from_env()
        media = {"image": Path(a.image), "kernel": Path(a.kernel),
                 "floppy": Path(a.floppy), "vars": Path(a.vars)}
        if jobs is None:
            say(False, "matrix", f"JOBS={os.environ.get('JOBS')!r} is not a "
                                 "positive number")
            boots = []
        missing = {m for b in boots for m in media_needed(b)
                   if not media[m].is_file()}
        for m in sorted(missing):
            say(False, "matrix", f"no {m} {media[m]} ({MADE_BY[m]}): its "
                                 "boots are left out")
        boots = [b for b in boots if not missing & set(media_needed(b))]
        if boots:
            logs.mkdir(parents=True, exist_ok=True)
            print(f"# boot matrix: {len(boots)} boots, {jobs} at a time",
                  flush=True)
            start_from = {}
            if os.environ.get("SNAPSHOTS", "1") != "0":
                start_from = save_snapshots(boots, media, logs, jobs, say)
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                for _ in pool.map(lambda b: safe_run_boot(
                        b, media, logs, start_from.get(b.name)),
                        longest_first(boots)):
                    pass
    for b in boots:
        for c in check_one(b, logs):
            say(c.ok, b.name, c.what)
    failed = lines.count(False)
    passed = lines.count(True)
    print(f"# boot matrix: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
