"""What every layer may use: one-line input errors (``errors``), the user's factories by import path
(``factories``) and secret per-run randomness (``randomness``)."""
