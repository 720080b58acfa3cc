"""Straight-line sight boards: rectangles and door openings in, adjacency and sight out.

A *geometry board* (the Kill Doctor Lucky mansion, the Save Doctor Lucky ship) is drawn, not
listed: every space is an axis-aligned rectangle, walls are whatever lies between the spaces,
and the data file says where the openings in the walls are. This module derives the two
relations the rules need from that drawing alone:

adjacency (``K-BOARD-2``)
    Two spaces are adjacent when a **door** joins them. One step = one door. The edge kind in
    :attr:`Board.graph <luckylab.boards.board.Board.graph>` is ``"door"`` (its ``doors`` attribute
    counts the openings: two for the Kitchen and Hall W). Spaces whose rectangles merely touch
    are *not* adjacent, though they do see each other (nothing blocks the line): draw a wall.
straight-line sight (``K-SIGHT-1``, ``K-SIGHT-2``)
    Space A sees space B when some horizontal or vertical straight line runs from a point of A
    to a point of B through *open* area only: spaces, doors and **see-through** openings (the
    Gallery railing). Never diagonally. A see-through opening gives sight but no step.

What this module does not own: rules (who may stand where, who moves when). It builds a
:class:`~luckylab.boards.board.Board` with the same face as the island's (``graph``, ``sees``,
``visible_from``, ``reachable``) and keeps the drawing in ``Board.geometry`` (a
:class:`Geometry`) for pictures and for games that change the board (a sinking ship:
:func:`board_without`).

The algorithm (exact for rectangles)
------------------------------------
Every edge of every rectangle cuts the plane; the cuts make a grid of cells (coordinate
compression). A cell is *open* if it lies inside a space or an opening, else it is wall. All
horizontal lines strictly inside one row of cells meet exactly the same cells, so a row is one
*band* of parallel sight lines of positive width. Two spaces see each other iff, in some row
(or column), one unbroken run of open cells touches both. Lines that graze a wall corner
exactly (a band of width zero) never count: the 1997 board joins every visible pair by a band at
least 45 pt wide (:meth:`Geometry.sight_widths` measures it), so the distinction is only there
to make the answer exact. Everything is computed once per board.

The "geometry" data format (TOML; JSON with the same structure also loads)
-------------------------------------------------------------------------
Top level::

    format = "geometry"          # required: dispatches the loader (luckylab.boards)
    name = "Doctor Lucky's mansion (1997 board)"   # display name
    status = "published"         # or "reconstruction" (say which facts are known in `facts`)
    source = "where the drawing comes from"
    units = "pdf_points"         # any length unit; all rects of a file share it
    game = "kill"                # optional, informational
    notes = "..."                # optional free text
    method = "..."               # optional: how the geometry was read (provenance)
    source_sha256 = {}           # optional table: file name -> sha256 of the source files
    page = [1584, 1224]          # optional [width, height] of the drawing
    coordinates = "..."          # optional free text describing the axes
    kinds = ["room", "hallway", "stairs"]   # optional: if given, every space kind must be one
    path = ["Drawing Room", "Parlor", ...]  # optional: Doctor Lucky's path, in order, cyclic;
                                            # default = the numbered spaces by number

    [start]                      # optional: named start spaces, e.g. players = "Drawing Room"
    [fallback]                   # optional: unnumbered space -> where Doctor Lucky goes next
                                 # (each target must be a numbered space adjacent to its key)

Rectangles are ``rect = [x0, y0, x1, y1]`` with ``x0 < x1`` and ``y0 < y1``; **y runs
downwards** (page coordinates: origin at the top-left corner). Numbers may be ints or floats.

``[[spaces]]`` (one per space; no two may overlap, they may touch)::

    name = "Kitchen"             # required, unique
    number = 8                   # optional: the space's number on Doctor Lucky's path
    kind = "room"                # required: "room", "hallway", "stairs", ... (free words)
    rect = [54, 621, 333, 819]   # required
    deck = "A"                   # optional (the ship's decks)
    facts = "..."                # optional: which facts are known, which reconstructed

``[[doors]]`` (walkable openings; a pair may have several)::

    between = ["Hall W", "Kitchen"]   # two different spaces
    rect = [54, 603, 108, 621]        # must touch (share a border of positive length with, or
                                      # overlap) both spaces and must not overlap any other space
    note = "..."                      # optional

``[[see_through]]`` (openings you see through but cannot walk through): same fields as doors.

Validation raises :class:`~luckylab.errors.BoardError` naming the file and the field, e.g.
``kill_doctor_lucky_1997.toml: doors[4].between: 'Hedge Mase' is not a space``.

The Python API (for games and notebooks)
----------------------------------------
- :class:`Rect`, :class:`Opening`, :class:`Geometry` (frozen values) and :class:`SightBand`.
- :meth:`Geometry.adjacency`, :meth:`Geometry.sight` (plain dicts), :meth:`Geometry.sight_bands`
  (the bands of lines from one space, for drawing), :meth:`Geometry.sight_widths`,
  :meth:`Geometry.without` (the same drawing with some spaces and their openings gone).
- :func:`board_from_geometry` (a Board from a Geometry and per-space node attributes),
  :func:`board_without` (a smaller Board, same attributes), :func:`board_from_data` (the loader).

>>> from luckylab import load_board
>>> mansion = load_board("kill-doctor-lucky")
>>> sorted(mansion.visible_from("Kitchen") - {"Kitchen"})    # the rulebook's own example
['Hall SW', 'Hall W', 'Master Suite', 'Stairs W', 'Trophy Room', 'Wine Cellar', 'Winter Garden']
>>> mansion.sees("Gallery", "Dining Hall"), mansion.graph.has_edge("Gallery", "Dining Hall")
(True, False)
>>> mansion.sees("Foyer", "Carriage House")     # no diagonal sight
False
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import networkx as nx

from ..errors import BoardError, OptionError, UnknownSpace
from .board import Board
from .fields import board_labels, check_space_number, validate_start

__all__ = [
    "Geometry",
    "Opening",
    "Rect",
    "SightBand",
    "board_from_data",
    "board_from_geometry",
    "board_without",
]


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle ``[x0, x1] x [y0, y1]`` (y downwards, ``x0 < x1``, ``y0 < y1``).

    >>> Rect(0, 0, 4, 2).touches(Rect(4, 1, 6, 3)), Rect(0, 0, 4, 2).overlaps(Rect(4, 1, 6, 3))
    (True, False)
    """

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if not (self.x0 < self.x1 and self.y0 < self.y1):
            raise OptionError(f"a rect needs x0 < x1 and y0 < y1, not {list(self)}")

    def __iter__(self):
        return iter((self.x0, self.y0, self.x1, self.y1))

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def overlaps(self, other: Rect) -> bool:
        """Whether the two interiors meet (an overlap of positive area)."""
        return (self.x0 < other.x1 and other.x0 < self.x1
                and self.y0 < other.y1 and other.y0 < self.y1)

    def touches(self, other: Rect) -> bool:
        """Whether the two share a border segment of positive length or overlap.

        Meeting at a corner point only does not count.
        """
        x_overlap = min(self.x1, other.x1) - max(self.x0, other.x0)
        y_overlap = min(self.y1, other.y1) - max(self.y0, other.y0)
        return x_overlap >= 0 and y_overlap >= 0 and (x_overlap > 0 or y_overlap > 0)


