"""The Board: a networkx graph of spaces plus precomputed sight and reach tables.

A board knows geography only: which spaces exist, which touch, who can see whom (with or
without the cat in the way) and how far apart two spaces are. It knows no game rules; the
rules modules in :mod:`luckylab.games` ask it questions.

Sight and reach never change during a game except by the cat (and, in Save Doctor Lucky, by a
deck sinking, which makes a new, smaller board), so every table is built once in the
constructor and every query is a dictionary lookup.

>>> from luckylab import load_board
>>> board = load_board("isla-fortuna")
>>> sorted(board.visible_from("Frog Pond"))
['Cliffs of Social Anxiety', 'Frog Pond', 'Sugar Farm', 'Sunset Beach']
>>> board.sees("Frog Pond", "Sunset Beach", cat="Frog Pond")
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import networkx as nx

from ..errors import OptionError, UnknownSpace

__all__ = ["Board", "CatBlocks", "Space"]

CatBlocks = Literal["both", "outward"]
"""How the cat blocks sight (``I-SIGHT-2``).

``"both"`` (the default ruling): nobody in the cat's space sees out and nobody outside sees in.
``"outward"``: only the pawns in the cat's space are blinded; others still see into it.
"""

_CAT_MODES: tuple[CatBlocks, ...] = ("both", "outward")


@dataclass(frozen=True, slots=True)
class Space:
    """One space of a board, as stored in its data file."""

    name: str
    number: int | None
    kind: str
    pos: tuple[float, float]
    airplane: bool = False
    deck: str | None = None
    facts: str = ""


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board: graph, spaces, sight and reach.

    Parameters
    ----------
    graph
        A ``networkx.Graph`` whose nodes are space names with the attributes ``number``,
        ``kind``, ``pos`` and ``airplane`` (``deck`` and ``facts`` are optional), and whose
        edges carry ``kind``: ``"land"`` or ``"door"`` (a step that also gives sight on
        adjacency boards) or ``"air"`` (a step only, ``I-BOARD-3``).
    visible
        The sight relation with no cat: for each space, the spaces seen from it. It must be
        symmetric; each space always sees itself. ``None`` means "the space itself and its
        land neighbours" (adjacency sight, ``I-SIGHT-1``).
    name, key
        A display name ("Isla Fortuna") and the registry key ("isla-fortuna").
    status
        ``"published"`` for real game data, ``"reconstruction"`` where the real map is unknown.
    path
        Doctor Lucky's path in order. ``None`` means the numbered spaces by number.
    start
        Named start spaces from the data file (for example ``{"players": "Castelo Feliz"}``).
    """

    graph: nx.Graph
    visible: Mapping[str, Iterable[str]] | None = None
    name: str = "board"
    key: str = "board"
    status: str = "reconstruction"
    source: str = ""
    notes: str = ""
    path: Sequence[str] | None = None
    start: Mapping[str, object] = field(default_factory=dict)
    geometry: object | None = None

    def __post_init__(self) -> None:
        graph = self.graph
        spaces = tuple(_ordered_spaces(graph))
        object.__setattr__(self, "spaces", spaces)
        object.__setattr__(self, "index", {s: i for i, s in enumerate(spaces)})
        infos = {}
        for s in spaces:
            attrs = graph.nodes[s]
            pos = attrs.get("pos", (0.0, 0.0))
            infos[s] = Space(
                name=s,
                number=attrs.get("number"),
                kind=attrs.get("kind", "space"),
                pos=(float(pos[0]), float(pos[1])),
                airplane=bool(attrs.get("airplane", False)),
                deck=attrs.get("deck"),
                facts=attrs.get("facts", ""),
            )
        object.__setattr__(self, "_info", infos)
        if self.path is None:
            numbered = sorted((i.number, s) for s, i in infos.items() if i.number is not None)
            object.__setattr__(self, "path", tuple(s for _, s in numbered))
        else:
            object.__setattr__(self, "path", tuple(self.path))
        object.__setattr__(self, "_next_on_path", _cycle_successors(self.path))

        base = _base_sight(graph, self.visible)
        object.__setattr__(self, "_base_sight", base)
        object.__setattr__(self, "_sight", _sight_tables(spaces, base))
        # Distance, order-by-distance and reach tables are filled per space on first use, so a
        # board costs time and memory for what is asked, not the cube of its size.
        order = self.index

        def distances(s: str) -> dict[str, int]:
            if s not in order:
                raise KeyError(s)
            return nx.single_source_shortest_path_length(graph, s)

        dist = _Lazy(distances)
        object.__setattr__(self, "_dist", dist)
        object.__setattr__(self, "_reach", _Lazy(lambda s: [] if s in order else _missing(s)))
        object.__setattr__(self, "_reach_full", {})
        object.__setattr__(self, "_by_distance", _Lazy(
            lambda s: tuple(sorted(dist[s].items(), key=lambda kv: (kv[1], order[kv[0]])))))
        # The networkx graph is shared with callers for reading; freeze it so nobody can
        # quietly change the board under the precomputed tables.
        object.__setattr__(self, "graph", nx.freeze(graph))

    # -- spaces ------------------------------------------------------------------------
    spaces: tuple[str, ...] = field(init=False, repr=False, compare=False)
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __contains__(self, space: object) -> bool:
        return space in self._info

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return f"<Board {self.name!r}: {len(self.spaces)} spaces, {self.status}>"

    def check(self, space: str) -> str:
        """Return ``space`` if the board has it, else raise :class:`UnknownSpace`."""
        if space not in self._info:
            raise UnknownSpace(space, self.name, list(self.spaces))
        return space

    def space(self, name: str) -> Space:
        """The :class:`Space` record of ``name``."""
        return self._info[self.check(name)]

    def number(self, name: str) -> int | None:
        """The number of a space on Doctor Lucky's path (``None`` if unnumbered)."""
        try:
            return self._info[name].number
        except KeyError:
            self.check(name)
            raise

    def kind(self, name: str) -> str:
        """The kind of a space (``"beach"``, ``"room"``, ...)."""
        try:
            return self._info[name].kind
        except KeyError:
            self.check(name)
            raise

    def by_number(self, number: int) -> str:
        """The space with this number."""
        for s, info in self._info.items():
            if info.number == number:
                return s
        raise UnknownSpace(number, self.name)

    def spaces_of_kind(self, kind: str) -> tuple[str, ...]:
        """All spaces of one kind, in board order."""
        return tuple(s for s in self.spaces if self._info[s].kind == kind)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds that occur on this board, in first-seen order."""
        return tuple(dict.fromkeys(i.kind for i in self._info.values()))

    @property
    def airplanes(self) -> tuple[str, ...]:
        """The spaces with an airplane (``I-BOARD-3``)."""
        return tuple(s for s in self.spaces if self._info[s].airplane)

    def neighbors(self, space: str, kind: str | None = None) -> frozenset[str]:
        """Spaces one step away; ``kind`` restricts to one edge kind ("land", "air", "door")."""
        self.check(space)
        g = self.graph
        return frozenset(
            n for n in g[space] if kind is None or g.edges[space, n].get("kind") == kind
        )

    def next_on_path(self, space: str) -> str:
        """Doctor Lucky's next stop after ``space`` on his path (``I-BOARD-6``)."""
        try:
            return self._next_on_path[space]
        except KeyError:
            self.check(space)
            raise OptionError(f"{space!r} is not on Doctor Lucky's path of {self.name}") from None

    # -- sight -------------------------------------------------------------------------
    def visible_from(
        self, space: str, cat: str | None = None, cat_blocks: CatBlocks = "both"
    ) -> frozenset[str]:
        """The spaces that a pawn on ``space`` sees, the cat being on ``cat``.

        A pawn always sees its own space. With the cat on its space it sees nothing else; with
        ``cat_blocks="both"`` nobody outside sees into the cat's space either (``I-SIGHT-2``).
        """
        try:
            return self._sight[cat_blocks][cat][space]
        except KeyError:
            self._check_sight_args(space, cat, cat_blocks)
            raise

    def sees(
        self, a: str, b: str, cat: str | None = None, cat_blocks: CatBlocks = "both"
    ) -> bool:
        """Whether a pawn on ``a`` sees a pawn on ``b`` (the cat being on ``cat``)."""
        try:
            seen = self._sight[cat_blocks][cat][a]
        except KeyError:
            self._check_sight_args(a, cat, cat_blocks)
            raise
        if b in seen:
            return True
        if b not in self._info:
            self.check(b)
        return False

    def seen_by(
        self, space: str, cat: str | None = None, cat_blocks: CatBlocks = "both"
    ) -> frozenset[str]:
        """The spaces from which a pawn on ``space`` is seen (equal to :meth:`visible_from`
        when sight is symmetric, which it is except with ``cat_blocks="outward"``)."""
        try:
            table = self._sight[cat_blocks][cat]
        except KeyError:
            self._check_sight_args(space, cat, cat_blocks)
            raise
        self.check(space)
        return frozenset(s for s in self.spaces if space in table[s])

    def _check_sight_args(self, space: str, cat: str | None, cat_blocks: str) -> None:
        if cat_blocks not in _CAT_MODES:
            raise OptionError(f"cat_blocks must be one of {_CAT_MODES}, not {cat_blocks!r}")
        if cat is not None:
            self.check(cat)
        self.check(space)

    def sight_table(self, cat: str | None = None) -> dict[str, list[str]]:
        """The whole sight relation as plain data (space -> sorted list of spaces seen)."""
        if cat is not None:
            self.check(cat)
        return {s: sorted(self._sight["both"][cat][s]) for s in self.spaces}

    # -- movement ----------------------------------------------------------------------
    def distance(self, a: str, b: str) -> int:
        """The fewest steps (land, door and air) from ``a`` to ``b``."""
        try:
            return self._dist[a][b]
        except KeyError:
            self.check(a)
            self.check(b)
            raise OptionError(f"no route from {a!r} to {b!r} on {self.name}") from None

    def reachable(self, space: str, steps: int) -> frozenset[str]:
        """The spaces at most ``steps`` steps from ``space`` (``I-MOVE-1``), itself included."""
        try:
            table = self._reach[space]
        except KeyError:
            self.check(space)
            raise
        if steps < len(table) and steps >= 0:
            return table[steps]
        full = self._reach_full.get(space)
        if full is not None and steps >= 0:
            return full
        if steps < 0:
            raise OptionError(f"steps must be >= 0, not {steps}")
        # grow this space's table ring by ring up to ``steps`` (or until it holds every space
        # it can reach): the cost is the size of what is reached, never the whole board's
        adj = self.graph.adj
        if not table:
            table.append(frozenset([space]))
        while len(table) <= steps:
            last = table[-1]
            frontier = last - table[-2] if len(table) > 1 else last
            new = {n for f in frontier for n in adj[f]} - last
            if not new:
                self._reach_full[space] = last  # every space it can reach
                break
            table.append(last | new)
        return table[min(steps, len(table) - 1)]

    def by_distance(self, space: str) -> tuple[tuple[str, int], ...]:
        """Every space with its distance from ``space``, nearest first (ties in board order)."""
        try:
            return self._by_distance[space]
        except KeyError:
            self.check(space)
            raise

    @property
    def diameter(self) -> int:
        """The largest distance between two spaces (``I-BOARD-4``: at most 4 on the island)."""
        return max(max(self._dist[s].values()) for s in self.spaces)

    # -- plain data --------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """Spaces, edges and the sight table as JSON-ready data (``python -m luckylab board``)."""
        return {
            "name": self.name,
            "key": self.key,
            "status": self.status,
            "source": self.source,
            "spaces": [
                {
                    "name": i.name,
                    "number": i.number,
                    "kind": i.kind,
                    "pos": list(i.pos),
                    "airplane": i.airplane,
                    **({"deck": i.deck} if i.deck else {}),
                }
                for i in (self._info[s] for s in self.spaces)
            ],
            "edges": [
                {"a": a, "b": b, "kind": k}
                for a, b, k in sorted(self.graph.edges(data="kind"), key=lambda e: (e[0], e[1]))
            ],
            "path": list(self.path),
            "sight": self.sight_table(),
        }


