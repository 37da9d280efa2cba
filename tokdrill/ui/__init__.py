"""The Textual app: screens and widgets over :class:`tokdrill.backend.Backend`."""
