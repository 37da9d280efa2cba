"""The tokenizer playground's core: real tokenizers run on the user's text, counted and costed.

``encoders`` opens a tokenizer by name (the offline tiktoken tables, a Hugging Face
``tokenizer.json``, or a byte-level BPE trained on the user's corpus), ``tokens`` splits a text
into displayable tokens with their counts, ``glyphs`` makes invisible characters visible.
No Textual here: the CLI (`tokdrill tokenize`) and the Playground screen both print these.
"""
