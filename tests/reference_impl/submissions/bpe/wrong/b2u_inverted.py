# drills: bytes-to-unicode
# mistake: returns the inverse table (character -> byte)
# caught-by: test_table_has_exactly_the_256_byte_values_as_keys, test_every_value_is_one_character, test_every_character_is_printable_and_not_whitespace
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    table = {b: chr(b) for b in printable}
    offset = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + offset)
            offset += 1
    return {c: b for b, c in table.items()}
