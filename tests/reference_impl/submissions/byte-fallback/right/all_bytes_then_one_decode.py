# drills: byte-fallback
# variant: turns every piece into bytes first (▁ as a space), then decodes the whole with a per-byte error handler
import codecs


def _one_per_byte(error):
    return "\ufffd" * (error.end - error.start), error.end


codecs.register_error("one_per_byte_submission", _one_per_byte)


def byte_fallback_encode(pieces, vocab):
    out = []
    for p in pieces:
        out += [vocab[p]] if p in vocab else [vocab["<0x%02X>" % b] for b in p.encode("utf-8")]
    return out


def byte_fallback_decode(ids, pieces):
    data = bytearray()
    for n, i in enumerate(ids):
        p = pieces[i]
        if len(p) == 6 and p.startswith("<0x") and p.endswith(">") and all(c in "0123456789ABCDEF" for c in p[3:5]):
            data.append(int(p[3:5], 16))
        else:
            text = p.replace("\u2581", " ")
            if n == 0 and text[:1] == " ":
                text = text[1:]
            data += text.encode("utf-8")
    return data.decode("utf-8", "one_per_byte_submission")
