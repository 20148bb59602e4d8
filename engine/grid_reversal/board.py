"""Board geometry: the shared grid of two facing boards, its rows, S squares and neighbours.

Cells are ``(row, col)`` tuples; row 0 is the far edge of the second player's board. Rows
``0..depth-1`` belong to the second player, ``depth..2*depth-1`` to the first (ruling "Board and
deck": rows 0-2 and 3-5 of the default 5 x 6 grid); each S square is the middle of its owner's
back row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Cell = tuple[int, int]

#: The 8 directions of the 8-neighbourhood (九宫格), in row-major order.
DIRECTIONS: tuple[Cell, ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


@dataclass(frozen=True)
class Layout:
    """The grid of one match: ``width`` columns and ``2 * depth`` rows."""

    width: int
    depth: int

    @property
    def rows(self) -> int:
        """Return the number of rows of the whole grid."""
        return 2 * self.depth

    @property
    def size(self) -> int:
        """Return the number of cells."""
        return self.rows * self.width

    def cells(self) -> tuple[Cell, ...]:
        """Return every cell in row-major order."""
        return _cells(self)

    def index(self, cell: Cell) -> int:
        """Return the position of ``cell`` in a row-major grid tuple."""
        return cell[0] * self.width + cell[1]

    def contains(self, cell: Cell) -> bool:
        """Return whether ``cell`` lies on the grid."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.width

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Return the on-grid cells of the 8-neighbourhood of ``cell``, row-major."""
        return _neighbours(self, cell)

    def home_rows(self, first: bool) -> range:
        """Return the rows of the first player's board (``first``) or the second player's."""
        return range(self.depth, self.rows) if first else range(0, self.depth)

    def start(self, first: bool) -> Cell:
        """Return the S square of the first player (``first``) or of the second player."""
        return (self.rows - 1 if first else 0, self.width // 2)

    def starts(self) -> tuple[Cell, Cell]:
        """Return both S squares (first player's, second player's)."""
        return (self.start(True), self.start(False))


@lru_cache(maxsize=64)
def _cells(layout: Layout) -> tuple[Cell, ...]:
    return tuple((r, c) for r in range(layout.rows) for c in range(layout.width))


@lru_cache(maxsize=4096)
def _neighbours(layout: Layout, cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return tuple((r + dr, c + dc) for dr, dc in DIRECTIONS if layout.contains((r + dr, c + dc)))


def adjacent(a: Cell, b: Cell) -> bool:
    """Return whether two distinct cells are in each other's 8-neighbourhood."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def beyond(a: Cell, b: Cell) -> Cell:
    """Return the cell one step past ``b`` on the straight line from ``a`` through ``b``.

    ``a`` and ``b`` must be adjacent; the result may lie off the grid.
    """
    return (2 * b[0] - a[0], 2 * b[1] - a[1])