@dataclass(frozen=True, slots=True)
class Opening:
    """A door (walkable, gives sight) or a see-through opening (sight only) between two spaces."""

    between: tuple[str, str]
    rect: Rect
    kind: Literal["door", "see_through"] = "door"
    note: str = ""


@dataclass(frozen=True, slots=True)
class SightBand:
    """A band of parallel sight lines: one row (``"h"``) or column (``"v"``) of cells, cut to
    one unbroken open run.

    For a horizontal band the lines are ``y`` in ``(lo, hi)`` and each runs from ``x = start``
    to ``x = end``; for a vertical band swap x and y. ``spaces`` are the spaces the run crosses,
    all of which see each other along these lines.
    """

    orientation: Literal["h", "v"]
    lo: float
    hi: float
    start: float
    end: float
    spaces: frozenset[str]

    @property
    def rect(self) -> Rect:
        """The band as a rectangle (for drawing)."""
        if self.orientation == "h":
            return Rect(self.start, self.lo, self.end, self.hi)
        return Rect(self.lo, self.start, self.hi, self.end)

    @property
    def width(self) -> float:
        return self.hi - self.lo


@dataclass(frozen=True, eq=False)
class Geometry:
    """The drawing of a geometry board: space rectangles, doors, see-through openings.

    Construct it directly or get it from ``board.geometry``. Derived tables (cells, runs,
    adjacency, sight) are computed on first use and cached; a Geometry never changes.

    >>> g = Geometry(
    ...     rects={"A": Rect(0, 0, 10, 10), "B": Rect(12, 0, 22, 10), "C": Rect(0, 12, 10, 22)},
    ...     doors=(Opening(("A", "B"), Rect(10, 2, 12, 5)),),
    ...     see_through=(Opening(("A", "C"), Rect(2, 10, 8, 12), "see_through"),),
    ... )
    >>> {s: sorted(n) for s, n in g.adjacency().items()}
    {'A': ['B'], 'B': ['A'], 'C': []}
    >>> {s: sorted(n) for s, n in g.sight().items()}
    {'A': ['B', 'C'], 'B': ['A'], 'C': ['A']}
    """

    rects: Mapping[str, Rect]
    doors: tuple[Opening, ...] = ()
    see_through: tuple[Opening, ...] = ()
    units: str = ""
    page: tuple[float, float] | None = None
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rects", dict(self.rects))
        object.__setattr__(self, "doors", tuple(self.doors))
        object.__setattr__(self, "see_through", tuple(self.see_through))
        for o in (*self.doors, *self.see_through):
            for s in o.between:
                if s not in self.rects:
                    raise OptionError(f"opening {o.between} names {s!r}, which has no rect")

    @property
    def spaces(self) -> tuple[str, ...]:
        """Space names in drawing order."""
        return tuple(self.rects)

    @property
    def openings(self) -> tuple[Opening, ...]:
        """Doors, then see-through openings."""
        return self.doors + self.see_through

    @property
    def bounds(self) -> Rect:
        """The smallest rectangle holding every space and opening (or the page, if known)."""
        if self.page is not None:
            return Rect(0, 0, self.page[0], self.page[1])
        rs = [*self.rects.values(), *(o.rect for o in self.openings)]
        return Rect(min(r.x0 for r in rs), min(r.y0 for r in rs),
                    max(r.x1 for r in rs), max(r.y1 for r in rs))

    # -- derived relations -------------------------------------------------------------
    def adjacency(self) -> dict[str, frozenset[str]]:
        """Space -> the spaces one door away (``K-BOARD-2``). See-through openings give none."""
        adj: dict[str, set[str]] = {s: set() for s in self.rects}
        for door in self.doors:
            a, b = door.between
            adj[a].add(b)
            adj[b].add(a)
        return {s: frozenset(n) for s, n in adj.items()}

    def sight(self) -> dict[str, frozenset[str]]:
        """Space -> the other spaces it sees along horizontal or vertical lines (``K-SIGHT-1``).

        Symmetric; a space is not listed as seeing itself (the Board adds that).
        """
        if "sight" not in self._cache:
            seen: dict[str, set[str]] = {s: set() for s in self.rects}
            for band in self._bands():
                for s in band.spaces:
                    seen[s] |= band.spaces
            self._cache["sight"] = {s: frozenset(v - {s}) for s, v in seen.items()}
        return dict(self._cache["sight"])

    def sight_bands(self, space: str | None = None) -> list[SightBand]:
        """The bands of sight lines (one per row or column of cells and open run) that cross at
        least two spaces; only those crossing ``space`` if given. Neighbouring bands are not
        merged, so a wide view may come as several bands side by side."""
        bands = self._bands()
        if space is None:
            return list(bands)
        if space not in self.rects:
            raise UnknownSpace(space, "this geometry", sorted(self.rects))
        return [b for b in bands if space in b.spaces]

    def sight_widths(self) -> dict[frozenset[str], float]:
        """For each pair that sees each other, the width of the widest band of parallel lines
        joining them (neighbouring rows or columns merged). A robustness check on the drawing:
        a pair joined only by a hair-thin band is fragile to drawing errors."""
        if "widths" not in self._cache:
            # Per orientation and pair: the set of cell rows (columns) where they see each other;
            # consecutive indices merge into one band.
            rows: dict[tuple[str, frozenset[str]], set[int]] = {}
            for orient, index, band in self._indexed_bands():
                names = sorted(band.spaces)
                for i, a in enumerate(names):
                    for b in names[i + 1:]:
                        rows.setdefault((orient, frozenset((a, b))), set()).add(index)
            cuts = self._grid()
            widths: dict[frozenset[str], float] = {}
            for (orient, pair), idx in rows.items():
                edges = cuts["ys"] if orient == "h" else cuts["xs"]
                best = 0.0
                run_lo = None
                prev = None
                for i in sorted(idx):
                    if prev is None or i != prev + 1:
                        run_lo = i
                    best = max(best, edges[i + 1] - edges[run_lo])
                    prev = i
                widths[pair] = max(widths.get(pair, 0.0), best)
            self._cache["widths"] = widths
        return dict(self._cache["widths"])

    def without(self, spaces: Iterable[str]) -> Geometry:
        """The same drawing with ``spaces`` removed, and every opening that touches them (their
        area becomes wall: nobody walks or sees through a removed space)."""
        gone = set(spaces)
        unknown = gone - set(self.rects)
        if unknown:
            raise UnknownSpace(sorted(unknown), "this geometry")
        return Geometry(
            rects={s: r for s, r in self.rects.items() if s not in gone},
            doors=tuple(o for o in self.doors if not gone & set(o.between)),
            see_through=tuple(o for o in self.see_through if not gone & set(o.between)),
            units=self.units,
            page=self.page,
        )

    # -- the cell grid -----------------------------------------------------------------
    def _grid(self) -> dict[str, Any]:
        """Coordinate compression: cut positions ``xs``, ``ys`` and ``cells[row][col]`` = the
        space name, ``""`` for an open opening cell, or ``None`` for wall."""
        if "grid" in self._cache:
            return self._cache["grid"]
        all_rects = [*self.rects.values(), *(o.rect for o in self.openings)]
        xs = sorted({v for r in all_rects for v in (r.x0, r.x1)})
        ys = sorted({v for r in all_rects for v in (r.y0, r.y1)})
        cells: list[list[str | None]] = [[None] * (len(xs) - 1) for _ in range(len(ys) - 1)]

        def paint(rect: Rect, value: str) -> None:
            c0, c1 = bisect_left(xs, rect.x0), bisect_left(xs, rect.x1)
            for row in cells[bisect_left(ys, rect.y0):bisect_left(ys, rect.y1)]:
                for c in range(c0, c1):
                    # Spaces win over openings: an opening drawn over a space's edge is
                    # still that space where they overlap.
                    if row[c] is None or value:
                        row[c] = value

        for o in self.openings:
            paint(o.rect, "")
        for name, rect in self.rects.items():
            paint(rect, name)
        grid = {"xs": xs, "ys": ys, "cells": cells}
        self._cache["grid"] = grid
        return grid

    def _indexed_bands(self) -> list[tuple[str, int, SightBand]]:
        """Every open run (in every row and every column) that crosses two or more spaces."""
        if "bands" in self._cache:
            return self._cache["bands"]
        grid = self._grid()
        xs, ys, cells = grid["xs"], grid["ys"], grid["cells"]
        out: list[tuple[str, int, SightBand]] = []

        def scan(orient: Literal["h", "v"], index: int, line: Sequence[str | None],
                 along: Sequence[float], lo: float, hi: float) -> None:
            start = None
            names: set[str] = set()
            for i, cell in enumerate([*line, None]):
                if cell is None:
                    if start is not None and len(names) > 1:
                        out.append((orient, index, SightBand(
                            orient, lo, hi, along[start], along[i], frozenset(names))))
                    start, names = None, set()
                else:
                    if start is None:
                        start = i
                    if cell:
                        names.add(cell)

        for r, row in enumerate(cells):
            scan("h", r, row, xs, ys[r], ys[r + 1])
        for c in range(len(xs) - 1):
            scan("v", c, [row[c] for row in cells], ys, xs[c], xs[c + 1])
        self._cache["bands"] = out
        return out

    def _bands(self) -> list[SightBand]:
        return [b for _, _, b in self._indexed_bands()]


