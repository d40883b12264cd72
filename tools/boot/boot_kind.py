"""Which boot `make run` uses for a QEMU CPU model: the UEFI image (an
x86-64 UEFI application, so a CPU with long mode) or the 32-bit Multiboot
kernel through the BIOS path (docs/boot.md).

    boot_kind.py CPU            prints "uefi" or "bios" (why on stderr)
    boot_kind.py --cpu-arg CPU  prints the -cpu value to boot CPU with

A CPU the harness has a capability row of but QEMU has no model of
(QEMU 7.2 has no Sapphire Rapids) is booted as qemu64 with the row's real
signature (ALIASES): `make run CPU=SapphireRapids` works as the matrix's
sapphire-rapids boot does.  QEMU's own model, where it has one, wins.

CPU is QEMU's -cpu value, "model[,prop=value|+feat|-feat ...]".  An lm
("long mode", CPUID.80000001H:EDX[29]) switched by the value itself
decides; else QEMU says whether the model has it, through QMP's
query-cpu-model-expansion on a machine that runs nothing (-machine none).
The value is data: it reaches QEMU inside a JSON string, never a shell.
When QEMU cannot say (an unknown model, no QEMU), the answer is "uefi",
the default path, where QEMU then reports the model itself.
"""

import json
import subprocess
import sys

QEMU = "qemu-system-x86_64"

# Models QEMU 7.2 lacks, as a qemu64 with the signature of the part whose
# CPUID the harness's capability row holds (pmu/perfmon/caps_table.c):
# Sapphire Rapids, the w9-3475X (806F8H: family 6, model 8FH, stepping 8).
ALIASES = {
    "SapphireRapids":
        "qemu64,vendor=GenuineIntel,family=6,model=143,stepping=8",
}


def lm_switched(cpu):
    """True/False when the -cpu value itself switches lm, else None."""
    for word in cpu.split(",")[1:]:
        w = word.strip().lower()
        if w in ("+lm", "lm=on", "lm=true", "lm"):
            return True
        if w in ("-lm", "lm=off", "lm=false"):
            return False
    return None


def model_has_lm(model, qemu=QEMU, timeout=20):
    """QEMU's answer for the model's lm property: True, False, or None
    when it cannot say (and why, as a second value)."""
    msgs = [{"execute": "qmp_capabilities"},
            {"execute": "query-cpu-model-expansion",
             "arguments": {"type": "full", "model": {"name": model}}},
            {"execute": "quit"}]
    try:
        p = subprocess.run(
            [qemu, "-machine", "none", "-accel", "tcg", "-nodefaults",
             "-display", "none", "-qmp", "stdio", "-S"],
            input="".join(json.dumps(m) + "\n" for m in msgs),
            capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{qemu}: {e}"
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        ret = d.get("return") if isinstance(d, dict) else None
        if isinstance(ret, dict) and "model" in ret:
            lm = ret["model"].get("props", {}).get("lm")
            if isinstance(lm, bool):
                return lm, ""
        if isinstance(d, dict) and "error" in d:
            return None, d["error"].get("desc", "QMP error")
    return None, f"{qemu} gave no answer (status {p.returncode})"


def cpu_arg(cpu, qemu=QEMU):
    """(the -cpu value to boot cpu with, why or ""): an ALIASES model
    QEMU does not know becomes its qemu64 signature, with cpu's own
    properties after it."""
    model, _, props = cpu.partition(",")
    alias = ALIASES.get(model.strip())
    if not alias:
        return cpu, ""
    lm, err = model_has_lm(model.strip(), qemu)
    if lm is not None:
        return cpu, ""
    return (alias + ("," + props if props else ""),
            f"QEMU has no {model.strip()} model: {alias}")


def boot_kind(cpu, qemu=QEMU):
    """("uefi" | "bios", why)."""
    model = cpu.split(",")[0].strip() or "qemu64"
    lm = lm_switched(cpu)
    if lm is not None:
        why = "the -cpu value switches lm " + ("on" if lm else "off")
    else:
        lm, err = model_has_lm(model, qemu)
        if lm is None:
            return "uefi", (f"QEMU cannot say whether {model!r} has long "
                            f"mode ({err}): the UEFI path")
        why = f"QEMU's {model} has {'' if lm else 'no '}long mode"
    if lm:
        return "uefi", why + ": the x86-64 UEFI image"
    return "bios", why + ": the 32-bit Multiboot kernel, BIOS path"


def main(argv):
    if len(argv) == 2 and argv[0] == "--cpu-arg":
        value, why = cpu_arg(argv[1])
        if why:
            print(f"make run: {why}", file=sys.stderr)
        print(value)
        return 0
    if len(argv) != 1:
        print("usage: boot_kind.py [--cpu-arg] CPU", file=sys.stderr)
        return 2
    kind, why = boot_kind(argv[0])
    print(f"make run: {why} (BOOT=uefi|bios overrides)", file=sys.stderr)
    print(kind)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
