"""Core writes run on the sqlite3 driver's cursor, with the SQL and parameters SQLAlchemy makes.

The group writer's thread (``app.db.writer.ThreadTransactions``) runs every batch of Core writes
(``repositories.planned_writes``) here instead of through ``Connection.execute``: each statement
is compiled by SQLAlchemy once per parameter shape (an insert of several rows is one multi-row
``INSERT … VALUES (…), (…)``, as SQLAlchemy's "insertmanyvalues" sends it), and
each parameter goes through its column type's own bind processor for the dialect
(``TypeEngine.dialect_impl(dialect).bind_processor``), so the SQL and the stored formats are
SQLAlchemy's by construction: the Core statements and the models' types stay their definition.
A statement that needs a parameter its rows do not give (a column default SQLAlchemy would
fill in) runs through ``Connection.execute`` instead. Every statement fires the connection's
``before_cursor_execute`` and ``after_cursor_execute`` events, so listeners see it.

Fast path (bench/RESULTS.md "Fast paths"): without it (``Connection.execute``) a move costs
20 % more instructions when each move is its own transaction (``bench.movepath --concurrency 1``
under callgrind), and the writer alone +63/+17/+8 µs of CPU per job in batches of 1/4/16.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Executable, bindparam
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.elements import ClauseElement

from app.db.repositories import Write, planned_writes

#: Compiled statements kept per ``SqliteWrites`` (one per statement and parameter shape).
COMPILED_CACHE = 64


@dataclass(frozen=True, slots=True)
class Prepared:
    """A statement as compiled for one parameter shape.

    Attributes:
        sql: the SQL with ``?`` placeholders, for one row.
        fields: per row, in placeholder order, each parameter's key and its type's bind
            processor (``None``: the value goes as it is).
        head, values: for an insert, ``sql`` split before its row of placeholders
            (``values``, e.g. ``"(?, ?)"``), so that ``sql_for`` writes the statement of any
            number of rows as SQLAlchemy compiles it; ``None`` for other statements.
    """

    sql: str
    fields: tuple[tuple[str, Callable[[Any], Any] | None], ...]
    head: str | None = None
    values: str | None = None

    def sql_for(self, rows: int) -> str:
        """Return the SQL of ``rows`` rows (an insert of one row per ``values`` group).

        Raises:
            ValueError: several rows for a statement that is not an insert.
        """
        if rows == 1:
            return self.sql
        if self.head is None or self.values is None:
            raise ValueError(f"one row at a time for {self.sql!r}")
        return self.head + ", ".join([self.values] * rows)

    def parameters(self, rows: Sequence[dict[str, Any]]) -> list[Any]:
        """Return the placeholder values of ``rows``, in order."""
        values = []
        for row in rows:
            for key, process in self.fields:
                value = row[key]
                values.append(value if process is None else process(value))
        return values


class SqliteWrites:
    """Runs planned writes on an SQLite connection's driver cursor (module doc).

    Args:
        dialect: the SQLite dialect of the engine whose connections run them (its JSON
            serializer and type processors are the ones used).
    """

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._page = max(1, dialect.insertmanyvalues_page_size)
        self._max_parameters = dialect.insertmanyvalues_max_parameters
        self._prepared = lru_cache(maxsize=COMPILED_CACHE)(self._prepare)

    def execute(self, connection: Connection, writes: Iterable[Write]) -> None:
        """Run ``writes`` in ``connection``'s transaction (begun by the caller).

        Each statement fires the connection's ``before_cursor_execute`` and
        ``after_cursor_execute`` events (with ``context=None``), as ``Connection.execute``
        would.

        Raises:
            sqlalchemy.exc.DBAPIError: what the database raised, wrapped as
                ``Connection.execute`` wraps it (``IntegrityError`` for a taken
                ``(match_id, seq)``).
        """
        run = None
        for statement, params in planned_writes(writes, sqlite=True):
            rows = [params] if isinstance(params, dict) else params
            keys = tuple(rows[0])
            single = self._prepared(statement, keys)
            if single is None:  # a parameter SQLAlchemy fills in itself
                connection.execute(statement, params)
                continue
            if run is None:
                run = _Cursor(connection, self._dialect)
            if len(rows) == 1:
                run(False, single.sql, single.parameters(rows))
            elif single.values is not None:
                size = max(1, min(self._page, self._max_parameters // len(single.fields)))
                for start in range(0, len(rows), size):
                    page = rows[start:start + size]
                    run(False, single.sql_for(len(page)), single.parameters(page))
            else:  # one statement per row, in order (an update of one match twice)
                run(True, single.sql, [single.parameters([row]) for row in rows])

    def _prepare(self, statement: Executable, keys: tuple[str, ...]) -> Prepared | None:
        """Return ``statement`` compiled for rows of ``keys``, or ``None`` when it needs a
        parameter that is not in ``keys``.

        An insert's rows: SQLAlchemy compiles it for two and three rows once (a multi-row
        ``VALUES``), and the SQL of n rows is the one-row SQL's head and n of its rows, checked
        against those compilations.

        Raises:
            AssertionError: SQLAlchemy's multi-row SQL is not made of the one-row SQL's rows.
        """
        compiled = cast(SQLCompiler, cast(ClauseElement, statement).compile(
            dialect=self._dialect, column_keys=list(keys)))
        names = list(compiled.positiontup or ())
        if not set(names) <= set(keys):
            return None
        fields = tuple((name, compiled.binds[name].type.dialect_impl(self._dialect)
                        .bind_processor(self._dialect)) for name in names)
        one = compiled.string
        if not isinstance(statement, Insert):
            return Prepared(one, fields)
        two = self._rows_sql(statement, names, 2)
        values = two[len(one) + 2:]
        if not (values and two.startswith(one + ", ") and one.endswith(values)):
            raise AssertionError(f"unexpected rows in {two!r}")
        prepared = Prepared(one, fields, one[:-len(values)], values)
        if self._rows_sql(statement, names, 3) != prepared.sql_for(3):
            raise AssertionError(f"unexpected rows in {prepared.sql_for(3)!r}")
        return prepared

    def _rows_sql(self, statement: Insert, names: list[str], rows: int) -> str:
        """Return SQLAlchemy's SQL of ``statement`` inserting ``rows`` rows of ``names``.

        Raises:
            AssertionError: its placeholders are not the rows' names, row by row.
        """
        several = statement.values(
            [{name: bindparam(f"{name}__{row}") for name in names} for row in range(rows)]
        ).compile(dialect=self._dialect)
        expected = [f"{name}__{row}" for row in range(rows) for name in names]
        if list(several.positiontup or ()) != expected:
            raise AssertionError(f"unexpected placeholders in {several.string!r}")
        return several.string


class _Cursor:
    """The driver cursor of one connection for one batch, with the connection's cursor events
    (read once)."""

    def __init__(self, connection: Connection, dialect: Dialect) -> None:
        self._connection, self._dialect = connection, dialect
        self._cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        self._before = tuple(connection.dispatch.before_cursor_execute)
        self._after = tuple(connection.dispatch.after_cursor_execute)

    def __call__(self, many: bool, sql: str, parameters: Any) -> None:
        """Execute ``sql`` (``executemany`` when ``many``) between the cursor events, and wrap
        a driver error as SQLAlchemy does."""
        connection, cursor = self._connection, self._cursor
        for before in self._before:
            sql, parameters = before(connection, cursor, sql, parameters, None, many)
        dbapi = self._dialect.loaded_dbapi
        try:
            (cursor.executemany if many else cursor.execute)(sql, parameters)
        except dbapi.Error as exc:
            raise DBAPIError.instance(sql, parameters, exc, dbapi.Error,
                                      dialect=self._dialect) from exc
        for after in self._after:
            after(connection, cursor, sql, parameters, None, many)
