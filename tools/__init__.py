"""Command-line tools: balance runs, replay verification."""
