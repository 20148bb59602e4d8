"""Reversal Arena server: REST + websocket rooms over pure rule engines (see ARCHITECTURE.md)."""
