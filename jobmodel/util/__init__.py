"""Small utilities at the bottom of the layers: Go's sort, and JSON objects compared with expectations (FORMAT.md)."""
