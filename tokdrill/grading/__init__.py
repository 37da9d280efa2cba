"""Grading: run a submission against a drill's hidden tests and decide a verdict."""
