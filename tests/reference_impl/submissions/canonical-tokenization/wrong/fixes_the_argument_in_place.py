# drills: canonical-tokenization
# mistake: writes the canonical ids into the caller's list and returns it
# caught-by: test_a_new_list_every_time, test_a_word_split_into_smaller_tokens_is_not_canonical
class CanonicalChecker:
    def canonical_ids(self, ids):
        try:
            text = self.decode_bytes(ids).decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            raise ValueError("not the bytes of a text") from None
        ids[:] = self.encode(text)
        return ids

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(list(ids))
        return next((i for i, (a, b) in enumerate(zip(ids, canonical)) if a != b), None)
