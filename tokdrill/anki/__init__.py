"""Anki interoperability: tokdrill decks to Anki packages, and Anki notes to tokdrill decks.

:mod:`tokdrill.anki.export` writes ``.apkg`` files (genanki); :mod:`tokdrill.anki.importer`
reads Anki packages and text exports into a deck YAML in the user's content folder. The note
type both directions share is :mod:`tokdrill.anki.notetype`. No Textual here.
"""
