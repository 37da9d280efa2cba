# drills: canonical-tokenization
# mistake: re-encodes the whole text as one piece, skipping the pattern split
# caught-by: test_a_token_across_a_pre_tokenizer_boundary_is_not_canonical, test_digit_groups_cut_elsewhere_are_not_canonical
class CanonicalChecker:
    def canonical_ids(self, ids):
        try:
            data = self.decode_bytes(ids)
            data.decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            raise ValueError("not the bytes of a text") from None
        return self.encode_piece(data)

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
