"""tokdrill: timed coding drills, flashcards and progress tracking for tokenization interviews."""

__version__ = "0.1.0"
