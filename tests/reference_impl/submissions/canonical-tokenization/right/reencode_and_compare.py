# drills: canonical-tokenization
# variant: the reference's decode_bytes and encode, with the first difference found by zip
class CanonicalChecker:
    def canonical_ids(self, ids):
        try:
            data = self.decode_bytes(ids)
        except KeyError as unknown:
            raise ValueError(f"unknown id {unknown}") from None
        try:
            return self.encode(data.decode("utf-8"))
        except UnicodeDecodeError as bad:
            raise ValueError(str(bad)) from None

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
