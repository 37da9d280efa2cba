# drills: canonical-tokenization
# mistake: decodes with errors="replace", so bytes that are no UTF-8 become U+FFFD instead of an error
# caught-by: test_bytes_that_are_not_utf8_raise_value_error
class CanonicalChecker:
    def canonical_ids(self, ids):
        try:
            return self.encode(self.decode_bytes(ids).decode("utf-8", errors="replace"))
        except KeyError:
            raise ValueError("unknown id") from None

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
