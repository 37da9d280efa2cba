"""tokdrill's reference implementations of the tokenization algorithms it drills.

Written for this project; the drills' prompts state each name's parameters and return type, and
the hidden tests hold every submission to them. Every public name is listed in
``__all__``: the grader seeds each submission's namespace from it.
"""

from reference_impl.bpe import BPETokenizer, Pair, apply_merges, count_pairs, learn_merges, merge_pair
from reference_impl.byte_fallback import byte_fallback_decode, byte_fallback_encode
from reference_impl.byte_level import PRETOKENIZE, ByteLevelBPE, bytes_to_unicode
from reference_impl.canonical import CanonicalChecker
from reference_impl.cl100k_split import cl100k_pretokenize
from reference_impl.dropout import apply_merges_dropout
from reference_impl.fast_train import learn_merges_fast
from reference_impl.heap_bpe import heap_encode_piece
from reference_impl.metrics import bits_per_byte, bytes_per_token, fertility
from reference_impl.o200k_split import o200k_pretokenize
from reference_impl.special_tokens import encode_with_specials
from reference_impl.streaming import StreamDecoder, incomplete_utf8_tail
from reference_impl.tiktoken_ranks import TiktokenEncoder
from reference_impl.token_healing import TokenHealer
from reference_impl.unigram import unigram_em_step, unigram_prune, viterbi_segment
from reference_impl.wordpiece import WordPieceTokenizer

__all__ = [
    "PRETOKENIZE",
    "BPETokenizer",
    "ByteLevelBPE",
    "CanonicalChecker",
    "Pair",
    "StreamDecoder",
    "TiktokenEncoder",
    "TokenHealer",
    "WordPieceTokenizer",
    "apply_merges",
    "apply_merges_dropout",
    "bits_per_byte",
    "byte_fallback_decode",
    "byte_fallback_encode",
    "bytes_per_token",
    "bytes_to_unicode",
    "cl100k_pretokenize",
    "count_pairs",
    "encode_with_specials",
    "fertility",
    "heap_encode_piece",
    "incomplete_utf8_tail",
    "learn_merges",
    "learn_merges_fast",
    "merge_pair",
    "o200k_pretokenize",
    "unigram_em_step",
    "unigram_prune",
    "viterbi_segment",
]
