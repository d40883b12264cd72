"""Turning a serial capture into the harness's log, as bytes arrive.

    c = Cleaner()
    for chunk in chunks:            # any split: inside CR LF, inside an
        out.write(c.feed(chunk))    # escape sequence, inside the TAP line
    clean(data)                     # the same, all at once

What comes out equals the boot volume's log file (docs/log-format.md):
everything before the first "TAP version 13" dropped (the firmware's
output, whose lone CRs are terminal redraws), CR LF turned into LF, and
terminal escape sequences dropped.  From the TAP line on a lone CR is a
line end: the harness writes no CR of its own (its serial console adds
CR before LF), so a CR without LF after it comes from a port or a
terminal that sends CR-only line ends.  OVMF writes "ESC[2J ESC[01;01H
ESC[=3h" (clear, home, a private mode) before the harness starts.

The escape sequences removed are those of ECMA-48 (5th edition, 1991),
section 5.3/5.4, as VT100-class terminals read them:
  CSI   ESC [ <0x30-0x3F>* <0x20-0x2F>* <0x40-0x7E>   (ESC[=3h, ESC[01;01H)
  nF    ESC <0x20-0x2F>+ <0x30-0x7E>                  (ESC ( B)
  Fp/Fe/Fs  ESC <0x30-0x7E>                           (ESC 7, ESC c)
  strings   ESC ] / P / X / ^ / _ ... ended by BEL or ESC \\ (OSC, DCS...)
A sequence broken by a byte that cannot continue it (a control, a byte
over 0x7E) is dropped up to that byte, and the byte is kept.  A string
sequence also ends at a line end, so a stray "ESC ]" cannot swallow the
rest of a log.
"""

TAP_START = b"TAP version 13"

ESC, CR, LF, BEL = 0x1B, 0x0D, 0x0A, 0x07

# States of the escape-sequence reader.
_TEXT, _ESC, _CSI, _NF, _STRING, _STRING_ESC = range(6)
_STRING_OPENERS = b"]PX^_"


class Cleaner:
    """A serial capture in, the harness's log out, chunk by chunk.

    started: the "TAP version 13" line has been seen.
    dropped: bytes (escapes and CRs already removed) dropped before it.
    """

    def __init__(self):
        self._state = _TEXT
        self._pending = b""     # cleaned bytes that may begin TAP_START
        self._cr = False        # the last chunk ended with a CR, its
                                # line end already given
        self.started = False
        self.dropped = 0

    def feed(self, data: bytes) -> bytes:
        """The clean bytes that data adds (possibly none)."""
        text = self._strip(data)
        if self.started:
            return self._lines(text)
        buf = self._pending + text
        at = buf.find(TAP_START)
        if at >= 0:
            self.started = True
            self.dropped += len(buf[:at].replace(b"\r", b""))
            self._pending = b""
            return self._lines(buf[at:])
        keep = min(len(buf), len(TAP_START) - 1)
        self.dropped += len(buf[:len(buf) - keep].replace(b"\r", b""))
        self._pending = buf[len(buf) - keep:]
        return b""

    def _lines(self, text: bytes) -> bytes:
        """CR LF -> LF, a lone CR -> LF, across chunks: a CR that ends a
        chunk is a line end at once (a capture waits for no more bytes
        to end the summary line), and an LF starting the next chunk is
        then its CR LF's."""
        if self._cr and text:
            self._cr = False
            if text.startswith(b"\n"):
                text = text[1:]
        text = text.replace(b"\r\n", b"\n")
        if text.endswith(b"\r"):
            self._cr = True
        return text.replace(b"\r", b"\n")

    def _strip(self, data: bytes) -> bytes:
        out = bytearray()
        i, n = 0, len(data)
        while i < n:
            if self._state == _TEXT:
                j = data.find(b"\x1b", i)
                if j < 0:
                    out += data[i:]
                    break
                out += data[i:j]
                self._state, i = _ESC, j + 1
                continue
            if self._step(data[i]):
                i += 1
            # else: the byte ended a broken sequence; read it again as text
        return bytes(out)

    def _step(self, b: int) -> bool:
        """Advances the escape reader by byte b; False when b is not part
        of the sequence (the sequence is dropped, b is text)."""
        s = self._state
        if s == _ESC:
            if b == ord("["):
                self._state = _CSI
            elif b in _STRING_OPENERS:
                self._state = _STRING
            elif 0x20 <= b <= 0x2F:
                self._state = _NF
            elif 0x30 <= b <= 0x7E:
                self._state = _TEXT
            elif b == ESC:
                pass                    # a new sequence starts
            else:
                self._state = _TEXT
                return False
            return True
        if s == _CSI:
            if 0x40 <= b <= 0x7E:
                self._state = _TEXT
            elif b == ESC:
                self._state = _ESC
            elif not 0x20 <= b <= 0x3F:
                self._state = _TEXT
                return False
            return True
        if s == _NF:
            if 0x30 <= b <= 0x7E:
                self._state = _TEXT
            elif b == ESC:
                self._state = _ESC
            elif not 0x20 <= b <= 0x2F:
                self._state = _TEXT
                return False
            return True
        if s == _STRING:
            if b == BEL:
                self._state = _TEXT
            elif b == ESC:
                self._state = _STRING_ESC
            elif b in (CR, LF):
                self._state = _TEXT
                return False
            return True
        # _STRING_ESC: ESC \ ends the string; anything else starts anew
        if b == ord("\\"):
            self._state = _TEXT
            return True
        self._state = _ESC
        return False


def clean(data: bytes) -> bytes:
    """The harness's log in a whole serial capture (see Cleaner)."""
    return Cleaner().feed(data)
