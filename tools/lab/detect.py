"""`pmu-harness detect --cpuid FILE [--json]`: what the harness would say
on the CPU a CPUID dump comes from (docs/lab.md#detect).

The dump (an InstLatx64 text dump in any of its layouts, read by
tools/lab/cpuid_dump.py) gives each logical CPU's leaves.  Each logical
CPU's leaves go to build/host/pmu-detect (tools/lab/pmu_detect.c): the
harness's own detection code, built for the host with CPUID answered from
the dump, which prints the log's "# cpu:" and "# pmu:" lines, the
topology, its facts and the test plan.  This module only runs it
(arguments as a list, never through a shell) and formats: no rule is
restated here but the JSON's names for what only an MSR could say.
"""

import functools
import json
import subprocess
import sys

from . import common, cpuid_dump, pmulog

PROG = "detect"
TOOL = "build/host/pmu-detect"


class DetectError(Exception):
    """A dump that cannot be read, or a tool that cannot be built or run;
    the message says which."""


@functools.lru_cache(maxsize=None)
def build_tool():
    """Path of pmu-detect, (re)built by make when needed (once a run)."""
    return common.build_host_tool(TOOL, DetectError)


def leaves_text(cpu):
    """The tool's input: "LEAF SUBLEAF EAX EBX ECX EDX" (hex) per line."""
    return "".join(f"{leaf:x} {sub:x} {a:x} {b:x} {c:x} {d:x}\n"
                   for (leaf, sub), (a, b, c, d) in sorted(cpu.leaves.items()))


def run_tool(tool, cpu):
    """The tool's lines for one logical CPU, as a dict of lists."""
    r = subprocess.run([str(tool)], input=leaves_text(cpu),
                       capture_output=True, text=True)
    if r.returncode:
        raise DetectError(f"logical CPU #{cpu.index}: "
                          f"{r.stderr.strip() or r.returncode}")
    out = {"fact": {}, "plan": []}
    for line in r.stdout.splitlines():
        kind, _, rest = line.partition("\t")
        if kind == "fact":
            name, _, value = rest.partition("\t")
            out["fact"][name] = value
        elif kind == "plan":
            group, verdict, why = (rest.split("\t") + ["", ""])[:3]
            out["plan"].append((group, verdict, why))
        else:
            out[kind] = rest
    return out


def pmu_fields(line):
    """key=value of a "# pmu:" line (quoted values unquoted), read as
    every lab tool reads header lines (pmulog.parse_fields)."""
    return pmulog.parse_fields(line)[1]


def _int(v):
    try:
        return int(v, 0)
    except (TypeError, ValueError):
        return None


def describe(out, index):
    """The JSON object of one logical CPU (docs/lab.md#detect)."""
    f = out["fact"]
    pmu = pmu_fields(out["pmu"])
    arch = f["pmu_kind"] == "arch-perfmon" and pmu.get("caps") != "none"
    threads = int(f["threads_per_core"])
    ds = f["ds"] == "1"
    plan = {}
    for group, verdict, why in out["plan"]:
        plan[group] = (verdict if verdict == "run" and not why
                       else f"{verdict}: {why}")
    return {
        "logical_cpu": index,
        "vendor": f["vendor"], "family": int(f["family"]),
        "model": int(f["model"]), "stepping": int(f["stepping"]),
        "name": f["name"], "pmu_kind": f["pmu_kind"],
        "threads_per_core": threads,
        "cores_per_package": int(f["cores_per_package"]),
        "ht": threads >= 2,
        "hybrid": f["hybrid"] == "1",
        "core_type": f["core_type"] or None,
        "perfmon_version": _int(pmu.get("version")) if arch else None,
        "gp_counters": _int(pmu.get("counters")) if arch else None,
        "gp_width": _int(pmu.get("width")) if arch else None,
        "fixed_counters": _int(pmu.get("fixed")) if arch else None,
        "fixed_width": _int(pmu.get("fixed_width")) if arch else None,
        "events_unavailable": pmu.get("events_unavailable") if arch
        else None,
        # PEBS needs the DS area (CPUID.01H:EDX.DS); whether it is there
        # only IA32_MISC_ENABLE[12] says (SDM Vol. 3B 18.6.2.4)
        "pebs": "unknown" if ds else False,
        # architectural LBRs: CPUID.07H:EDX[19]; legacy ones' format only
        # IA32_PERF_CAPABILITIES[5:0] says
        "lbr": True if f["arch_lbr"] == "1" else "unknown",
        "pt": f["pt"] == "1",
        "header": {"cpu": out["cpu"], "cpu-extra": out["cpu-extra"],
                   "pmu": out["pmu"]},
        "topology": out["topology"],
        "plan": plan,
    }


def detect(path):
    """One object per logical CPU of the dump at path."""
    try:
        cpus = cpuid_dump.parse_file(path)
    except (OSError, cpuid_dump.DumpError) as e:
        raise DetectError(f"{path}: {e}")
    if not cpus:
        raise DetectError(f"{path}: no CPUID lines")
    tool = build_tool()
    return [describe(run_tool(tool, c), c.index) for c in cpus]


def format_text(objs):
    out = []
    for o in objs:
        out += [f"logical CPU #{o['logical_cpu']}:",
                f"# cpu: {o['header']['cpu']}",
                f"# cpu-extra: {o['header']['cpu-extra']}",
                f"# pmu: {o['header']['pmu']}",
                f"# topology: {o['topology']} ht={int(o['ht'])} "
                f"hybrid={int(o['hybrid'])} "
                f"core_type={o['core_type'] or '-'}",
                "plan:"]
        width = max(len(g) for g in o["plan"]) if o["plan"] else 0
        out += [f"  {g.ljust(width)}  {v}" for g, v in o["plan"].items()]
        out.append("")
    return "\n".join(out)


def add_parser(sub):
    p = sub.add_parser(
        "detect", help="what the harness says of a CPU, from a CPUID dump",
        description="Runs the harness's own detection (built for the host "
        "by make: build/host/pmu-detect) on each logical CPU of a CPUID "
        "dump (InstLatx64's text layouts) and prints what the harness "
        "would: the '# cpu:' and '# pmu:' lines, the topology and the test "
        "plan (per group: run, skip with the reason, or unknown where only "
        "an MSR could say). Exit status: 0, or 2 for a dump that cannot "
        "be read.")
    p.add_argument("--cpuid", required=True, metavar="FILE",
                   help="the CPUID dump")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per logical CPU, in a list")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    try:
        objs = detect(args.cpuid)
    except DetectError as e:
        common.warn(PROG, str(e))
        return common.EXIT_USAGE
    sys.stdout.write(json.dumps(objs, indent=2) + "\n" if args.json
                     else format_text(objs))
    sys.stdout.flush()
    return common.EXIT_OK
