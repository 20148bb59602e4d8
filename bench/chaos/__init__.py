"""The chaos run: three app processes on PostgreSQL + Redis under faults (``kill -9``, a Redis
restart, clients dropping their sockets), checked against the stored log.

``python -m bench.chaos --help`` lists the options; the run prints one JSON summary line
(``bench.chaos.run``; the checks: ``bench.chaos.checks``).
"""