# -- building boards ---------------------------------------------------------------------


def board_from_geometry(
    geometry: Geometry,
    attrs: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    name: str = "board",
    key: str = "board",
    status: str = "reconstruction",
    source: str = "",
    notes: str = "",
    path: Sequence[str] | None = None,
    start: Mapping[str, object] | None = None,
) -> Board:
    """A :class:`~luckylab.boards.Board` whose adjacency and sight are derived from ``geometry``.

    Parameters
    ----------
    geometry
        The drawing.
    attrs
        Per space, extra node attributes: ``number``, ``kind`` (default ``"room"``), ``deck``,
        ``facts``, ``fallback`` (where Doctor Lucky goes next from an unnumbered space).
        ``pos`` is always the centre of the space's rectangle.
    name, key, status, source, notes, path, start
        Passed on to :class:`~luckylab.boards.board.Board`. ``path`` entries that are not spaces of
        ``geometry`` are dropped (so a smaller board keeps the rest of its path in order).
    """
    attrs = attrs or {}
    graph = nx.Graph()
    for s, rect in geometry.rects.items():
        a = dict(attrs.get(s, {}))
        a.setdefault("number", None)
        a.setdefault("kind", "room")
        a.setdefault("airplane", False)
        a["pos"] = rect.center
        graph.add_node(s, **a)
    for door in geometry.doors:
        a, b = door.between
        if graph.has_edge(a, b):
            graph.edges[a, b]["doors"] += 1
        else:
            graph.add_edge(a, b, kind="door", doors=1)
    kept_path = None if path is None else tuple(s for s in path if s in geometry.rects)
    return Board(
        graph=graph,
        visible=geometry.sight(),
        name=name,
        key=key,
        status=status,
        source=source,
        notes=notes,
        path=kept_path,
        start=dict(start or {}),
        geometry=geometry,
    )


