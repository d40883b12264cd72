"""run.py: `make lava`.  Runs the pmu-harness QEMU jobs (tools/lab/lava/
qemu-uefi.yaml: the UEFI disk image; qemu-bios.yaml: the Multiboot kernel
on a legacy BIOS) under LAVA's own dispatcher on this machine, with no
LAVA server, and checks for each that the test cases LAVA recorded equal
the results of the harness's TAP log of the same run.

    python3 -m tools.lab.lava.run --out DIR [--image IMG] [--kernel ELF]
        [--job JOB.yaml]... [--cpu MODEL] [--timeout S] [--job-id N]

Without --job both QEMU jobs run, one after the other.  A job whose
images have a `disk` needs --image (build/pmu-harness.img), one with a
`kernel` needs --kernel (build/i386/pmu-harness.elf).

Steps for each job JOB, each leaving its file in DIR/JOB (the job file's
name without .yaml) for inspection:
  1. the `qemu` device-type template: it ships only in the lava-server
     package, which is downloaded (`apt-get download`, not installed) and
     unpacked into DIR/lava-server once (cached there, for every job);
  2. DIR/JOB/device.yaml: the device dictionary tools/lab/lava/
     qemu-device.jinja2 rendered with the job's `context:`, as lava-server
     would render it;
  3. DIR/JOB/job.yaml: the job with the url of its `disk` set to IMG and
     of its `kernel` to ELF (and the CPU model MODEL with --cpu);
  4. `lava-run --job-id N --output-dir DIR/JOB/output --device
     DIR/JOB/device.yaml DIR/JOB/job.yaml`, its log (one YAML mapping a
     line) in DIR/JOB/lava-run.stderr: LAVA's test cases are its "results"
     records;
  5. DIR/JOB/serial.log: the target's output taken from the same log (its
     "target" records), parsed by tools/lab/pmulog.py;
  6. the comparison: one "ok - ..." or "not ok - ..." line per check, then
     "# verdict: ...".

Exit status: 0 LAVA's results equal the log's; 1 they differ, or the job
or the harness's run did not complete; 2 bad arguments, or this machine
cannot run the job (the message says what is missing and why).  With
several jobs, each job's status is printed and the highest is returned.

The parsing helpers (read_records, lava_cases, lava_measurements,
target_text, compare, case_id) take lava-run's output as text and are
what tools/lab/tests/test_lava.py tests without LAVA.
"""

import argparse
import re
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

import yaml

from tools.lab import pmulog

HERE = Path(__file__).resolve().parent

PROG = "lava/run.py"
JOBS = (HERE / "qemu-uefi.yaml", HERE / "qemu-bios.yaml")
DEVICE_TEMPLATE = HERE / "qemu-device.jinja2"
SUITE = "pmu-harness"                   # the results monitor's name
SUMMARY_SUITE = "pmu-harness-summary"   # the summary monitor's name
# Where an installed lava-server keeps the device types, and where its
# package (lava-server_*.deb) keeps them.
INSTALLED_TYPES = Path("/etc/lava-server/dispatcher-config/device-types")
PACKAGED_TYPES = Path("usr/share/lava-server/device-types")
# The images run.py supplies: the job's image label -> (the option that
# names the file, what builds it).
INPUTS = {"disk": ("--image", "make image"),
          "kernel": ("--kernel", "make i386")}
# Other file:// urls a job reads from this machine, and their package.
URL_PACKAGES = {"/usr/share/OVMF/": "ovmf"}
# The job context's arch -> the QEMU lava-server's qemu.jinja2 runs.
QEMU_BINARY = {"amd64": "qemu-system-x86_64", "x86_64": "qemu-system-x86_64",
               "i386": "qemu-system-i386"}
# pmulog's status -> LAVA's result (the job's fixupdict does this mapping).
LAVA_RESULT = {"ok": "pass", "not ok": "fail", "skip": "skip"}
SHOWN = 20                  # mismatching cases shown one by one

EXIT_MATCH, EXIT_DIFFER, EXIT_CANNOT = 0, 1, 2


class CannotRun(Exception):
    """This machine cannot run the job; the message says why."""


# ---- lava-run's log ------------------------------------------------------

@dataclass
class Record:
    """One line of lava-run's log: {"dt", "lvl", "msg"}."""
    line: int
    lvl: str
    msg: object


