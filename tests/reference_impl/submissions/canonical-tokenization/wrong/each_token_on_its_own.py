# drills: canonical-tokenization
# mistake: checks each token on its own (is it the encoding of its own text?), so a token that
# spans two pre-tokenizer pieces, or a sequence that merges further, passes
# caught-by: test_a_token_across_a_pre_tokenizer_boundary_is_not_canonical, test_a_word_split_into_smaller_tokens_is_not_canonical
class CanonicalChecker:
    def canonical_ids(self, ids):
        out = []
        for i in ids:
            try:
                text = self.decode_bytes([i]).decode("utf-8")
            except (KeyError, UnicodeDecodeError):
                raise ValueError(f"bad id {i}") from None
            out.extend(self.encode(text))
        return out

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