def board_without(board: Board, spaces: Iterable[str], *, name: str | None = None) -> Board:
    """``board`` with ``spaces`` gone (say, a sunken deck): the geometry loses them and their
    openings, adjacency and sight are derived again, every other attribute is kept.

    >>> from luckylab import load_board
    >>> mansion = load_board("kill-doctor-lucky")
    >>> smaller = board_without(mansion, ["Foyer"])
    >>> "Foyer" in smaller, smaller.sees("Drawing Room", "Piazza")
    (False, False)
    """
    geometry = board.geometry
    if not isinstance(geometry, Geometry):
        raise OptionError(f"{board.name} is not a geometry board")
    for s in spaces:
        board.check(s)
    smaller = geometry.without(spaces)
    attrs = {s: dict(board.graph.nodes[s]) for s in smaller.rects}
    for a in attrs.values():
        if a.get("fallback") is not None and a["fallback"] not in smaller.rects:
            del a["fallback"]  # its target is gone: the highest-numbered-neighbour rule decides
    return board_from_geometry(
        smaller, attrs, name=name or board.name, key=board.key, status=board.status,
        source=board.source, notes=board.notes, path=board.path, start=board.start,
    )


# -- the "geometry" file format ----------------------------------------------------------

MAX_GEOMETRY_SPACES = 2_000  # overlap checks compare every pair of rectangles