@dataclass
class Case:
    """A test case LAVA recorded (a "results" record of a monitor)."""
    suite: str              # the monitor's name ("definition")
    case: str               # LAVA's sanitised id
    test_case_id: str       # the text the pattern captured, stripped
    result: str             # pass, fail, skip, unknown
    measurement: Optional[str] = None
    line: int = 0


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_records(text: str):
    """lava-run's stderr -> (records, other): each line is a YAML flow
    mapping (lava_common/log.py dump()); lines that are not (a Python
    warning, a traceback) come back in `other` as (line number, text)."""
    records, other = [], []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            d = yaml.load(line, Loader=_LOADER)
        except yaml.YAMLError:
            d = None
        if isinstance(d, dict) and "lvl" in d and "msg" in d:
            records.append(Record(n, str(d["lvl"]), d["msg"]))
        else:
            other.append((n, line))
    return records, other


def lava_cases(records, suite: str) -> List[Case]:
    """The test cases of one monitor (its name is the "definition"), in
    the order LAVA recorded them."""
    out = []
    for r in records:
        m = r.msg
        if r.lvl != "results" or not isinstance(m, dict) or \
                m.get("definition") != suite:
            continue
        extra = m.get("extra") if isinstance(m.get("extra"), dict) else {}
        meas = m.get("measurement")
        out.append(Case(suite, str(m.get("case", "")),
                        str(extra.get("test_case_id", "")),
                        str(m.get("result", "")),
                        None if meas is None else str(meas), r.line))
    return out


def lava_measurements(records, suite: str = SUMMARY_SUITE) -> Dict[str, str]:
    """{case: measurement as LAVA logged it} of the summary monitor."""
    return {c.case: c.measurement for c in lava_cases(records, suite)
            if c.measurement is not None}


def lava_job_result(records) -> Optional[str]:
    """The job's own result ("pass"/"fail"), None when LAVA logged none."""
    for r in records:
        if r.lvl == "results" and isinstance(r.msg, dict) and \
                r.msg.get("definition") == "lava" and \
                r.msg.get("case") == "job":
            return str(r.msg.get("result"))
    return None


def lava_errors(records) -> List[str]:
    """LAVA's own error and exception messages."""
    return [f"lava-run log line {r.line}: {r.msg}" for r in records
            if r.lvl in ("error", "exception")]


def target_text(records) -> str:
    """The target's console output as LAVA logged it, one line per
    "target" record.  LAVA's ShellLogger (lava_dispatcher/shell.py) drops
    CRs and ESC bytes and writes each '"' as '\\"': that is undone here, so
    from "TAP version 13" on the text is the harness's log with LF ends.
    It ends at LAVA's first "input" record: a monitor job types nothing
    until its finalize step sends "poweroff", whose echo is not the
    harness's."""
    lines = []
    for r in records:
        if r.lvl == "input":
            break
        if r.lvl == "target" and isinstance(r.msg, str):
            lines.append(r.msg.replace('\\"', '"'))
    return "".join(l + "\n" for l in lines)


# ---- the comparison --------------------------------------------------------

def case_id(name: str) -> str:
    """LAVA's test case id for a captured name: stripped, lower case,
    each run of non-word characters one "_" (lava_dispatcher/actions/
    test/monitor.py, check_patterns)."""
    return re.sub(r"\W+", "_", name.strip().lower())


def _same(case: Case, res) -> Optional[str]:
    """Why a LAVA case differs from a pmulog result, or None."""
    want = (case_id(res.name), res.name.strip(), LAVA_RESULT[res.status])
    got = (case.case, case.test_case_id, case.result)
    if got == want:
        return None
    return (f"LAVA {case.case} ({case.test_case_id!r}) {case.result}, "
            f"the log {res.name!r} {res.status} (serial.log line "
            f"{res.line})")


def compare_cases(log, cases: List[Case]):
    """(ok, text) checks: each of the log's results against LAVA's case
    of the same position."""
    checks, bad = [], []
    for i in range(max(len(log.results), len(cases))):
        res = log.results[i] if i < len(log.results) else None
        case = cases[i] if i < len(cases) else None
        if res is None:
            bad.append(f"case {i + 1}: LAVA has {case.case} {case.result}, "
                       "the log has no such result")
        elif case is None:
            bad.append(f"case {i + 1}: the log's {res.name!r} "
                       f"{res.status} (line {res.line}) is not in LAVA")
        else:
            why = _same(case, res)
            if why:
                bad.append(f"case {i + 1}: {why}")
    for text in bad[:SHOWN]:
        checks.append((False, text))
    if len(bad) > SHOWN:
        checks.append((False, f"{len(bad) - SHOWN} more cases differ"))
    if not bad:
        checks.append((True, f"{len(cases)} test cases: LAVA's name and "
                             "result equal the log's for each"))
    return checks


