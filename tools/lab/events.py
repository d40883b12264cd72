"""`pmu-harness events --cpu FAMILY-MODEL[-STEPPING]`: every event the
harness knows for that CPU's PMU, from the tables the harness itself uses
(docs/lab.md#events).

The listing comes from build/host/pmu-events (tools/lab/pmu_events.c),
the product's event tables, CPU-model table and capability rows built
for the host; `make` builds it when it is missing or older than its
sources.  This module runs it (arguments as a list, never through a
shell), checks what it said, and prints the JSON (--json) or a table.
"""

import json
import re
import subprocess
import sys

from . import common

PROG = "events"
TOOL = "build/host/pmu-events"
VENDORS = {"intel": "GenuineIntel", "genuineintel": "GenuineIntel",
           "amd": "AuthenticAMD", "authenticamd": "AuthenticAMD"}

_NUM = r"(0[xX][0-9a-fA-F]+|[0-9]+)"
_CPU = re.compile(rf"{_NUM}-{_NUM}(?:-{_NUM})?")


class EventsError(Exception):
    """A bad --cpu, a CPU without a PMU the harness drives, or a tool that
    cannot be built or run; the message says which."""


def parse_cpu(text):
    """FAMILY-MODEL[-STEPPING] (decimal or 0x-hex: DisplayFamily,
    DisplayModel as CPUID.01H gives them) -> (family, model, stepping)."""
    m = _CPU.fullmatch(text.strip())
    if not m:
        raise EventsError(f"--cpu {text!r}: not FAMILY-MODEL[-STEPPING] "
                          "(e.g. 6-94, 6-0x5e-3, 15-2)")
    family, model = int(m.group(1), 0), int(m.group(2), 0)
    stepping = int(m.group(3), 0) if m.group(3) else 0
    # CPUID.01H:EAX: DisplayFamily = family (4 bits) + extended family
    # (8 bits), DisplayModel 8 bits, stepping 4 bits (SDM Vol. 2A CPUID).
    for what, v, top in (("family", family, 0xf + 0xff),
                         ("model", model, 0xff), ("stepping", stepping, 0xf)):
        if v > top:
            raise EventsError(f"--cpu {text!r}: {what} {v} is more than "
                              f"CPUID can report ({top})")
    return family, model, stepping


def build_tool():
    """Path of pmu-events, (re)built by make when needed."""
    return common.build_host_tool(TOOL, EventsError)


def listing(family, model, stepping, vendor="GenuineIntel"):
    """The tool's JSON for a CPU, as a dict (EventsError when the tool
    fails or the CPU has no PMU the harness drives)."""
    tool = build_tool()
    r = subprocess.run([str(tool), vendor, str(family), str(model),
                        str(stepping)], capture_output=True, text=True)
    if r.returncode:
        raise EventsError(f"{TOOL}: {r.stderr.strip() or r.returncode}")
    doc = json.loads(r.stdout)
    if "why" in doc:
        cpu = doc["cpu"]
        what = {"none": "no PMU",
                "unsupported": "a PMU the harness has no driver for"}.get(
                    doc["pmu"], f"{doc['pmu']}, not listed")
        # a signature no generation matches is not known to lack a PMU
        why = doc["why"]
        lead = f"{what}: " if not why.startswith("unknown CPU") else ""
        raise EventsError(
            f"{cpu['vendor']} family {cpu['family']} model {cpu['model']} "
            f"({cpu['name']}): {lead}{why}")
    return doc


# ---- the table

def _hex(v):
    return "-" if v is None else f"{v:02X}H"


def _counters(ev):
    if "fixed" in ev:
        return f"FIXED_CTR{ev['fixed']}"
    c = ev["counters"]
    if c is None:               # no capability row: CPUID.0AH says
        return "CPUID.0AH"
    if c and c == list(range(c[0], c[-1] + 1)) and len(c) > 2:
        return f"{c[0]}-{c[-1]}"
    return ",".join(str(n) for n in c) or "-"


def _model(ev):
    if "model" in ev:           # counted from model state, not a trace count
        return ev["model"]
    if "counts" in ev:
        return " + ".join(ev["counts"]) or "0"
    return "not modelled: " + ev["not_modelled"]