_TOP_FIELDS = {
    "format", "game", "name", "status", "source", "source_sha256", "method", "units", "page",
    "coordinates", "notes", "kinds", "path", "fallback", "start", "spaces", "doors",
    "see_through",
}
_SPACE_FIELDS = {"name", "number", "kind", "rect", "deck", "facts"}
_OPENING_FIELDS = {"between", "rect", "note"}


def board_from_data(data: Mapping[str, Any], source: str = "<data>", key: str = "board") -> Board:
    """Validate a geometry-format board (see the module docstring) and build its Board.

    Raises
    ------
    BoardError
        Naming ``source`` and the field: unknown fields, malformed rects, duplicate names or
        numbers, overlapping spaces, openings naming unknown spaces or not touching both of
        their spaces, path/fallback/start entries that are not spaces, a disconnected board.
    """

    def err(where: str, problem: str) -> None:
        raise BoardError(source, where, problem)

    if data.get("format") != "geometry":
        err("format", f"must be \"geometry\", not {data.get('format')!r}")
    extra = set(data) - _TOP_FIELDS
    if extra:
        err("(top level)", f"unknown field(s) {sorted(extra)}; allowed: {sorted(_TOP_FIELDS)}")
    for f in ("name", "status", "source", "units", "notes", "method", "game", "coordinates"):
        if f in data and not isinstance(data[f], str):
            err(f, "must be a string")
    hashes = data.get("source_sha256", {})
    if not isinstance(hashes, dict) or not all(isinstance(v, str) for v in hashes.values()):
        err("source_sha256", "must be a table of file name = \"hex digest\"")
    kinds = data.get("kinds")
    if kinds is not None and not (
        isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds)
    ):
        err("kinds", "must be a non-empty list of kind names")
    page = data.get("page")
    if page is not None:
        if not (isinstance(page, list) and len(page) == 2 and all(_is_number(v) and v > 0
                                                                  for v in page)):
            err("page", f"must be [width, height] positive numbers, not {page!r}")
        page = (page[0], page[1])

    raw_spaces = data.get("spaces")
    if not isinstance(raw_spaces, list) or not raw_spaces:
        err("spaces", "must be a non-empty list of [[spaces]] tables")
    if len(raw_spaces) > MAX_GEOMETRY_SPACES:
        err("spaces", f"{len(raw_spaces)} spaces; a geometry board holds at most "
                      f"{MAX_GEOMETRY_SPACES}")
    rects: dict[str, Rect] = {}
    attrs: dict[str, dict[str, Any]] = {}
    numbers: dict[int, str] = {}
    for i, sp in enumerate(raw_spaces):
        where = f"spaces[{i}]"
        if not isinstance(sp, dict):
            err(where, "must be a table")
        name = sp.get("name")
        if not isinstance(name, str) or not name.strip():
            err(f"{where}.name", "must be a non-empty string")
        where = f"spaces[{i}] ({name})"
        unknown = set(sp) - _SPACE_FIELDS
        if unknown:
            err(where, f"unknown field(s) {sorted(unknown)}; allowed: {sorted(_SPACE_FIELDS)}")
        if name in rects:
            err(f"{where}.name", f"duplicate space name {name!r}")
        kind = sp.get("kind")
        if not isinstance(kind, str) or not kind:
            err(f"{where}.kind", f"must be a kind name, not {kind!r}")
        if kinds is not None and kind not in kinds:
            err(f"{where}.kind", f"unknown kind {kind!r}; allowed: {', '.join(kinds)}")
        number = sp.get("number")
        check_space_number(err, where, name, number, numbers)
        rect = _rect(sp.get("rect"), f"{where}.rect", err)
        for other, other_rect in rects.items():
            if rect.overlaps(other_rect):
                err(f"{where}.rect", f"overlaps the space {other!r} {list(other_rect)}")
        rects[name] = rect
        a: dict[str, Any] = {"number": number, "kind": kind}
        for f in ("deck", "facts"):
            if sp.get(f) is not None:
                if not isinstance(sp[f], str):
                    err(f"{where}.{f}", "must be a string")
                a[f] = sp[f]
        attrs[name] = a

    openings: dict[str, list[Opening]] = {"doors": [], "see_through": []}
    for table, kind in (("doors", "door"), ("see_through", "see_through")):
        raw = data.get(table, [])
        if not isinstance(raw, list):
            err(table, f"must be a list of [[{table}]] tables")
        for i, o in enumerate(raw):
            where = f"{table}[{i}]"
            if not isinstance(o, dict):
                err(where, "must be a table")
            unknown = set(o) - _OPENING_FIELDS
            if unknown:
                err(where, f"unknown field(s) {sorted(unknown)}; allowed: "
                           f"{sorted(_OPENING_FIELDS)}")
            between = o.get("between")
            if not (isinstance(between, list) and len(between) == 2
                    and all(isinstance(s, str) for s in between)):
                err(f"{where}.between", f"must be a list of two space names, not {between!r}")
            for s in between:
                if s not in rects:
                    err(f"{where}.between", f"{s!r} is not a space")
            if between[0] == between[1]:
                err(f"{where}.between", f"joins {between[0]!r} to itself")
            rect = _rect(o.get("rect"), f"{where}.rect", err)
            for s in between:
                if not rect.touches(rects[s]):
                    err(f"{where}.rect", f"{list(rect)} does not touch {s!r} {list(rects[s])}")
            for s, r in rects.items():
                if s not in between and rect.overlaps(r):
                    err(f"{where}.rect", f"overlaps {s!r}, which it does not join")
            note = o.get("note", "")
            if not isinstance(note, str):
                err(f"{where}.note", "must be a string")
            openings[table].append(Opening((between[0], between[1]), rect, kind, note))

    geometry = Geometry(rects, tuple(openings["doors"]), tuple(openings["see_through"]),
                        units=str(data.get("units", "")), page=page)
    adjacency = geometry.adjacency()
    graph = nx.Graph()
    graph.add_nodes_from(rects)
    graph.add_edges_from((s, t) for s, ns in adjacency.items() for t in ns)
    if nx.number_connected_components(graph) != 1:
        parts = [sorted(c) for c in nx.connected_components(graph)]
        err("doors", f"the board falls apart into {len(parts)} pieces: {parts}")

    path = data.get("path")
    if path is not None:
        if not isinstance(path, list) or not path:
            err("path", "must be a non-empty list of space names")
        for i, s in enumerate(path):
            if not isinstance(s, str) or s not in rects:
                err(f"path[{i}]", f"{s!r} is not a space")
        if len(set(path)) != len(path):
            err("path", "lists a space twice")

    fallback = data.get("fallback", {})
    if not isinstance(fallback, dict):
        err("fallback", "must be a table: unnumbered space = \"next space\"")
    for s, target in fallback.items():
        if s not in rects:
            err(f"fallback.{s}", f"{s!r} is not a space")
        if not isinstance(target, str) or target not in rects:
            err(f"fallback.{s}", f"{target!r} is not a space")
        if attrs[s]["number"] is not None:
            err(f"fallback.{s}", f"{s!r} is numbered; Doctor Lucky leaves it by number")
        if attrs[target]["number"] is None:
            err(f"fallback.{s}", f"{target!r} has no number")
        if target not in adjacency[s]:
            err(f"fallback.{s}", f"{target!r} is not adjacent to {s!r} (no door joins them)")
        attrs[s]["fallback"] = target

    start = validate_start(data, rects, source)
    return board_from_geometry(geometry, attrs, path=path, start=start,
                               **board_labels(data, source, key))


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _rect(value: object, where: str, err) -> Rect:
    if not (isinstance(value, list) and len(value) == 4 and all(_is_number(v) for v in value)):
        err(where, f"must be [x0, y0, x1, y1] numbers, not {value!r}")
    x0, y0, x1, y1 = value
    if not (x0 < x1 and y0 < y1):
        err(where, f"needs x0 < x1 and y0 < y1 (y runs downwards), not {value!r}")
    return Rect(x0, y0, x1, y1)