def compare_summary(log, cases: List[Case], measured: Dict[str, str]):
    """(ok, text) checks: the summary line against LAVA's measurements
    and against the cases LAVA counted."""
    if log.summary is None:
        return [(False, "the log has no '# summary:' line")]
    s = log.summary
    want = {"passed": s.passed, "failed": s.failed, "skipped": s.skipped}
    checks = []
    got = {}
    for key, value in want.items():
        try:
            got[key] = float(measured[key])
        except (KeyError, TypeError, ValueError):
            got[key] = None
    if all(got[k] == want[k] for k in want):
        checks.append((True, "LAVA's measurements passed/failed/skipped "
                             f"equal the summary {want}"))
    else:
        checks.append((False, f"LAVA's measurements {measured} differ from "
                              f"the summary {want} (line {s.line})"))
    counted = {"passed": 0, "failed": 0, "skipped": 0}
    name = {"pass": "passed", "fail": "failed", "skip": "skipped"}
    for c in cases:
        counted[name.get(c.result, "failed")] += 1
    checks.append((counted == want,
                   f"LAVA's cases counted {counted}"
                   + (" equal" if counted == want else " differ from")
                   + " the summary"))
    return checks


def compare(log, records, lava_status: Optional[int] = 0):
    """Every check of LAVA's results against the log: (ok, text) list."""
    checks = []
    if lava_status is not None:
        checks.append((lava_status == 0,
                       f"lava-run exit status {lava_status}"))
    job = lava_job_result(records)
    checks.append((job == "pass", f"LAVA's job result: {job or 'none'}"))
    for e in lava_errors(records)[:5]:
        checks.append((False, e))
    if not log.found_version:
        checks.append((False, "LAVA's log of the target has no 'TAP "
                              "version 13': the harness's output did not "
                              "reach LAVA"))
        return checks
    for e in log.parse_errors[:5]:
        checks.append((False, f"serial.log: {e}"))
    if log.summary and log.counts() != (log.summary.passed,
                                         log.summary.failed,
                                         log.summary.skipped):
        checks.append((False, f"the log's results count {log.counts()}, "
                              "its summary says otherwise"))
    cases = lava_cases(records, SUITE)
    checks += compare_cases(log, cases)
    checks += compare_summary(log, cases, lava_measurements(records))
    return checks


# ---- running lava-run ------------------------------------------------------

def job_images(job: dict) -> dict:
    """{label: image} of the job's deploy actions."""
    images = {}
    for action in job.get("actions", []):
        deploy = action.get("deploy") if isinstance(action, dict) else None
        if isinstance(deploy, dict):
            images.update(deploy.get("images") or {})
    return images


def preflight(job: dict):
    """What this machine lacks to run the job (made by make_job), as
    CannotRun."""
    arch = job.get("context", {}).get("arch")
    qemu = QEMU_BINARY.get(arch)
    if qemu is None:
        raise CannotRun(f"the job's context arch {arch!r} is none of "
                        f"{', '.join(QEMU_BINARY)}")
    for tool, pkg in (("lava-run", "lava-dispatcher"),
                      (qemu, "qemu-system-x86")):
        if shutil.which(tool) is None:
            raise CannotRun(f"{tool} is not installed (Debian package "
                            f"{pkg}; make deps-lava installs it)")
    for label, image in job_images(job).items():
        url = str(image.get("url", ""))
        if not url.startswith("file://"):
            continue
        f = url[len("file://"):]
        if os.path.isfile(f):
            continue
        pkg = [p for d, p in URL_PACKAGES.items() if f.startswith(d)]
        if pkg:
            raise CannotRun(f"{f} is missing (Debian package {pkg[0]}): "
                            f"the job's {label} is read from there")
        raise CannotRun(f"{f} is missing: the job's {label} url")
    if os.geteuid() != 0:
        raise CannotRun("lava-run runs only as root (it checks its user "
                        "id and stops with 'lava-run should be executed as "
                        "root'; its job files go under the root-owned "
                        "/var/lib/lava/dispatcher/tmp): run make lava as "
                        "root, or submit the job to a LAVA lab")


