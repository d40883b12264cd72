"""mutate: deliberate misreadings of the product code, each of which some
test must kill (docs/testing.md, "make mutate").

    python3 -m tools.check.mutate [--list FILE] [--only NAME...] [--keep]

Each mutant of the list (tools/check/mutants.yaml) is one exact text
replacement in one product file, with the host tests, make check stages
and boots that should kill it: a swapped event mapping, an overflow one
event early, a wrong cascade pair in a model, a record field one slot
off...  For each, alone, in a private copy of the tree (build/mutate/tree,
so the working tree is never touched): apply it, rebuild, run the host
tests and the boots it names, and look for a failing test.  A mutant is
killed when a test it names fails (the table says which), survives when
everything passes, and is broken when it does not apply (its text is not
in the file, or is there more than once), the tree does not build or a
host test it names does not build:
a broken mutant proves nothing, so it counts against the list too.

Prints one row per mutant and exits 1 when any survived or was broken.
Not part of make check: it rebuilds the tree once per mutant.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

import yaml

from tools.lab.pmulog import load_yaml

ROOT = Path(__file__).resolve().parent.parent.parent
LIST = Path(__file__).resolve().parent / "mutants.yaml"
WORK = ROOT / "build" / "mutate"
NOT_OK = re.compile(r"^not ok \d+ - (\S+)", re.M)
HOST_UNBUILT = re.compile(r"^host-test: (\S+): build failed", re.M)
HOST_FAILED = re.compile(r"^\[  FAILED  \] ([A-Za-z_]\w*)$", re.M)


class ListError(Exception):
    pass


class Unbuilt(Exception):
    """A test the mutant should fail did not even build: that proves
    nothing about the misreading."""


@dataclass
class Boot:
    cpu: str
    tests: str
    smp: Optional[str] = None
    bios: bool = False          # the i386 Multiboot kernel on SeaBIOS

    def label(self):
        smp = f" smp={self.smp}" if self.smp else ""
        bios = " bios" if self.bios else ""
        return f"boot {self.cpu}{smp}{bios} tests={self.tests}"


@dataclass
class Mutant:
    name: str
    file: str
    find: str
    replace: str
    why: str
    host: List[str] = field(default_factory=list)
    boots: List[Boot] = field(default_factory=list)
    stages: List[str] = field(default_factory=list)


def _str(d, key, where):
    v = d.get(key)
    if not isinstance(v, str) or not v:
        raise ListError(f"{where}: '{key}' must be a non-empty string")
    return v


def parse_list(text, where="mutants.yaml"):
    try:
        doc = load_yaml(text)
    except yaml.YAMLError as e:
        raise ListError(f"{where}: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("mutants"),
                                                   list):
        raise ListError(f"{where}: a mapping with a 'mutants' list")
    out, names = [], set()
    for i, m in enumerate(doc["mutants"]):
        at = f"{where}: mutant {i + 1}"
        if not isinstance(m, dict):
            raise ListError(f"{at}: not a mapping")
        unknown = set(m) - {"name", "file", "find", "replace", "why",
                            "host", "boots", "stages"}
        if unknown:
            raise ListError(f"{at}: unknown keys {sorted(unknown)}")
        name = _str(m, "name", at)
        if name in names:
            raise ListError(f"{at}: name {name} used twice")
        names.add(name)
        host = m.get("host", [])
        if not isinstance(host, list) or \
                not all(isinstance(h, str) and h for h in host):
            raise ListError(f"{at} ({name}): 'host' is a list of tests")
        boots = []
        for b in m.get("boots", []) or []:
            if not isinstance(b, dict) or \
                    set(b) - {"cpu", "tests", "smp", "bios"} or \
                    not isinstance(b.get("bios", False), bool):
                raise ListError(f"{at} ({name}): a boot has cpu, tests "
                                "and optionally smp and bios (true: the "
                                "i386 kernel on a BIOS)")
            boots.append(Boot(cpu=_str(b, "cpu", at),
                              tests=_str(b, "tests", at),
                              smp=b.get("smp"),
                              bios=b.get("bios", False)))
        stages = m.get("stages", [])
        if not isinstance(stages, list) or \
                not all(isinstance(s, str) and s for s in stages):
            raise ListError(f"{at} ({name}): 'stages' is a list of make "
                            "check stages")
        unknown = [s for s in stages if not suite_module(s).is_file()]
        if unknown:
            raise ListError(f"{at} ({name}): no make check stage "
                            f"{', '.join(unknown)} (a stage is a module "
                            "tools/check/suite/test_STAGE.py)")
        if not host and not boots and not stages:
            raise ListError(f"{at} ({name}): names no host test, boot or "
                            "stage to kill it")
        out.append(Mutant(name=name, file=_str(m, "file", at),
                          find=_str(m, "find", at),
                          replace=m.get("replace", ""),
                          why=_str(m, "why", at), host=host, boots=boots,
                          stages=stages))
    if not out:
        raise ListError(f"{where}: no mutants")
    return out


def run(argv, cwd, log, timeout=900):
    """Runs argv (a list: no shell) with its output to log; the exit
    status, or None when it ran out of time."""
    with open(log, "w") as out:
        try:
            return subprocess.run(argv, cwd=cwd, stdout=out,
                                  stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return None


def copy_tree(dst):
    """A private copy of the tracked files (and the build, so the first
    rebuild is incremental)."""
    if dst.exists():
        shutil.rmtree(dst)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = ROOT / rel
        if not src.is_file():
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst / rel)
    build = ROOT / "build"
    if build.is_dir():
        shutil.copytree(build, dst / "build", symlinks=True,
                        ignore=build_ignored)


# What of build/ the copy leaves out: the mutants' own trees, make check's
# outputs, and make fresh-check's Debian root (gigabytes, and device nodes
# such as dev/zero, which a copy would read without end).
BUILD_IGNORED = ("mutate", "check", "fresh")


def build_ignored(directory, names):
    """shutil.copytree's ignore: BUILD_IGNORED at build/'s top, and
    anything that is not a directory, a regular file or a symbolic link
    (a device node, a FIFO, a socket) wherever it is."""
    out = set()
    top = Path(directory).name == "build"
    for n in names:
        p = Path(directory) / n
        if top and n in BUILD_IGNORED:
            out.add(n)
        elif not (p.is_symlink() or p.is_dir() or p.is_file()):
            out.add(n)
    return out


def apply(tree, m):
    """The mutated text, or why the mutant does not apply."""
    path = tree / m.file
    try:
        text = path.read_text()
    except OSError as e:
        return None, f"cannot read {m.file}: {e.strerror}"
    n = text.count(m.find)
    if n != 1:
        return None, f"'find' occurs {n} times in {m.file}, not once"
    return text, None


def suite_module(stage, tree=None):
    """The pytest module of a make check stage (tools/check/suite/)."""
    return (tree or ROOT) / "tools" / "check" / "suite" / f"test_{stage}.py"


def killers(m, tree, logs):
    """Runs the mutant's host tests and boots; the failing tests."""
    found = []
    if m.host:
        log = logs / f"{m.name}.host.log"
        rc = run([str(tree / "tools/check/host-test.sh"), *m.host], tree,
                 log)
        text = log.read_text(errors="replace")
        unbuilt = HOST_UNBUILT.findall(text)
        if unbuilt:
            raise Unbuilt(f"host tests that do not build: "
                          f"{' '.join(unbuilt)} ({log})")
        failed = list(dict.fromkeys(HOST_FAILED.findall(text)))
        if rc != 0:
            found += [f"host {t}" for t in failed] or \
                [f"host {' '.join(m.host)} (exit {rc})"]
    if m.stages:
        log = logs / f"{m.name}.stages.log"
        rc = run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-q",
                  "-rf", *[str(suite_module(s, tree)) for s in m.stages]],
                 tree, log)
        text = log.read_text(errors="replace")
        failed = re.findall(r"^FAILED (\S+)", text, re.M)
        if rc != 0:
            found += [f"stage {t}" for t in failed] or \
                [f"stage {' '.join(m.stages)} (exit {rc})"]
    for i, b in enumerate(m.boots):
        log = logs / f"{m.name}.boot{i}.log"
        image = ["--bios", "kernel", "--image",
                 str(tree / "build/i386/pmu-harness.elf")] if b.bios else \
            ["--image", str(tree / "build/pmu-harness.img")]
        argv = [str(tree / "tools/boot/qemu-boot.sh"), *image, "--cpu",
                b.cpu, "--args", f"tests={b.tests}", "--log", str(log),
                "--timeout", "600"]
        if b.smp:
            argv += ["--smp", b.smp]
        rc = run(argv, tree, logs / f"{m.name}.boot{i}.out")
        text = log.read_text(errors="replace") if log.exists() else ""
        failed = NOT_OK.findall(text)
        if failed:
            found += [f"{b.cpu}: {t}" for t in failed]
        elif rc not in (0,):
            found.append(f"{b.label()}: qemu-boot exit {rc} with no "
                         "failed test")
    return found


