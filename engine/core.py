"""The engine protocol shared by every game: spec, options, events, outcome, errors, seeded RNG.

Engines are pure: standard library only, no I/O, no clock, no global random. Same seed and
same actions give the same states, bit for bit (ARCHITECTURE.md, "Engine protocol").
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")
#: A game's state type: each engine's own immutable value (``Game[S]``, ``GameBase[S]``).
S = TypeVar("S")

__all__ = [
    "EngineError",
    "InvalidAction",
    "IllegalAction",
    "OptionSpec",
    "GameSpec",
    "Event",
    "Outcome",
    "Rng",
    "Game",
    "validate_options",
    "require_keys",
    "action_type",
    "check_action",
    "GameBase",
]


# --------------------------------------------------------------------------- errors


class EngineError(ValueError):
    """Base of the engine's typed errors.

    Attributes:
        code: a stable machine code (snake_case) the frontend translates, e.g. ``not_your_turn``.
        message: an English sentence a player can read.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidAction(EngineError):
    """A malformed action: wrong shape, unknown type, missing or mistyped field.

    Codes used across games: ``malformed_action``, ``unknown_action``.
    """


class IllegalAction(EngineError):
    """A well-formed action the rules do not allow now.

    Codes used across games: ``not_your_turn``, ``game_over``, ``card_not_in_hand``,
    ``not_allowed`` (plus game-specific codes documented by each engine).
    """


def require_keys(action: Mapping[str, Any], types: Mapping[str, type | tuple[type, ...]]) -> None:
    """Check that ``action`` has exactly ``type`` plus the keys in ``types`` with those types.

    Args:
        action: the client's action object.
        types: ``{key: expected type}``; ``bool`` is never accepted where ``int`` is expected.

    Raises:
        InvalidAction: ``malformed_action`` naming the first missing, extra or mistyped key.
    """
    if not isinstance(action, Mapping):
        raise InvalidAction("malformed_action", "An action must be a JSON object.")
    extra = set(action) - set(types) - {"type"}
    if extra:
        raise InvalidAction("malformed_action", f"Unexpected field {sorted(extra)[0]!r}.")
    for key, expected in types.items():
        if key not in action:
            raise InvalidAction("malformed_action", f"Missing field {key!r}.")
        value = action[key]
        wanted = expected if isinstance(expected, tuple) else (expected,)
        if isinstance(value, bool) and bool not in wanted:
            raise InvalidAction("malformed_action", f"Field {key!r} has the wrong type.")
        if not isinstance(value, wanted):
            raise InvalidAction("malformed_action", f"Field {key!r} has the wrong type.")


def action_type(action: Any, known: Mapping[str, Any]) -> str:
    """Return the ``type`` of ``action`` after checking it is one of ``known``'s keys.

    Args:
        action: the client's action object.
        known: the game's action types (a mapping keyed by type; the values are not read).

    Raises:
        InvalidAction: ``malformed_action`` unless ``action`` is an object with a string
            ``type``; ``unknown_action`` for a type not in ``known``.
    """
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise InvalidAction("malformed_action", "An action must be an object with a 'type'.")
    kind = action["type"]
    if kind not in known:
        raise InvalidAction("unknown_action", f"Unknown action type {kind!r}.")
    return kind


def check_action(action: Any, shapes: Mapping[str, Mapping[str, type | tuple[type, ...]]]) -> str:
    """Return the ``type`` of ``action`` after checking its whole shape.

    Args:
        action: the client's action object.
        shapes: ``{type: {key: expected type}}`` for every action type of the game (the keys
            besides ``type``, as ``require_keys`` takes them).

    Raises:
        InvalidAction: ``malformed_action`` (not an object, no string ``type``, a missing,
            extra or mistyped field) or ``unknown_action`` (a type not in ``shapes``).
    """
    kind = action_type(action, shapes)
    require_keys(action, shapes[kind])
    return kind


# --------------------------------------------------------------------------- spec & options