def device_types(out: Path) -> Path:
    """The directory of lava-server's device-type templates: an installed
    lava-server's, or the package's unpacked into out/lava-server (apt-get
    download, once; cached)."""
    if (INSTALLED_TYPES / "qemu.jinja2").is_file():
        return INSTALLED_TYPES
    unpacked = out / "lava-server"
    types = unpacked / PACKAGED_TYPES
    if (types / "qemu.jinja2").is_file():
        return types
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            raise CannotRun(f"{tool} is missing: the qemu device-type "
                            "template comes from the lava-server package")
    dl = out / "deb"
    shutil.rmtree(dl, ignore_errors=True)
    dl.mkdir(parents=True)
    p = subprocess.run(["apt-get", "download", "lava-server"], cwd=dl,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=600)
    debs = sorted(dl.glob("lava-server_*.deb"))
    if p.returncode != 0 or not debs:
        raise CannotRun("apt-get download lava-server failed (the qemu "
                        "device-type template ships only in that package; "
                        "no network or no apt lists?): "
                        + " ".join((p.stderr or p.stdout).split())[-300:])
    shutil.rmtree(unpacked, ignore_errors=True)
    p = subprocess.run(["dpkg-deb", "-x", str(debs[-1]), str(unpacked)],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0 or not (types / "qemu.jinja2").is_file():
        raise CannotRun(f"dpkg-deb -x {debs[-1].name} gave no "
                        f"{PACKAGED_TYPES}/qemu.jinja2: "
                        + " ".join(p.stderr.split())[-300:])
    return types


def render_device(types: Path, context: dict) -> str:
    """The device dictionary, rendered the way lava-server renders one
    (jinja2, trim_blocks, the job context as variables)."""
    try:
        import jinja2
    except ImportError:
        raise CannotRun("python3-jinja2 is not installed (make deps-lava)")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(HERE), str(types)]),
        trim_blocks=True, autoescape=False)
    return env.get_template(DEVICE_TEMPLATE.name).render(**context)


def make_job(job_path: Path, files: Dict[str, Optional[Path]],
             cpu: Optional[str]) -> dict:
    """The job definition with the url of each image it has of INPUTS
    (files: {"disk": IMG, "kernel": ELF}) set to that file, and the CPU
    model set to cpu: the context's `cpu` where the job has one (arch
    i386: the device-type template writes -cpu from it), else its
    extra_options' -cpu."""
    with open(job_path) as f:
        job = yaml.safe_load(f)
    images = job_images(job)
    for label, (option, builder) in INPUTS.items():
        if label not in images:
            continue
        path = files.get(label)
        if path is None:
            raise CannotRun(f"{job_path.name} boots a {label}: give it "
                            f"with {option}")
        if not path.is_file():
            what = "image" if label == "disk" else label
            raise CannotRun(f"{path}: no such {what} ({builder} builds it)")
        images[label]["url"] = path.resolve().as_uri()
    if cpu:
        context = job["context"]
        if "cpu" in context:
            context["cpu"] = cpu
        else:
            context["extra_options"] = [
                f"-cpu {cpu}" if o.startswith("-cpu ") else o
                for o in context["extra_options"]]
    return job


def run_lava(argv, out: Path, limit: float):
    """Runs lava-run (an argument list) in its own process group, stderr
    to out/lava-run.stderr; (exit status or None on the time limit,
    seconds)."""
    t0 = time.monotonic()
    with open(out / "lava-run.stderr", "w") as err, \
            open(out / "lava-run.stdout", "w") as std:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=std,
                             stderr=err, start_new_session=True)
        try:
            status = p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            status = None
            _stop(p)
    return status, time.monotonic() - t0


