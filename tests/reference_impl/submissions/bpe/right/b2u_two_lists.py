# drills: bytes-to-unicode
# variant: a predicate for "keeps its own character" and two parallel lists zipped at the end
def bytes_to_unicode():
    def keeps_itself(b):
        return 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xAC or 0xAE <= b <= 0xFF

    byte_values = [b for b in range(256) if keeps_itself(b)]
    code_points = list(byte_values)
    moved = [b for b in range(256) if not keeps_itself(b)]
    byte_values += moved
    code_points += [0x100 + n for n in range(len(moved))]
    return dict(zip(byte_values, map(chr, code_points)))
