# drills: bytes-to-unicode
# mistake: a moved byte b maps to chr(256 + b) instead of the next free code point
# caught-by: test_other_bytes_shift_to_256_and_up_in_byte_order, test_well_known_entries, test_exact_gpt2_table
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    table = {b: chr(b) for b in printable}
    offset = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + b)
            offset += 1
    return table
