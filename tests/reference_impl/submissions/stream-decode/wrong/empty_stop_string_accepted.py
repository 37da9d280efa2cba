# drills: stream-decode
# mistake: accepts an empty stop string (it would stop the stream at once)
# caught-by: test_empty_stop_string_is_rejected
from collections.abc import Sequence


def incomplete_utf8_tail(data: bytes) -> int:
    """How many bytes at the end of ``data`` begin a character that more bytes could complete (0 to 3)."""
    for back in range(1, min(3, len(data)) + 1):
        lead = data[-back]
        if 0x80 <= lead <= 0xBF:
            continue  # a continuation byte (10xxxxxx): the byte that leads it is further back
        # A lead byte says how long its sequence is: 110xxxxx two bytes, 1110xxxx three, 11110xxx four.
        # C0, C1 and F5..FF never appear in UTF-8; a byte below 0x80 is a whole character.
        if 0xC2 <= lead <= 0xDF:
            length = 2
        elif 0xE0 <= lead <= 0xEF:
            length = 3
        elif 0xF0 <= lead <= 0xF4:
            length = 4
        else:
            return 0
        if back >= length:
            return 0  # the sequence has all its bytes (or too many): nothing to wait for
        if back >= 2:
            # After these lead bytes the second byte has a narrower range; outside it the
            # sequence would be an overlong form, a surrogate or above U+10FFFF.
            low, high = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}.get(
                lead, (0x80, 0xBF)
            )
            if not low <= data[-back + 1] <= high:
                return 0
        return back
    return 0


class StreamDecoder:
    """Turns token ids, pushed one at a time, into text that is safe to show as soon as it is known.

    ``push`` returns the new text that can be shown; ``finish`` ends the stream and returns what
    was still held back. Once a stop string appears, the text before it is the last to be shown,
    ``stopped`` becomes True and every later call returns ``""``. Among stop strings found in the
    same text, the one that ends first wins (the longest of those, if several end there).
    """

    def __init__(self, token_bytes: dict[int, bytes], stop: Sequence[str] = ()) -> None:
        self.token_bytes = token_bytes
        self.stop = tuple(stop)
        self.stopped = False
        self._pending = b""  # bytes of a character that is not complete yet
        self._held = ""  # decoded text not shown yet, because it may begin a stop string

    def push(self, token_id: int) -> str:
        """Add one token; return the text that can now be shown."""
        if self.stopped:
            return ""
        data = self._pending + self.token_bytes[token_id]
        cut = len(data) - incomplete_utf8_tail(data)
        self._pending = data[cut:]
        self._held += data[:cut].decode("utf-8", errors="replace")
        return self._release(final=False)

    def finish(self) -> str:
        """End the stream: return the held text (an unfinished character becomes U+FFFD)."""
        if self.stopped:
            return ""
        self._held += self._pending.decode("utf-8", errors="replace")
        self._pending = b""
        return self._release(final=True)

    def _release(self, final: bool) -> str:
        """Show the held text up to a stop string, or all but a tail that could still begin one."""
        found = [(at + len(s), at) for s in self.stop if (at := self._held.find(s)) >= 0]
        if found:
            _, at = min(found)  # the stop string that ends first; of those, the one that starts first
            self.stopped = True
            shown, self._held = self._held[:at], ""
            return shown
        keep = 0
        if not final:
            keep = max((n for s in self.stop for n in range(1, len(s)) if self._held.endswith(s[:n])), default=0)
        shown = self._held[: len(self._held) - keep]
        self._held = self._held[len(shown) :]
        return shown
