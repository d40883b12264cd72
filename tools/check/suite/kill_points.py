"""kill_points: the SIGKILL points of tools/check/kill.py, each booted and
judged once per make check run (once.py), from one firmware snapshot that
they share (docs/check.md, stage kill)."""

import os

from tools.check import kill

from . import boots, build, once

OUT = once.OUT / "kill"


def vars_file():
    v = boots.MEDIA["vars"]
    return v if v.is_file() else None


def snapshots_on():
    return os.environ.get("SNAPSHOTS", "1") != "0"


def snapshot():
    """{"ok", "text", "path"} of the kill boots' firmware snapshot, or
    None when snapshots are off (SNAPSHOTS=0)."""
    if not snapshots_on():
        return None
    return boots.save_snapshot("kill-snapshot", OUT / "firmware.state",
                               kill.CPU, kill.machine_args(vars_file()),
                               kill.BOOT_LIMIT, "console")


def point(n):
    """{"ok", "what"} of kill point n (1-based), run once."""
    def produce():
        build.require()
        OUT.mkdir(parents=True, exist_ok=True)
        image = boots.MEDIA["image"]
        if not image.is_file():
            return {"ok": False, "what": f"no image {image} (make image)"}
        saved = snapshot()
        start = saved["path"] if saved and saved["ok"] else None
        o = kill.run_point(n, kill.POINTS[n - 1], image, OUT, vars_file(),
                           start)
        return {"ok": o.ok, "what": o.what}
    return once.run(f"kill-point{n}", produce)