@dataclass(frozen=True)
class OptionSpec:
    """One room option of a game, as the lobby shows it and the server validates it.

    Attributes:
        name: the option key, e.g. ``"regulation"``.
        kind: ``"choice"`` (one of ``choices``), ``"int"`` (``minimum``..``maximum``) or ``"bool"``.
        default: the value used when the room does not set the option.
        choices: the allowed values for ``"choice"``.
        minimum, maximum: inclusive bounds for ``"int"``.
        label: a short English label for the lobby.
        when: ``(option, value)`` when the option only matters while another option has that
            value (mahjong's ``hands`` with ``("rules", "hebei")``), else ``None``. Otherwise it
            is stored with its default and refused with another value; the lobby and the option
            summaries leave it out.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    when: tuple[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the option as a JSON-ready dict (the catalog's option schema): ``name``,
        ``kind``, ``default``, ``label``; ``choices`` or ``minimum``/``maximum`` by kind; and
        ``when`` ``{option: value}`` for an option that only applies with that value."""
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default,
                                "label": self.label or self.name}
        if self.kind == "choice":
            data["choices"] = list(self.choices)
        if self.kind == "int":
            data["minimum"], data["maximum"] = self.minimum, self.maximum
        if self.when is not None:
            data["when"] = {self.when[0]: self.when[1]}
        return data

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is allowed for this option.

        Raises:
            ValueError: with a message naming the option and what it accepts.
        """
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"Option {self.name!r} must be true or false.")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"Option {self.name!r} must be a whole number.")
            if not (self.minimum <= value <= self.maximum):  # type: ignore[operator]
                raise ValueError(
                    f"Option {self.name!r} must be between {self.minimum} and {self.maximum}.")
        elif self.kind == "choice":
            if value not in self.choices or isinstance(value, bool) != isinstance(
                    self.choices[0], bool):
                allowed = ", ".join(str(c) for c in self.choices)
                raise ValueError(f"Option {self.name!r} must be one of: {allowed}.")
        else:  # pragma: no cover - a programming error in a spec
            raise ValueError(f"Unknown option kind {self.kind!r}.")
        return value


def validate_options(options: Sequence[OptionSpec], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the full option dict: defaults overlaid with the validated ``raw`` values.

    Args:
        options: the game's option specs.
        raw: the room's requested options (may be ``None`` or partial).

    Raises:
        ValueError: when ``raw`` is not a mapping (``"Options must be a JSON object."``), for an
            unknown option name, for a value the option does not accept, or for an option
            given another value than its default while its ``when`` does not hold (``"Option
            'rounds' applies only with rules 'mcr'."``: it would be stored and ignored; the
            default passes, so a stored option dict validates again).
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ValueError("Options must be a JSON object.")
    if not all(isinstance(name, str) for name in raw):
        raise ValueError("Option names must be strings.")
    known = {o.name: o for o in options}
    unknown = set(raw) - set(known)
    if unknown:
        raise ValueError(f"Unknown option {sorted(unknown)[0]!r}.")
    values = {name: spec.check(raw[name]) if name in raw else spec.default
              for name, spec in known.items()}
    for name in raw:
        when = known[name].when
        if when is not None and values[when[0]] != when[1] and values[name] != known[name].default:
            raise ValueError(f"Option {name!r} applies only with {when[0]} {when[1]!r}.")
    return values


@dataclass(frozen=True)
class GameSpec:
    """A game's facts as data (OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO``).

    Attributes:
        id: the engine id used in URLs and the database, e.g. ``"reverse_curse"``.
        titles: ``{"en": ..., "zh": ..., "ja": ...}`` display names.
        min_players, max_players: seats a match may have.
        hidden_information: whether some state is hidden from some viewers.
        max_length: the most actions a match can take (every game ends within it).
        options: the room options (``OptionSpec``), including ``turn_seconds``.
    """

    id: str
    titles: Mapping[str, str]
    min_players: int
    max_players: int
    hidden_information: bool
    max_length: int
    options: tuple[OptionSpec, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the catalog entry: id, titles, player counts, options schema."""
        return {
            "id": self.id,
            "titles": dict(self.titles),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "hidden_information": self.hidden_information,
            "max_length": self.max_length,
            "options": [o.to_json() for o in self.options],
        }


