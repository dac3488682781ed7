"""Where dptune caches what it downloads or derives (datasets, ScatterNet features, tokenized text):
``DPTUNE_CACHE``, by default ``~/.cache/dptune`` (a cluster points it at shared storage)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ROOT = Path(os.environ.get("DPTUNE_CACHE", Path.home() / ".cache" / "dptune"))
