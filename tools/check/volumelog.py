"""volumelog: is the log file the harness left on the boot volume a sound
prefix of what it wrote to the serial port?

    tap = volumelog.serial_tap(serial_bytes)      # None: no TAP text
    ok, what = volumelog.check_prefix(volume_bytes, tap)

The harness writes each line to the serial port first and then to the
log file, and flushes the file after every test (boot/efi/console.c), so a
run cut short (SIGKILL, a full volume, power loss) may leave a shorter
file, never a different one.  A sound file holds whole lines only: no NUL
padding (what a file size set ahead of its data reads back as), a final
"\\n" unless it is empty, and every byte equal to the serial TAP text.
"""

from typing import Optional, Tuple

TAP_VERSION = b"TAP version 13"


def serial_tap(serial: bytes) -> Optional[bytes]:
    """The harness's part of a serial capture as the log file holds it:
    from "TAP version 13" on, CRs removed (the serial port gets CR LF,
    the file LF).  None when the capture has no TAP text."""
    at = serial.find(TAP_VERSION)
    if at < 0:
        return None
    return serial[at:].replace(b"\r", b"")


def _line_at(data: bytes, offset: int) -> Tuple[int, bytes]:
    """(1-based line number, the line's bytes without its "\\n") of the
    byte at offset."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    return data.count(b"\n", 0, offset) + 1, \
        data[start:end if end >= 0 else len(data)]


def _short(b: bytes, n: int = 60) -> str:
    s = b.decode("utf-8", errors="backslashreplace")
    return repr(s if len(s) <= n else s[:n] + "...")


def _bytes(n: int) -> str:
    return f"{n} NUL byte" + ("" if n == 1 else "s")


def nul_problem(volume: bytes) -> Optional[str]:
    """How NUL bytes spoil the file, or None when it has none."""
    total = volume.count(b"\0")
    if not total:
        return None
    tail = len(volume) - len(volume.rstrip(b"\0"))
    if tail == total:
        return f"ends in {_bytes(tail)}"
    first = volume.find(b"\0")
    return (f"has {_bytes(total)}, the first at byte {first}"
            + (f", and ends in {tail}" if tail else ""))


def prefix_problem(volume: bytes, tap: bytes) -> Optional[str]:
    """Why volume is not a byte prefix of tap, or None when it is."""
    if tap.startswith(volume):
        return None
    if len(volume) > len(tap) and volume.startswith(tap):
        return (f"is longer than the serial TAP text ({len(volume)} > "
                f"{len(tap)} bytes): it goes on with "
                f"{_short(volume[len(tap):])}")
    at = next((i for i, (a, b) in enumerate(zip(volume, tap)) if a != b),
              min(len(volume), len(tap)))
    line, vline = _line_at(volume, at)
    _, sline = _line_at(tap, at)
    return (f"differs from the serial TAP text at byte {at} (line {line}): "
            f"file {_short(vline)}, serial {_short(sline)}")


def check_prefix(volume: bytes, tap: Optional[bytes]) -> Tuple[bool, str]:
    """(ok, what): volume has no NUL byte, is empty or ends in "\\n", and
    is a byte prefix of tap (serial_tap's result).  what names every
    problem, or says what the file holds."""
    if tap is None:
        return False, "the serial capture has no 'TAP version 13' line"
    problems = []
    nul = nul_problem(volume)
    if nul:
        problems.append(nul)
    # The rest is judged without trailing NULs, so the line says whether
    # what was written before the padding is sound.
    text = volume.rstrip(b"\0") if nul else volume
    if text and not text.endswith(b"\n"):
        problems.append("does not end in a newline: its last line is "
                        + _short(text[text.rfind(b"\n") + 1:]))
    pre = prefix_problem(text, tap)
    if pre:
        problems.append(pre)
    if problems:
        return False, "; ".join(problems)
    lines = volume.count(b"\n")
    whole = " (all of it)" if len(volume) == len(tap) else ""
    return True, (f"{len(volume)} of {len(tap)} bytes of the serial TAP "
                  f"text{whole}, {lines} whole lines, no NUL byte")
