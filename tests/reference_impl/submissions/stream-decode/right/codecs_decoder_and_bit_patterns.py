# drills: stream-decode
# variant: the stdlib incremental decoder does the UTF-8 part; the tail is read from bit patterns; stop prefixes checked longest first
import codecs


def incomplete_utf8_tail(data):
    second = {0xE0: range(0xA0, 0xC0), 0xED: range(0x80, 0xA0), 0xF0: range(0x90, 0xC0), 0xF4: range(0x80, 0x90)}
    for k in range(1, min(4, len(data) + 1)):
        b = data[-k]
        if b >> 6 == 0b10:
            continue
        if b >> 5 == 0b110:
            need = 2
        elif b >> 4 == 0b1110:
            need = 3
        elif b >> 3 == 0b11110:
            need = 4
        else:
            return 0
        if b in (0xC0, 0xC1) or b > 0xF4 or k >= need:
            return 0
        if k >= 2 and data[-k + 1] not in second.get(b, range(0x80, 0xC0)):
            return 0
        return k
    return 0


class StreamDecoder:
    def __init__(self, token_bytes, stop=()):
        self.vocab = token_bytes
        self.stops = list(stop)
        if "" in self.stops:
            raise ValueError("empty stop string")
        self.utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.buffer = ""
        self.stopped = False

    def _emit(self, final):
        best = None
        for s in self.stops:
            at = self.buffer.find(s)
            if at >= 0:
                key = (at + len(s), at)
                if best is None or key < best:
                    best = key
        if best is not None:
            self.stopped = True
            out, self.buffer = self.buffer[: best[1]], ""
            return out
        hold = 0
        if not final:
            for s in self.stops:
                for n in range(len(s) - 1, hold, -1):
                    if self.buffer.endswith(s[:n]):
                        hold = n
                        break
        cut = len(self.buffer) - hold
        out, self.buffer = self.buffer[:cut], self.buffer[cut:]
        return out

    def push(self, token_id):
        if self.stopped:
            return ""
        self.buffer += self.utf8.decode(self.vocab[token_id])
        return self._emit(False)

    def finish(self):
        if self.stopped:
            return ""
        self.buffer += self.utf8.decode(b"", final=True)
        return self._emit(True)
