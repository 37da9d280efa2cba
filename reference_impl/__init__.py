"""tokdrill's reference implementations of the tokenization algorithms it drills.

Written for this project, with the public names, parameters and return types of the book the
drills follow, so a user can practise exactly what they read. Every public name is listed in
``__all__``: the grader seeds each submission's namespace from it.
"""

from reference_impl.bpe import BPETokenizer, Pair, apply_merges, count_pairs, learn_merges, merge_pair
from reference_impl.byte_level import PRETOKENIZE, ByteLevelBPE, bytes_to_unicode
from reference_impl.dropout import apply_merges_dropout
from reference_impl.tiktoken_ranks import TiktokenEncoder
from reference_impl.unigram import unigram_em_step, unigram_prune, viterbi_segment
from reference_impl.wordpiece import WordPieceTokenizer

__all__ = [
    "PRETOKENIZE",
    "BPETokenizer",
    "ByteLevelBPE",
    "Pair",
    "TiktokenEncoder",
    "WordPieceTokenizer",
    "apply_merges",
    "apply_merges_dropout",
    "bytes_to_unicode",
    "count_pairs",
    "learn_merges",
    "merge_pair",
    "unigram_em_step",
    "unigram_prune",
    "viterbi_segment",
]