def _ordered_spaces(graph: nx.Graph) -> list[str]:
    """Numbered spaces by number, then the unnumbered ones in the order the graph has them."""
    nodes = list(graph.nodes)
    numbered = sorted(
        (n for n in nodes if graph.nodes[n].get("number") is not None),
        key=lambda n: graph.nodes[n]["number"],
    )
    rest = [n for n in nodes if graph.nodes[n].get("number") is None]
    return numbered + rest


class _Lazy(dict):  # type: ignore[type-arg]
    """A dict that fills a missing key with ``make(key)`` (which raises KeyError if unknown)."""

    __slots__ = ("_make",)

    def __init__(self, make: object) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: object) -> object:
        value = self[key] = self._make(key)  # type: ignore[operator]
        return value


def _missing(key: object) -> object:
    raise KeyError(key)


def _cycle_successors(path: Sequence[str]) -> dict[str, str]:
    return {s: path[(i + 1) % len(path)] for i, s in enumerate(path)} if path else {}


def _base_sight(
    graph: nx.Graph, visible: Mapping[str, Iterable[str]] | None
) -> dict[str, frozenset[str]]:
    if visible is None:
        base = {
            s: frozenset(
                [s, *(n for n in graph[s] if graph.edges[s, n].get("kind", "land") != "air")]
            )
            for s in graph.nodes
        }
    else:
        base = {s: frozenset([s, *visible.get(s, ())]) for s in graph.nodes}
        unknown = {t for seen in base.values() for t in seen} - set(graph.nodes)
        if unknown:
            raise OptionError(f"sight table names spaces the graph lacks: {sorted(unknown)}")
    for s, seen in base.items():
        for t in seen:
            if s not in base[t]:
                raise OptionError(f"sight must be symmetric: {s!r} sees {t!r} but not back")
    return base


def _sight_tables(
    spaces: Sequence[str], base: Mapping[str, frozenset[str]]
) -> dict[str, dict[str | None, dict[str, frozenset[str]]]]:
    """``tables[mode][cat][space]``: the spaces seen from ``space`` with the cat on ``cat``."""
    tables: dict[str, dict[str | None, dict[str, frozenset[str]]]] = {}
    for mode in _CAT_MODES:

        def row(cat: str | None, mode: str = mode) -> dict[str, frozenset[str]]:
            # one row per cat space, made when the cat first stands there
            if cat not in base:
                raise KeyError(cat)
            alone = frozenset([cat])
            if mode == "both":  # ... and nobody sees into her space
                out = {s: (seen - alone if cat in seen else seen) for s, seen in base.items()}
            else:
                out = dict(base)
            out[cat] = alone  # I-SIGHT-2: pawns with the cat see only each other
            return out

        by_cat = _Lazy(row)
        by_cat[None] = dict(base)
        tables[mode] = by_cat
    return tables
