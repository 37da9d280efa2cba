# drills: bytes-to-unicode
# mistake: returns the table as a list of (byte, character) pairs instead of a dict
# caught-by: test_the_table_is_a_dict_of_ints_to_strings
def bytes_to_unicode():
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = []
    extra = 0
    for b in range(256):
        if b in kept:
            table.append((b, chr(b)))
        else:
            table.append((b, chr(256 + extra)))
            extra += 1
    return table
