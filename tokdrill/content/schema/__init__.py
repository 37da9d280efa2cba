"""The content file formats: which keys each kind of file has and how each value is checked.

A file's top-level keys decide its kind (:mod:`.file`): a drill (:mod:`.drill`), a deck of cards
(:mod:`.deck`) or a concept vocabulary (:mod:`.concepts`); :mod:`.fields` holds the checks they
share (ids, texts, lists, references). What a file yields (:mod:`.results`) depends only on its
own bytes, so the cache can keep it; checks across files belong to the loader.

This package's ``__init__`` imports nothing: a warm load unpickles :mod:`.results` without
importing PyYAML or the schemas.
"""
