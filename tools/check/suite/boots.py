"""boots: the boot table's entries (tools/check/matrix.yaml) booted once
per make check run (once.py), each boot's files left in build/check as
tools/check/matrix.py leaves them, and the firmware snapshots that boots
of one machine share (docs/check.md, "Firmware snapshots")."""

import functools
import os
import re
from pathlib import Path

from tools.check import boottable, matrix

from . import build, once

TABLE = once.ROOT / "tools" / "check" / "matrix.yaml"
MEDIA = {"image": once.ROOT / "build" / "pmu-harness.img",
         "kernel": once.ROOT / "build" / "i386" / "pmu-harness.elf",
         "floppy": once.ROOT / "build" / "pmu-harness-floppy.img",
         "vars": matrix.WARM_VARS}


@functools.lru_cache(maxsize=None)
def table():
    """(boots, errors) of the boot table, read once per process."""
    return boottable.load(str(TABLE))


def by_name():
    return {b.name: b for b in table()[0]}


def key(prefix, name):
    return f"{prefix}-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)


def shapes():
    """[(shape, members)] of the shapes two boots or more share, in table
    order (matrix.shared_shapes over the whole table, whatever a run
    selects, so that a boot always starts from the same snapshot)."""
    if os.environ.get("SNAPSHOTS", "1") == "0":
        return []
    return list(matrix.shared_shapes(table()[0]).items())


def save_snapshot(key, path, cpu, machine, limit, point):
    """{"ok", "text", "path"}: a firmware snapshot of the image saved to
    path once per run (matrix.save_snapshot's arguments), after the
    build."""
    def produce():
        build.require()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        path.with_suffix(".stderr").unlink(missing_ok=True)
        ok, text = matrix.save_snapshot(MEDIA["image"], cpu, machine, path,
                                        limit, point)
        return {"ok": ok, "text": text, "path": str(path)}
    return once.run(key, produce)


def snapshot(index):
    """{"ok", "text", "path"} of shape index's snapshot, saved once."""
    _, members = shapes()[index]
    first = members[0]
    return save_snapshot(
        f"snapshot-{index}", once.OUT / "snapshots" / f"shape-{index}.state",
        first.cpu, matrix.shape_argv(matrix.boot_argv(first, MEDIA, once.OUT)),
        first.timeout, matrix.snapshot_point(members))


def snapshot_of(boot):
    """The snapshot path boot starts from, or None (not a shared shape, or
    its snapshot could not be saved: test_firmware_snapshot says so)."""
    shape = matrix.snapshot_shape(boot)
    for i, (s, _) in enumerate(shapes()):
        if s == shape:
            saved = snapshot(i)
            return saved["path"] if saved["ok"] else None
    return None


def missing_media(boot):
    """What boot needs that the build did not leave, as text, or None."""
    gone = [f"no {m} {MEDIA[m]} ({matrix.MADE_BY[m]})"
            for m in matrix.media_needed(boot) if not MEDIA[m].is_file()]
    return "; ".join(gone) or None


def boot(b):
    """Boots entry b once per run; returns {"missing": None or why}."""
    def produce():
        build.require()
        why = missing_media(b)
        if why:
            return {"missing": why}
        snap = snapshot_of(b)
        matrix.safe_run_boot(b, MEDIA, once.OUT,
                             None if snap is None else Path(snap))
        return {"missing": None}
    return once.run(key("boot", b.name), produce)
