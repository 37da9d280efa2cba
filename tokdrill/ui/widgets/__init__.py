"""Reusable widgets of the tokdrill app."""
