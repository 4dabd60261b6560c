"""Image → facts: pure OpenCV/numpy readers of the table (no device access, no game rules)."""
