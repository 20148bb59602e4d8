"""Performance benchmarks: engine speed, the websocket load generator and its ceiling.

Not part of ``make test``: run them with ``make bench`` (see ``bench/RESULTS.md``).
"""
