# drills: stream-decode
# mistake: checks the second byte's range after E0, ED, F0, F4 only when the character has two bytes so far
# caught-by: test_every_short_ending_agrees_with_pythons_incremental_decoder
def incomplete_utf8_tail(data):
    n = len(data)
    i = n - 1
    while i >= 0 and n - i <= 3 and 0x80 <= data[i] < 0xC0:
        i -= 1
    if i < 0 or n - i > 3:
        return 0
    lead = data[i]
    if 0xC2 <= lead < 0xE0:
        length = 2
    elif 0xE0 <= lead < 0xF0:
        length = 3
    elif 0xF0 <= lead < 0xF5:
        length = 4
    else:
        return 0
    have = n - i
    if have >= length:
        return 0
    if have == 2:
        b = data[i + 1]
        if (lead == 0xE0 and b < 0xA0) or (lead == 0xED and b > 0x9F) or (lead == 0xF0 and b < 0x90) or (lead == 0xF4 and b > 0x8F):
            return 0
    return have


class StreamDecoder:
    def __init__(self, token_bytes, stop=()):
        for s in stop:
            if not s:
                raise ValueError("stop strings must be non-empty")
        self.token_bytes = token_bytes
        self.stop = tuple(stop)
        self.data = b""
        self.shown = 0
        self.stopped = False

    def _visible(self, text, final):
        ends = [(text.find(s) + len(s), text.find(s)) for s in self.stop if s in text]
        if ends:
            return min(ends)[1], True
        keep = 0
        if not final:
            for s in self.stop:
                for n in range(1, len(s)):
                    if text.endswith(s[:n]):
                        keep = max(keep, n)
        return len(text) - keep, False

    def _step(self, final):
        if self.stopped:
            return ""
        cut = len(self.data) if final else len(self.data) - incomplete_utf8_tail(self.data)
        text = self.data[:cut].decode("utf-8", "replace")
        upto, hit = self._visible(text, final)
        out = text[self.shown : upto]
        self.shown = upto
        self.stopped = hit
        return out

    def push(self, token_id):
        if self.stopped:
            return ""
        self.data += self.token_bytes[token_id]
        return self._step(False)

    def finish(self):
        return self._step(True)
