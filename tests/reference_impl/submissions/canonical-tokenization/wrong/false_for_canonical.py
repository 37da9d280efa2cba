# drills: canonical-tokenization
# mistake: first_non_canonical returns False, not None, for a canonical sequence
# caught-by: test_canonical_sequences_are_recognised, test_the_empty_sequence_is_canonical
class CanonicalChecker:
    def canonical_ids(self, ids):
        try:
            return self.encode(self.decode_bytes(ids).decode("utf-8"))
        except (KeyError, UnicodeDecodeError):
            raise ValueError("not the bytes of a text") from None

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), False)