def rebuild(tree, log):
    return run(["make", "-j2", "all", "image"], tree, log)


def try_mutant(m, tree, logs):
    """'killed', 'survived' or 'broken', and the detail."""
    text, why = apply(tree, m)
    if text is None:
        return "broken", why
    path = tree / m.file
    path.write_text(text.replace(m.find, m.replace, 1))
    try:
        rc = rebuild(tree, logs / f"{m.name}.build.log")
        if rc != 0:
            return "broken", f"the tree does not build (exit {rc}, " \
                f"{logs / (m.name + '.build.log')})"
        found = killers(m, tree, logs)
    except Unbuilt as e:
        return "broken", str(e)
    finally:
        path.write_text(text)
        os.utime(path)
    if found:
        more = f" (+{len(found) - 3} more)" if len(found) > 3 else ""
        return "killed", "; ".join(found[:3]) + more
    return "survived", "every named test passed"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="mutate", description="the mutants of tools/check/"
        "mutants.yaml, each of which a test must kill")
    ap.add_argument("--list", default=str(LIST))
    ap.add_argument("--only", nargs="*", default=None,
                    help="run only these mutants")
    ap.add_argument("--keep", action="store_true",
                    help="reuse build/mutate/tree as it is")
    a = ap.parse_args(argv)
    try:
        mutants = parse_list(Path(a.list).read_text(), a.list)
    except (OSError, ListError) as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2
    if a.only:
        unknown = set(a.only) - {m.name for m in mutants}
        if unknown:
            print(f"mutate: no mutant {sorted(unknown)}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.name in a.only]
    tree, logs = WORK / "tree", WORK / "logs"
    if not (a.keep and tree.is_dir()):
        copy_tree(tree)
    logs.mkdir(parents=True, exist_ok=True)
    print(f"# mutate: {len(mutants)} mutants, a private tree in {tree}")
    if rebuild(tree, logs / "base.build.log") != 0:
        print(f"mutate: the unmutated tree does not build "
              f"({logs / 'base.build.log'})", file=sys.stderr)
        return 2
    bad = 0
    rows = []
    for m in mutants:
        t0 = time.monotonic()
        verdict, detail = try_mutant(m, tree, logs)
        rows.append((m, verdict, detail))
        bad += verdict != "killed"
        print(f"{'ok' if verdict == 'killed' else 'not ok'} - mutant "
              f"{m.name}: {verdict} ({time.monotonic() - t0:.0f} s): "
              f"{detail}", flush=True)
    print()
    print("| mutant | file | misreading | killed by |")
    print("| --- | --- | --- | --- |")
    for m, verdict, detail in rows:
        cell = detail if verdict == "killed" else f"**{verdict}**: {detail}"
        print(f"| {m.name} | `{m.file}` | {m.why} | {cell} |")
    print()
    print(f"# mutate: {len(rows) - bad} killed, {bad} survived or broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