def _stop(p):
    """Ends lava-run and its QEMU: the process group it leads."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def prepare(args, job_file: Path, out: Path, top: Path):
    """Device dictionary and job under out (the device-type templates
    cached under top); returns their paths."""
    job = make_job(job_file, {"disk": args.image, "kernel": args.kernel},
                   args.cpu)
    preflight(job)
    device = render_device(device_types(top), job.get("context", {}))
    out.mkdir(parents=True, exist_ok=True)
    dev_path, job_path = out / "device.yaml", out / "job.yaml"
    dev_path.write_text(device)
    with open(job_path, "w") as f:
        yaml.safe_dump(job, f, sort_keys=False, width=1000)
    return dev_path, job_path


def log_only(log) -> List[str]:
    """What the log says that LAVA's results cannot: a Bail out! (the
    harness broke), "# error:" lines, the log file's failure."""
    notes = [f"Bail out! {b.text} (serial.log line {b.line})"
             for b in log.bail_outs]
    notes += [f"# error: {e.text} (serial.log line {e.line})"
              for e in log.error_lines]
    if log.summary and log.summary.logfile_error:
        notes.append(f"logfile_error: {log.summary.logfile_error}")
    return notes


def report(checks, elapsed, notes=()):
    """Prints the checks, the log-only notes and the verdict; returns the
    exit status."""
    for ok, text in checks:
        print(f"{'ok' if ok else 'not ok'} - {text}")
    for n in notes:
        print(f"# in the log only, not in LAVA's results: {n}")
    bad = sum(1 for ok, _ in checks if not ok)
    if bad:
        print(f"# verdict: LAVA's results do NOT match the log ({bad} "
              f"checks failed; lava-run {elapsed:.1f} s)")
        return EXIT_DIFFER
    print(f"# verdict: LAVA's results match the log (lava-run "
          f"{elapsed:.1f} s)")
    return EXIT_MATCH


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--image", type=Path,
                    help="the disk image (build/pmu-harness.img), for a "
                         "job with a disk")
    ap.add_argument("--kernel", type=Path,
                    help="the Multiboot kernel (build/i386/pmu-harness.elf)"
                         ", for a job with a kernel")
    ap.add_argument("--out", type=Path, required=True,
                    help="directory for every intermediate file")
    ap.add_argument("--job", type=Path, action="append", dest="jobs",
                    help="job definition, again for more (default: "
                         f"{' and '.join(j.name for j in JOBS)})")
    ap.add_argument("--cpu", help="QEMU -cpu model instead of the job's")
    ap.add_argument("--timeout", type=float, default=900,
                    help="limit for lava-run in seconds (default 900)")
    ap.add_argument("--job-id", type=int, default=os.getpid(),
                    help="LAVA job id (default: this process's id)")
    return ap.parse_args(argv)


def run_job(args, job_file: Path, job_id: int, top: Path) -> int:
    """Runs one job under top/<its name>; prints its checks and verdict;
    returns its exit status."""
    out = top / job_file.stem
    try:
        dev_path, job_path = prepare(args, job_file, out, top)
    except (CannotRun, subprocess.TimeoutExpired) as e:
        print(f"{PROG}: cannot run the LAVA job {job_file.name} here: {e}",
              file=sys.stderr)
        return EXIT_CANNOT
    except (OSError, yaml.YAMLError, KeyError, TypeError,
            AttributeError) as e:
        print(f"{PROG}: {job_file}: not a usable job: {e}", file=sys.stderr)
        return EXIT_CANNOT
    shutil.rmtree(out / "output", ignore_errors=True)
    argv = ["lava-run", "--job-id", str(job_id), "--output-dir",
            str(out / "output"), "--device", str(dev_path), str(job_path)]
    print(f"# {' '.join(argv)}", flush=True)
    status, elapsed = run_lava(argv, out, args.timeout)
    text = (out / "lava-run.stderr").read_text(errors="replace")
    records, _ = read_records(text)
    serial = target_text(records)
    (out / "serial.log").write_text(serial)
    log = pmulog.parse(serial, str(out / "serial.log"))
    checks = []
    if status is None:
        checks.append((False, f"lava-run passed its {args.timeout:g} s "
                              "limit and was stopped"))
    checks += compare(log, records, status)
    return report(checks, elapsed, log_only(log))


def main(argv):
    args = parse_args(argv[1:])
    top = args.out.resolve()
    top.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs or list(JOBS)
    worst = EXIT_MATCH
    for n, job_file in enumerate(jobs):
        if len(jobs) > 1:
            print(f"# job {job_file.name}", flush=True)
        status = run_job(args, job_file, args.job_id + n, top)
        if len(jobs) > 1:
            print(f"# job {job_file.name}: exit status {status}", flush=True)
        worst = max(worst, status)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv))
