# drills: stream-decode
# mistake: decodes each token's bytes on their own, so a character split across tokens becomes U+FFFD
# caught-by: test_a_split_character_waits_for_its_last_byte
from reference_impl import StreamDecoder as Reference


def incomplete_utf8_tail(data):
    return 0


class StreamDecoder(Reference):
    def push(self, token_id):
        if self.stopped:
            return ""
        self._held += self.token_bytes[token_id].decode("utf-8", errors="replace")
        return self._release(final=False)
