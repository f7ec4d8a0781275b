"""Boxel benchmarks: `python -m bench` runs every suite and prints one table."""
