# drills: canonical-tokenization
# mistake: lets the KeyError of an unknown id escape instead of raising ValueError
# caught-by: test_an_unknown_id_raises_value_error
class CanonicalChecker:
    def canonical_ids(self, ids):
        return self.encode(self.decode_bytes(ids).decode("utf-8"))

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
