# drills: stream-decode
# mistake: re-decodes everything and waits while the text ends in U+FFFD, so a truly invalid byte shows one push late
# caught-by: test_invalid_bytes_show_at_once_as_replacement_characters
def incomplete_utf8_tail(data):
    for back in range(1, min(3, len(data)) + 1):
        lead = data[-back]
        if 0x80 <= lead <= 0xBF:
            continue
        length = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
        if length == 0 or back >= length:
            return 0
        if back >= 2:
            low, high = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}.get(lead, (0x80, 0xBF))
            if not low <= data[-back + 1] <= high:
                return 0
        return back
    return 0


class StreamDecoder:
    def __init__(self, token_bytes, stop=()):
        if any(not s for s in stop):
            raise ValueError("empty stop string")
        self.token_bytes, self.stop = token_bytes, tuple(stop)
        self.data, self.shown, self.stopped = b"", 0, False

    def _show(self, text, final):
        hits = [(text.find(s) + len(s), text.find(s)) for s in self.stop if s in text]
        if hits:
            self.stopped = True
            upto = min(hits)[1]
        else:
            keep = 0 if final else max((n for s in self.stop for n in range(1, len(s)) if text.endswith(s[:n])), default=0)
            upto = len(text) - keep
        out, self.shown = text[self.shown : upto], upto
        return out

    def push(self, token_id):
        if self.stopped:
            return ""
        self.data += self.token_bytes[token_id]
        text = self.data.decode("utf-8", "replace")
        if text.endswith("\ufffd"):
            text = text.rstrip("\ufffd")
        return self._show(text, False)

    def finish(self):
        if self.stopped:
            return ""
        return self._show(self.data.decode("utf-8", "replace"), True)
