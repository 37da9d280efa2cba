# drills: byte-fallback
# variant: decodes a byte run by trying a strict decode of 1 to 4 bytes at each position
def byte_fallback_encode(pieces, vocab):
    ids = []
    for piece in pieces:
        if piece in vocab:
            ids.append(vocab[piece])
            continue
        for b in piece.encode("utf-8"):
            ids.append(vocab["<0x" + format(b, "02X") + ">"])
    return ids


def decode_run(data):
    out, i = [], 0
    while i < len(data):
        for size in (1, 2, 3, 4):
            try:
                out.append(data[i : i + size].decode("utf-8"))
            except UnicodeDecodeError:
                continue
            i += size
            break
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def byte_fallback_decode(ids, pieces):
    text, run = "", b""
    for k, token_id in enumerate(ids):
        piece = pieces[token_id]
        if piece.startswith("<0x") and piece.endswith(">") and len(piece) == 6:
            run += bytes([int(piece[3:5], 16)])
            continue
        text += decode_run(run)
        run = b""
        piece = piece.replace("▁", " ")
        if k == 0:
            piece = piece.removeprefix(" ")
        text += piece
    return text + decode_run(run)
