# drills: bytes-to-unicode
# mistake: the second Latin-1 run starts at 0xAD, keeping the soft hyphen
# caught-by: test_every_character_is_printable_and_not_whitespace, test_other_bytes_shift_to_256_and_up_in_byte_order, test_well_known_entries
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®") - 1, ord("ÿ") + 1))
    table = {b: chr(b) for b in printable}
    offset = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + offset)
            offset += 1
    return table
