"""Group commit: the store transactions of one process, batched (bench/HISTORY.md §3).

Every job handed to ``GroupWriter.write`` while the previous transaction is running waits for
it, then goes into the next transaction with every other job queued meanwhile: one BEGIN, one
``executemany`` per statement (``repositories.execute_writes``), each job's ``then`` in order,
one COMMIT. A caller hears of its job only after the COMMIT of a transaction holding it, so
ARCHITECTURE.md "Persistence" still holds: an accepted action is stored in a committed
transaction before anyone hears of it.

If a transaction of several jobs fails (an ``IntegrityError`` on ``(match_id, seq)`` because
another process stored that seq first, or any other error), each of its jobs is retried in its
own transaction, so one bad job never loses or fails the others; the caller of the bad job gets
its error (the room core decides the action again on ``IntegrityError``: ``app.rooms.live_rooms``).

A writer in steady use (``BUSY_JOBS`` in the previous second) lets a transaction wait ``delay``
(the setting ``commit_delay_ms``, 2 ms) for more jobs before it begins, as PostgreSQL's
``commit_delay`` does: at 1,000 moves/s batches of one or two became several, and a move's
CPU fell by ≈ 14 % (bench/RESULTS.md "Storage"); a job that finds the writer idle never waits.

One transaction runs at a time per writer (per process): on SQLite that is all a database
allows anyway (no writer sleeps in SQLite's busy handler), and on PostgreSQL one round trip per
statement serves the whole batch.

On an SQLite file, a batch whose jobs have no ``then`` runs on a synchronous connection that the
writer's own thread keeps open (``ThreadTransactions``): the whole transaction is one hand-over
to that thread and one back, instead of one per statement through aiosqlite and the async
session, and its statements run on the driver's cursor as SQLAlchemy compiles them
(``app.db.sqlite_writes``; server CPU per move: bench/RESULTS.md "Storage"). The statements
are the same (``repositories.planned_writes``).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import URL
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.repositories import Write, execute_writes
from app.db.session import file_sqlite, make_sync_sqlite_engine
from app.db.sqlite_writes import SqliteWrites

log = logging.getLogger(__name__)

#: At most this many jobs share one transaction (the rest wait for the next one).
MAX_BATCH = 500
#: With a commit delay, a transaction waits for more jobs only while fewer than this many
#: are queued (PostgreSQL's ``commit_siblings``)…
COMMIT_SIBLINGS = 8
#: … and the previous second brought at least this many jobs (a writer in steady use; one
#: that stores an action now and then never delays it).
BUSY_JOBS = 100


@dataclass(frozen=True)
class Job:
    """One caller's writes, stored together in one transaction.

    Attributes:
        writes: Core writes (``repositories.action_write``…), run with the batch's others.
        then: further work in the same transaction, after every job's ``writes`` (the finish
            of a match: room status, ratings), or ``None``.
        committed: called right after the COMMIT (in the writer's task, before any caller
            resumes), even if the caller stopped waiting: what must follow the stored data
            (``LiveMatch.commit``), or ``None``.
    """

    writes: Sequence[Write]
    then: Callable[[AsyncSession], Awaitable[None]] | None = None
    committed: Callable[[], None] | None = None


class GroupWriter:
    """Runs jobs (``Job``) in as few transactions as possible, one transaction at a time.

    Args:
        sessions: the session factory of the database written to.
        max_batch: at most this many jobs per transaction.
        delay: seconds a transaction waits for more jobs before it begins, while the writer
            is in steady use (``BUSY_JOBS`` in the previous second) and fewer than
            ``COMMIT_SIBLINGS`` are queued (0: it always begins at once). Every job of a
            batch costs less than one alone (one BEGIN/COMMIT, one write of each page they
            share, one hand-over to the writer's thread): bench/RESULTS.md "Storage".
    """

    def __init__(self, sessions: async_sessionmaker, max_batch: int = MAX_BATCH,
                 delay: float = 0.0) -> None:
        self._sessions, self._max, self._delay = sessions, max_batch, delay
        self._second, self._jobs, self._rate = 0.0, 0, 0  # jobs counted per second (loop time)
        self._queue: list[tuple[Job, asyncio.Future]] = []
        self._task: asyncio.Task | None = None
        bind = sessions.kw.get("bind")
        self.threaded = (ThreadTransactions(bind.url)
                         if bind is not None and file_sqlite(bind.url) else None)

    async def close(self) -> None:
        """Close the writer's own thread and connection, if it has them (a later write opens
        them again)."""
        if self.threaded is not None:
            await self.threaded.close()

    def queued(self) -> int:
        """Return how many jobs wait for the next transaction (not the one running)."""
        return len(self._queue)

    async def write(self, job: Job) -> None:
        """Store ``job``; return once a transaction holding it has committed.

        Raises:
            Exception: what storing the job alone raised (e.g. ``IntegrityError``); then
                nothing of the job was stored. ``asyncio.CancelledError`` if the writer was
                cancelled before the job's COMMIT (nothing of it stored either).
        """
        future = asyncio.get_running_loop().create_future()
        self._queue.append((job, future))
        self._jobs += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
            self._task.add_done_callback(self._drained)
        await future

    def _busy(self) -> bool:
        """Whether the previous whole second of the event loop's clock brought at least
        ``BUSY_JOBS`` jobs."""
        now = asyncio.get_running_loop().time()
        if now - self._second >= 1.0:
            self._rate = self._jobs if now - self._second < 2.0 else 0
            self._second, self._jobs = now, 0
        return self._rate >= BUSY_JOBS

    def _drained(self, task: asyncio.Task) -> None:
        """The drain ended: if it was cancelled before it began, its queued jobs fail too."""
        if task.cancelled() and self._task is task:
            for _, future in self._queue:
                future.cancel()
            self._queue = []

    async def _drain(self) -> None:
        """Run the queued jobs, a batch per transaction, until none is left."""
        batch: list[tuple[Job, asyncio.Future]] = []
        try:
            while self._queue:
                if self._delay and len(self._queue) < COMMIT_SIBLINGS and self._busy():
                    await asyncio.sleep(self._delay)
                batch, self._queue = self._queue[:self._max], self._queue[self._max:]
                await self._run_batch(batch)
                batch = []
        except BaseException:  # cancelled mid-transaction: nothing of it or after it is stored
            for _, future in batch + self._queue:
                future.cancel()
            self._queue = []
            raise

    async def _run_batch(self, batch: list[tuple[Job, asyncio.Future]]) -> None:
        """Store ``batch`` in one transaction, else each job in its own."""
        try:
            await self._transaction([job for job, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                _fail(batch[0][1], exc)
                return
            log.info("a batch of %d stores failed; storing each alone", len(batch),
                     extra={"error": repr(exc)})
            for item in batch:
                await self._run_batch([item])
            return
        for job, future in batch:
            _acknowledge(job, future)

    async def _transaction(self, jobs: list[Job]) -> None:
        """Run ``jobs`` in one transaction and commit it."""
        if self.threaded is not None and all(job.then is None for job in jobs):
            await self.threaded.run([w for job in jobs for w in job.writes])
            return
        async with self._sessions() as session, session.begin():
            await execute_writes(session, [w for job in jobs for w in job.writes])
            for job in jobs:
                if job.then is not None:
                    await job.then(session)


class ThreadTransactions:
    """Transactions of Core writes on an SQLite file, each run whole by one thread of their own
    on one connection that thread keeps open (``make_sync_sqlite_engine``: the same pragmas as
    the async engine's), both made on first use.

    A transaction goes to the thread through a queue, and its end comes back to the event loop
    in one ``call_soon_threadsafe``. BEGIN, COMMIT and ROLLBACK go through the SQLAlchemy
    connection (its events fire); the statements run on its driver cursor
    (``app.db.sqlite_writes``).

    Args:
        url: the async engine's URL (the same file).
    """

    def __init__(self, url: URL) -> None:
        self._url = url
        self._engine: Engine | None = None
        self._requests: queue.SimpleQueue[_Request] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def engine(self) -> Engine:
        """Return the synchronous engine (made on first use)."""
        if self._engine is None:
            self._engine = make_sync_sqlite_engine(self._url)
        return self._engine

    async def run(self, writes: list[Write]) -> None:
        """Run ``writes`` in one transaction and commit it; return after the COMMIT.

        If the caller is cancelled before the COMMIT, the transaction rolls back and
        ``CancelledError`` is raised; if the COMMIT had already begun, this returns (the
        writes are stored) and the cancellation is raised at the caller's next wait.

        Raises:
            Exception: what the database raised (nothing stored), e.g. ``IntegrityError``.
        """
        request = self._send(writes)
        try:
            await asyncio.shield(request.done)
        except asyncio.CancelledError:
            request.abort = True
            while not request.done.done():
                try:
                    await asyncio.shield(request.done)
                except asyncio.CancelledError:
                    pass
            if request.done.exception() is not None or not request.done.result():
                raise
            current = asyncio.current_task()
            if current is not None:  # stored: acknowledged, then cancelled
                current.cancel()

    def _send(self, writes: list[Write] | None) -> _Request:
        """Queue a transaction of ``writes`` (``None``: the thread's end) for the thread,
        starting it first if needed; return the request (``done`` says how it ended)."""
        loop = asyncio.get_running_loop()
        if self._thread is None:  # a queue of its own (an ending thread may still read its own)
            self._requests = queue.SimpleQueue()
            self._thread = threading.Thread(target=_serve, args=(self._requests, self.engine()),
                                            name="group-writer", daemon=True)
            self._thread.start()
        request = _Request(writes, loop, loop.create_future())
        self._requests.put(request)
        return request

    async def close(self) -> None:
        """Close the connection and the engine, and end the thread (a later ``run`` makes
        them again)."""
        if self._thread is not None:
            request = self._send(None)
            self._thread = self._engine = None
            await asyncio.shield(request.done)
        elif self._engine is not None:
            self._engine.dispose()
            self._engine = None


@dataclass(eq=False, slots=True)
class _Request:
    """One transaction for the writer's thread.

    Attributes:
        writes: the writes; ``None`` asks the thread to close its connection and end.
        loop: the event loop of the caller; done: its result there, set by the thread:
            ``True`` (committed), ``False`` (rolled back: ``abort`` was set in time) or the
            exception.
        abort: set by the caller (cancelled) to roll back instead of committing.
    """

    writes: list[Write] | None
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future
    abort: bool = False


def _serve(requests: queue.SimpleQueue[_Request], engine: Engine) -> None:
    """Run the transactions of ``requests`` one at a time on one connection of ``engine``
    (checked out on first use, and again after a failure), until a request without writes."""
    statements = SqliteWrites(engine.dialect)
    connection: Connection | None = None
    while True:
        request = requests.get()
        if request.writes is None:
            _answer(request, _release(connection, engine))
            return
        try:
            if connection is None:
                connection = engine.connect()
            outcome: bool | BaseException = _transaction(connection, statements, request)
        except Exception as exc:  # the caller gets it; the next one checks out a connection
            outcome = exc      # again (the pool rolls back, or drops a broken one)
            _release(connection)
            connection = None
        _answer(request, outcome)


def _release(connection: Connection | None, engine: Engine | None = None
             ) -> bool | BaseException:
    """Close ``connection`` (back to its pool) and dispose of ``engine`` (either may be
    ``None``); return ``True``, or the exception that closing raised (logged)."""
    try:
        if connection is not None:
            connection.close()
        if engine is not None:
            engine.dispose()
    except Exception as exc:
        log.exception("closing the group writer's connection")
        return exc
    return True


def _transaction(connection: Connection, statements: SqliteWrites, request: _Request) -> bool:
    """Run the request's writes and COMMIT (in the writer's thread); return ``False`` (rolled
    back) when ``request.abort`` was set before the COMMIT."""
    assert request.writes is not None
    with connection.begin() as transaction:
        statements.execute(connection, request.writes)
        if request.abort:
            transaction.rollback()
            return False
    return True


def _answer(request: _Request, outcome: bool | BaseException) -> None:
    """Settle ``request.done`` with ``outcome`` on the caller's loop (nothing if it closed)."""
    try:
        request.loop.call_soon_threadsafe(_settle, request.done, outcome)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


def _settle(done: asyncio.Future, outcome: bool | BaseException) -> None:
    """Set ``done`` to ``outcome`` (a result or an exception; in the event loop)."""
    if done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


def _acknowledge(job: Job, future: asyncio.Future) -> None:
    """Run the committed job's ``committed`` and let its caller go on."""
    try:
        if job.committed is not None:
            job.committed()
    except Exception as exc:  # stored, but what follows it failed: the caller hears why
        log.exception("after a commit")
        _fail(future, exc)
    if not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future, exc: Exception) -> None:
    """Give ``exc`` to the job's caller (unless it stopped waiting)."""
    if not future.done():
        future.set_exception(exc)