def _netburst_rows(ev):
    escrs = " ".join(f"{x['name']}({','.join(map(str, x['counters']))})"
                     for x in ev["escrs"])
    bits = []
    for b in ev["escr_mask"]:
        if "counts" in b:
            what = " + ".join(b["counts"]) or "0"
            if b.get("minus"):
                what += " - " + " - ".join(b["minus"])
        else:
            what = "not modelled"
        bits.append(f"{b['bit']}:{b['name']}={what}")
    return [ev["name"], _hex(ev["escr_select"]), str(ev["cccr_select"]),
            escrs, "yes" if ev["at_retirement"] else "",
            " ".join(bits) if any("counts" in b for b in ev["escr_mask"])
            else _model(ev)]


def format_table(doc):
    cpu = doc["cpu"]
    out = [f"{cpu['vendor']} family {cpu['family']} model "
           f"{cpu['model']} (0x{cpu['model']:02x}) stepping "
           f"{cpu['stepping']}: {cpu['name']}",
           f"PMU: {doc['pmu']}"]
    if doc.get("caps_unknown"):
        out.append(doc["caps_unknown"])
    caps = doc.get("caps")
    if caps:
        out.append(f"capability row {caps['row']}: version "
                   f"{caps['version']}, {caps['gp']} GP counters, fixed "
                   f"counters 0x{caps['fixed_mask']:x}, CPUID.0AH:EBX "
                   f"0x{caps['ebx']:x}, " +
                   ("no PEBS" if caps["pebs_format"] is None
                    else f"PEBS format {caps['pebs_format']}"))
    out.append("")
    # events selected through ESCRs (the listing's own fields say so, not
    # a generation's name): their columns
    if any("escrs" in ev for ev in doc["events"]):
        head = ["event", "ESCR sel", "CCCR sel", "ESCRs (counters)",
                "at-ret", "model counts (event-mask bit: count)"]
        rows = [_netburst_rows(ev) for ev in doc["events"]]
    else:
        head = ["event", "evsel", "umask", "counters", "precise",
                "model counts"]
        rows = [[ev["name"], _hex(ev["event"]), _hex(ev["umask"]),
                 _counters(ev), "?" if ev["precise"] is None else
                 "PEBS" if ev["precise"] else "",
                 _model(ev)] for ev in doc["events"]]
    widths = [max(len(r[i]) for r in rows + [head])
              for i in range(len(head) - 1)]
    for r in [head] + rows:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths)) +
                   "  " + r[-1])
    out.append("")
    out.append(f"{len(rows)} events")
    return "\n".join(out) + "\n"


def add_parser(sub):
    p = sub.add_parser(
        "events", help="list the events the harness knows for a CPU",
        description="Lists every event the harness knows for a CPU's PMU, "
        "from the tables the harness uses on the target (built for the "
        "host by make: build/host/pmu-events): name, encoding (event "
        "select and unit mask; NetBurst: ESCR event select, event-mask "
        "bits, ESCRs, CCCR ESCR select), counters, PEBS, and what the "
        "reference model counts. Exit status: 0 listed, 2 a bad --cpu or "
        "a CPU whose PMU the harness does not drive.")
    p.add_argument("--cpu", required=True, metavar="FAMILY-MODEL[-STEPPING]",
                   help="the CPUID signature: DisplayFamily-DisplayModel, "
                   "decimal or 0x-hex (6-94, 6-0x5e-3, 15-2)")
    p.add_argument("--vendor", default="intel", metavar="VENDOR",
                   help="intel (default) or amd, or the CPUID vendor "
                   "string")
    p.add_argument("--json", action="store_true",
                   help="the listing as JSON instead of a table")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    vendor = VENDORS.get(args.vendor.lower())
    if not vendor:
        common.warn(PROG, f"--vendor {args.vendor!r}: intel or amd")
        return common.EXIT_USAGE
    try:
        doc = listing(*parse_cpu(args.cpu), vendor=vendor)
    except EventsError as e:
        common.warn(PROG, str(e))
        return common.EXIT_USAGE
    sys.stdout.write(json.dumps(doc, indent=2) + "\n" if args.json
                     else format_table(doc))
    sys.stdout.flush()
    return common.EXIT_OK
