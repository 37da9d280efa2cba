"""Progress: the SQLite store of attempts, reviews, drafts and settings; export/import; stats.

No Textual here. Entry point: ``Store.open(tokdrill.locations.database_path(data_dir))``.
"""

from tokdrill.progress.errors import StoreError
from tokdrill.progress.records import Attempt, Draft, ItemState, RetiredItems, Review
from tokdrill.progress.store import Store

__all__ = ["Attempt", "Draft", "ItemState", "RetiredItems", "Review", "Store", "StoreError"]