class GameBase(Generic[S]):
    """What most engines share, and the defaults of the protocol's hooks (``Game``).

    Options are checked against ``spec.options``; when ``spec.min_players ==
    spec.max_players`` that is the seat count. A game class sets ``spec``, overrides ``seats``
    when the options choose the seat count, and overrides each hook whose default does not fit
    its rules (each default says when it fits).
    """

    spec: GameSpec

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return the full options: ``spec.options`` defaults overlaid with ``raw``.

        Raises:
            ValueError: for a ``raw`` that is not a mapping, an unknown option or a value it
                does not accept (the message says which; see ``validate_options``).
        """
        return validate_options(self.spec.options, raw)

    def seats(self, options: Mapping[str, Any]) -> int:
        """Return the game's fixed player count (``spec.max_players``), whatever the options.

        Raises:
            NotImplementedError: when the spec allows several player counts (the game must
                then say how the options choose).
        """
        if self.spec.min_players != self.spec.max_players:
            raise NotImplementedError(f"{self.spec.id} must say how its options choose seats.")
        return self.spec.max_players

    def sides(self, options: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """Return the groups of seats that play as one side, in side order; default: every
        seat alone, ``((0,), (1,), …)`` — right for every game without teams."""
        return tuple((seat,) for seat in range(seats))

    def deadline_seat(self, state: S, seat: int) -> int:
        """Return the seat whose ``deadline_action`` plays when ``seat``'s clock runs out;
        default ``seat`` — right unless a timeout is one random choice over a whole side's
        cards (then the member the choice falls on)."""
        return seat

    def to_act_is_public(self, state: S) -> bool:
        """Return whether ``to_act(state)`` may be shown to every viewer; default True — right
        unless who is asked can depend on hidden information (then override)."""
        return True

    def listed_actions(self, state: S, seat: int) -> Sequence[Mapping[str, Any]]:
        """Return ``legal_actions(state, seat)`` as the engine may share it; default: a fresh
        ``legal_actions`` list (an engine that caches its list on the state returns that)."""
        return self.legal_actions(state, seat)  # type: ignore[attr-defined]

    def redeal(self, state: S, viewer: int | None, rng: Rng) -> S:
        """Return ``state`` with everything ``viewer`` cannot see re-dealt from ``rng``;
        default: ``state`` itself, right only for a game without hidden information.

        Raises:
            NotImplementedError: when ``spec.hidden_information`` (the game must re-deal).
        """
        if self.spec.hidden_information:
            raise NotImplementedError(f"{self.spec.id} has hidden information: it must redeal.")
        return state

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> S:
        """Return a complete state consistent with ``view`` (``seat``'s own view), the hidden
        part drawn from ``rng``.

        Raises:
            NotImplementedError: always here; every engine implements it.
        """
        raise NotImplementedError(f"{self.spec.id} must implement sample(view, seat, rng).")


# --------------------------------------------------------------------------- events & outcome


_NO_DATA: Any = object()     # ``Event``'s ``data`` was not given (a fresh dict is used)


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened in ``apply``, with its own audience.

    Attributes:
        kind: a stable name, e.g. ``"card_played"``.
        data: JSON-ready details.
        visible_to: the seats that may see it; ``None`` = everyone (spectators included).
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    def __init__(self, kind: str, data: Mapping[str, Any] = _NO_DATA,
                 visible_to: frozenset[int] | None = None) -> None:
        """Set the fields like the generated frozen ``__init__`` (``data`` omitted: a new empty
        dict), writing the instance dict directly: half the cost of its ``object.__setattr__``
        calls (every ``apply`` of every engine makes events)."""
        fields = self.__dict__
        fields["kind"] = kind
        fields["data"] = {} if data is _NO_DATA else data
        fields["visible_to"] = visible_to

    def visible(self, viewer: int | None) -> bool:
        """Return whether ``viewer`` (a seat, or ``None`` for a spectator) may see this event."""
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"kind", "data"}`` for the wire (the audience is not sent)."""
        return {"kind": self.kind, "data": dict(self.data)}


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    Attributes:
        ranks: one rank per seat, 1 = best; equal ranks tie (all 1 = a draw).
        reason: a stable code, e.g. ``"ko"``, ``"decision"``, ``"draw"``, ``"resign"``.
        detail: JSON-ready extra facts (final position, scores…).
    """

    ranks: tuple[int, ...]
    reason: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> frozenset[int]:
        """Seats ranked first (all seats on a draw)."""
        return frozenset(i for i, r in enumerate(self.ranks) if r == 1)

    @property
    def draw(self) -> bool:
        """Whether every seat shares the first rank."""
        return all(r == 1 for r in self.ranks)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"ranks", "reason", "winners", "draw", "detail"}``."""
        return {"ranks": list(self.ranks), "reason": self.reason,
                "winners": sorted(self.winners), "draw": self.draw, "detail": dict(self.detail)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Inverse of ``to_json``."""
        return cls(tuple(data["ranks"]), data["reason"], dict(data.get("detail", {})))


# --------------------------------------------------------------------------- randomness


class Rng:
    """A deterministic random stream from a key (SHA-256 in counter mode).

    Derive one per decision from the match seed and labels that say where in the match it is
    used (``Rng.derive(seed, "deal", set_no)``), so no RNG state needs storing and replays are
    exact. Never touches the ``random`` module.
    """

    __slots__ = ("_key", "_counter", "_pool")

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = b""

    @classmethod
    def derive(cls, seed: bytes, *labels: object) -> Rng:
        """Return a stream for ``seed`` and the given labels (str/int; order matters)."""
        text = "\x1f".join(str(label) for label in labels).encode()
        return cls(seed + b"\x1e" + text)

    def _fill(self, pool: bytes, n: int) -> bytes:
        """Return ``pool`` followed by the stream's next blocks until it holds ``n`` bytes."""
        while len(pool) < n:
            pool += hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        return pool

    def randbelow(self, n: int) -> int:
        """Return a uniform int in ``[0, n)``; raises ``ValueError`` if ``n < 1``.

        A draw takes the fewest whole bytes of the stream holding ``n - 1``'s bits (at least
        one), masks them to those bits, and draws again while the value is ``>= n``.
        """
        if n < 1:
            raise ValueError("randbelow needs n >= 1")
        bits = (n - 1).bit_length() or 1
        nbytes, mask = (bits + 7) >> 3, (1 << bits) - 1
        pool, at = self._pool, 0
        while True:
            if len(pool) - at < nbytes:
                pool, at = self._fill(pool[at:], nbytes), 0
            value = int.from_bytes(pool[at:at + nbytes], "big") & mask
            at += nbytes
            if value < n:
                self._pool = pool[at:]
                return value

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return a new list with ``items`` in a uniformly random order (Fisher–Yates: swap
        ``i``, from the last down to 1, with ``j = randbelow(i + 1)``)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def coin(self) -> int:
        """Return 0 or 1 with equal chance."""
        return self.randbelow(2)


# --------------------------------------------------------------------------- the protocol


@runtime_checkable
class Game(Protocol[S]):
    """What every engine module exposes as ``GAME`` (see ARCHITECTURE.md, "Engine protocol").

    ``S`` is the engine's state type: its own immutable value; only ``app/rooms`` and the bots'
    own searches ever hold one. ``GameBase`` gives defaults for ``sides``, ``deadline_seat``,
    ``to_act_is_public``, ``listed_actions``, ``redeal`` and ``sample`` (where a default fits).
    """

    spec: GameSpec

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return the full options; ``ValueError`` with a clear message on a bad one."""

    def seats(self, options: Mapping[str, Any]) -> int:
        """Return how many seats a match with these (validated) options has."""

    def sides(self, options: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """Return the groups of seats that play as one side (teams), in side order, for a match
        with these (validated) options and ``seats`` seats; every seat is in exactly one group.
        Known before the match starts, so an open room can show its teams."""

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> S:
        """Return the initial state for ``players`` seats from the secret match ``seed``."""

    def to_act(self, state: S) -> frozenset[int]:
        """Return the seats that may act now; empty when the match is over."""

    def legal_actions(self, state: S, seat: int) -> list[dict[str, Any]]:
        """Return every legal action of ``seat`` now, in a deterministic order (JSON-ready)."""

    def apply(self, state: S, seat: int, action: Mapping[str, Any]) -> tuple[S, list[Event]]:
        """Return ``(new_state, events)``; never mutates ``state``.

        Raises:
            InvalidAction: malformed action.
            IllegalAction: well-formed but not legal now (``not_your_turn``…).
        """

    def view(self, state: S, viewer: int | None) -> dict[str, Any]:
        """Return what ``viewer`` (a seat, or ``None`` = spectator) may see, JSON-ready."""

    def outcome(self, state: S) -> Outcome | None:
        """Return the outcome once the match is over, else ``None``."""

    def deadline_action(self, state: S, seat: int) -> dict[str, Any]:
        """Return the action a clock timeout plays for ``seat`` (one of its legal actions)."""

    def deadline_seat(self, state: S, seat: int) -> int:
        """Return the seat (in ``to_act``) whose ``deadline_action`` the room plays when
        ``seat``'s clock runs out: ``seat`` itself, or the teammate a side-wide timeout choice
        falls on (Reverse Curse: a random hand card of the whole team)."""

    def clock_seconds(self, state: S, seat: int) -> int:
        """Return the seconds ``seat`` has for its current decision."""

    def resign(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """Return the state in which ``seat`` (and its side) resigned: the match is over."""

    def dump(self, state: S) -> dict[str, Any]:
        """Return the full state as JSON-ready data (raw: never sent to clients)."""

    def load(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``dump``."""

    def to_act_is_public(self, state: S) -> bool:
        """Return whether the set ``to_act(state)`` may be shown to every viewer.

        False when who is asked depends on hidden information (e.g. a zipai claim window, where
        a seat is asked only if its hidden hand can claim): the room layer then shows each seat
        only its own clock, no clock to spectators, and sends a ``timeout`` event of such a
        state only to the seat that timed out (docs/protocol.md "clocks"; docs/security.md).
        """

    def listed_actions(self, state: S, seat: int) -> Sequence[Mapping[str, Any]]:
        """Return the actions of ``legal_actions(state, seat)``, equal and in the same order, as
        objects the engine may keep (e.g. cached on the state) and share: callers only read
        them. The room layer keeps these instead of a copy."""

    def redeal(self, state: S, viewer: int | None, rng: Rng) -> S:
        """Return a state that ``viewer`` (a seat, or ``None`` = spectator) cannot tell from
        ``state``: everything it cannot see re-dealt from ``rng`` among the possibilities the
        rules allow, everything it sees kept. The leak contract compares the two
        (tests/engine/test_leak_contract.py). Never mutates ``state``."""

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> S:
        """Return a complete state consistent with everything ``view`` shows, ``view`` being
        ``seat``'s own ``view(state, seat)``; the hidden part (other hands, the deck's order…)
        is drawn from ``rng`` among the possibilities the view leaves open, so that
        ``view(sample(v, seat, rng), seat) == v`` and the legal actions of ``seat`` agree.

        Uses only ``view`` (never a raw state): the determinization a search bot needs.
        Deterministic for a given ``rng`` stream.
        """
