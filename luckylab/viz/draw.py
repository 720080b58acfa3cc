"""Drawing boards and sight with matplotlib: the island as a map, who sees whom as a matrix.

This module owns pictures only. It knows no rules: it places the spaces where the board file
puts them, the pawns where a game (or a plain dict) says they stand, and asks the
:class:`~luckylab.boards.board.Board` which spaces a pawn sees. Widgets
(:mod:`luckylab.viz.sight_explorer`, :mod:`luckylab.viz.turn_stepper`) draw the map once with
:func:`draw_board` and then call :meth:`BoardDrawing.update`, which only moves existing artists
(fast enough for a step redraw).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from luckylab import load_board
>>> from luckylab.viz.draw import draw_board
>>> board = load_board("isla-fortuna")
>>> drawing = draw_board(board, {"pawns": {"Ann": "Frog Pond"}, "doctor": "Sunset Beach",
...                              "cat": "Observatory"}, sight_of="Ann")
>>> sorted(drawing.seen_spaces)
['Cliffs of Social Anxiety', 'Frog Pond', 'Sugar Farm', 'Sunset Beach']
>>> drawing.sees
('Doctor Lucky',)
>>> drawing
<BoardDrawing of 'Isla Fortuna': 1 pawn, Doctor Lucky, the cat, sight of Ann>
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.collections import Collection, LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.text import Text

from ..boards.board import Board, CatBlocks
from ..errors import OptionError
from ..games.protocol import GameState, SeatView
from .blit import Painter

__all__ = [
    "DOCTOR",
    "KIND_COLORS",
    "PLAYER_COLORS",
    "BoardDrawing",
    "Scene",
    "draw_board",
    "draw_sight_matrix",
    "kind_color",
    "new_figure",
    "scene_of",
    "sight_matrix",
]

DOCTOR = "Doctor Lucky"
"""The label of Doctor Lucky's pawn in scenes, sight reports and legends."""

PLAYER_COLORS: tuple[str, ...] = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#7F3C8D",  # dark purple (Doctor Lucky has black, so not Okabe-Ito's black)
)
"""Player pawn colours: the Okabe-Ito palette, readable with the common colour blindnesses.
Pawns also differ by shape (players circles, Strangers squares, Doctor Lucky a star, the cat
a triangle), so colour is never the only cue."""

STRANGER_COLOR = "#8C8C8C"
DOCTOR_COLOR = "#FFFFFF"
CAT_COLOR = "#3B2F2F"
SIGHT_COLOR = "#D55E00"

KIND_COLORS: dict[str, str] = {
    "building": "#D8B48A",
    "plains": "#E6E59A",
    "beach": "#F7E7C1",
    "forest": "#8FC58A",
    "mountain": "#B3AAA3",
    "room": "#E3D7C3",
    "hallway": "#CFCFCF",
    "deck": "#C9DCEB",
    "water": "#9EC9E2",
}
"""Soft fill colours for space kinds (pawns stay the loudest thing on the map)."""

_FALLBACK_KIND_COLORS = ("#C7B9E2", "#F2C1B6", "#BFE3DA", "#E8D3A9", "#D5D5F0")


def kind_color(kind: str) -> str:
    """The fill colour of a space kind (a stable fallback for kinds without one)."""
    if kind in KIND_COLORS:
        return KIND_COLORS[kind]
    return _FALLBACK_KIND_COLORS[sum(map(ord, kind)) % len(_FALLBACK_KIND_COLORS)]


@dataclass(frozen=True)
class Scene:
    """Who stands where, as plain data: what :func:`draw_board` shows on top of the map.

    ``pawns`` maps a label (a player's or Stranger's name) to a space; ``strangers`` names the
    labels that are Strangers; ``colors`` optionally fixes a pawn's colour (otherwise players get
    :data:`PLAYER_COLORS` in order). ``doctor`` and ``cat`` are spaces or ``None``.
    """

    pawns: Mapping[str, str] = field(default_factory=dict)
    doctor: str | None = None
    cat: str | None = None
    strangers: frozenset[str] = frozenset()
    colors: Mapping[str, str] = field(default_factory=dict)
    cat_blocks: CatBlocks = "both"

    def color(self, label: str) -> str:
        if label in self.colors:
            return self.colors[label]
        if label in self.strangers:
            return STRANGER_COLOR
        players = [p for p in self.pawns if p not in self.strangers]
        return PLAYER_COLORS[players.index(label) % len(PLAYER_COLORS)]


def scene_of(state: Any) -> Scene:
    """Turn what a caller has into a :class:`Scene`.

    ``state`` may be ``None`` (an empty map), a :class:`Scene`, a mapping with the keys
    ``pawns``, ``doctor``, ``cat`` (and optionally ``strangers``, ``colors``, ``cat_blocks``),
    a game's view with a ``scene()`` (the Island's and Kill's), or a game, read through its
    open-table view (``game.view().scene()``). Players of a game keep their seat colour for the
    whole game: the ``k``-th player (Strangers aside) gets ``PLAYER_COLORS[k]`` whatever moves.

    >>> from luckylab import new_game
    >>> scene = scene_of(new_game("kill", players=3, seed=1))
    >>> sorted(scene.pawns.values()) == ["Drawing Room"] * 3 and scene.cat is None
    True
    """
    if state is None:
        return Scene()
    if isinstance(state, Scene):
        return state
    if isinstance(state, GameState):
        state = state.view()
    if isinstance(state, SeatView):
        state = state.scene()  # type: ignore[attr-defined]
    if isinstance(state, Mapping):
        return Scene(
            pawns=dict(state.get("pawns", {})),
            doctor=state.get("doctor"),
            cat=state.get("cat"),
            strangers=frozenset(state.get("strangers", ())),
            colors=dict(state.get("colors", {})),
            cat_blocks=state.get("cat_blocks", "both"),
        )
    raise OptionError(
        "state must be None, a Scene, a dict with 'pawns'/'doctor'/'cat', a game, or a "
        f"game's view; got {type(state).__name__}"
    )


def new_figure(width: float = 10.0, height: float = 5.0, dpi: int = 80) -> Figure:
    """A figure that pyplot does not manage: widgets own it and show it in an ``Output``.

    Figures from ``plt.subplots`` would be shown a second time by the inline backend at the end
    of the cell and would pile up in pyplot's registry; a bare :class:`Figure` does neither.
    """
    return Figure(figsize=(width, height), dpi=dpi, layout="constrained")


# -- the map --------------------------------------------------------------------------------
_NODE_SIZE = 900.0  # points^2 of a space's disc
_RING = 0.28  # in units of the board's spacing: pawns sit on the rim, clear of the number
_CAT_OFFSET = (-0.2, 0.2)


@dataclass(eq=False, repr=False)
class BoardDrawing:
    """The matplotlib objects of one board picture, and the way to move its pawns.

    Attributes are the artists, so tests and students can look at them: ``spaces`` (one
    ``PathCollection``, a disc per space in ``board.spaces`` order), ``land`` and ``air`` (the
    edges), ``path_arrows``, ``pawns`` (label -> ``Line2D`` marker), ``doctor``, ``cat``,
    ``sight_lines`` (a ``LineCollection``), ``labels`` (space -> ``Text``), ``legend``.
    After :meth:`update`, ``seen_spaces`` holds the spaces the ``sight_of`` pawn sees and
    ``sees`` the pawns it sees.
    """

    board: Board
    fig: Figure
    ax: Axes
    spaces: Collection
    land: LineCollection
    air: list[FancyArrowPatch]
    path_arrows: list[FancyArrowPatch]
    labels: dict[str, Text]
    pawn_layer: dict[str, Line2D] = field(default_factory=dict)
    pawn_tags: dict[str, Text] = field(default_factory=dict)
    doctor: Line2D | None = None
    cat: Line2D | None = None
    sight_lines: LineCollection | None = None
    title: Text | None = None
    legend: Any = None
    pawn_legend: Any = None
    scene: Scene = field(default_factory=Scene)
    sight_of: str | None = None
    seen_spaces: frozenset[str] = frozenset()
    sees: tuple[str, ...] = ()
    rings: Collection | None = None
    unit: float = 1.0
    ringed: frozenset[str] = frozenset()
    _painter: Painter = field(default_factory=Painter, repr=False, compare=False)

    def __repr__(self) -> str:
        sight = f", sight of {self.sight_of}" if self.sight_of else ""
        n = len(self.pawn_layer)
        return (f"<BoardDrawing of {self.board.name!r}: {n} pawn{'' if n == 1 else 's'}"
                f"{', Doctor Lucky' if self.scene.doctor else ''}"
                f"{', the cat' if self.scene.cat else ''}{sight}>")

    @property
    def pawns(self) -> dict[str, Line2D]:
        """Label -> the marker of each player or Stranger pawn currently drawn."""
        return self.pawn_layer

    def pawn_xy(self, label: str) -> tuple[float, float]:
        """Where the marker of ``label`` (a pawn, ``"Doctor Lucky"`` or ``"cat"``) is drawn."""
        artist = {DOCTOR: self.doctor, "cat": self.cat}.get(label) or self.pawn_layer[label]
        xs, ys = artist.get_data()
        return float(xs[0]), float(ys[0])

    # -- fast pictures for widgets -----------------------------------------------------------
    def _moving_artists(self) -> list[Any]:
        return [self.rings, self.sight_lines, *self.pawn_layer.values(),
                *self.pawn_tags.values(), self.doctor, self.cat, self.title]

    def render_png(self) -> bytes:
        """The figure as PNG bytes, painting only what moves.

        The first call paints the whole figure without the moving artists (pawns, Doctor
        Lucky, the cat, sight lines, rings, title) and keeps that picture; later calls paste it
        and paint the moving artists on top. The layout is frozen after the first call so the
        kept picture stays valid; a new set of pawns in the legend repaints it. The figure
        must have no other axes that change between calls (widgets give the map its own
        figure).
        """
        key = (*(f"{p}={self.scene.color(p)}" for p in self.scene.pawns),
               f"cat={self.scene.cat is not None}")
        moving = [a for a in self._moving_artists() if a is not None]
        return self._painter.png(self.fig, moving, key=key)

    # -- moving things ---------------------------------------------------------------------
    def update(
        self,
        state: Any = None,
        *,
        sight_of: str | None = None,
        highlight: Iterable[str] = (),
        title: str | None = None,
    ) -> BoardDrawing:
        """Move pawns, Doctor Lucky and the cat to ``state``; redraw sight of ``sight_of``.

        Only existing artists change (positions, colours, visibility); new pawns get a marker
        the first time they appear. ``highlight`` rings extra spaces (for example the spaces a
        widget wants to point at). Returns ``self``.
        """
        scene = scene_of(state)
        board = self.board
        for space in _scene_spaces(scene):
            board.check(space)
        if sight_of is not None and sight_of not in scene.pawns and sight_of != DOCTOR:
            raise OptionError(f"sight_of={sight_of!r} is not a pawn here: {sorted(scene.pawns)}")
        self.scene = scene
        spots = _pawn_spots(board, scene, self.unit)

        for label in list(self.pawn_layer):
            if label not in scene.pawns:
                self.pawn_layer.pop(label).remove()
                self.pawn_tags.pop(label).remove()
        for label in scene.pawns:
            x, y = spots[label]
            marker = self.pawn_layer.get(label)
            if marker is None:
                stranger = label in scene.strangers
                (marker,) = self.ax.plot(
                    [x], [y], linestyle="none", marker="s" if stranger else "o",
                    markersize=13 if stranger else 15, markeredgecolor="black",
                    markeredgewidth=1.2, zorder=6, label=label,
                )
                tag = self.ax.text(x, y, _initials(label, stranger), ha="center",
                                   va="center", fontsize=7, fontweight="bold", zorder=7)
                self.pawn_layer[label] = marker
                self.pawn_tags[label] = tag
            color = scene.color(label)
            marker.set_data([x], [y])
            marker.set_markerfacecolor(color)
            tag = self.pawn_tags[label]
            tag.set_position((x, y))
            tag.set_color(_ink_on(color))
        _place(self.doctor, spots.get(DOCTOR))
        _place(self.cat, spots.get("cat"))

        seen_spaces: frozenset[str] = frozenset()
        sees: tuple[str, ...] = ()
        segments = []
        if sight_of is not None:
            here = scene.doctor if sight_of == DOCTOR else scene.pawns[sight_of]
            if here is not None:
                seen_spaces = board.visible_from(here, scene.cat, scene.cat_blocks)
                others = {**scene.pawns, **({DOCTOR: scene.doctor} if scene.doctor else {})}
                sees = tuple(
                    p for p, s in others.items()
                    if p != sight_of and s in seen_spaces
                    # I-SIGHT-1: sight is symmetric only with the default cat ruling; with
                    # "outward" ask both ways so a line means "they see each other".
                    and board.sees(s, here, scene.cat, scene.cat_blocks)
                )
                x0, y0 = spots[sight_of]
                segments = [[(x0, y0), spots[p]] for p in sees]
        self.sight_of = sight_of
        self.seen_spaces = seen_spaces
        self.sees = sees
        assert self.sight_lines is not None
        self.sight_lines.set_segments(segments)

        ringed = set(seen_spaces) | set(highlight)
        self.ringed = frozenset(ringed)
        self.rings.set_edgecolors([SIGHT_COLOR if s in ringed else "none" for s in board.spaces])
        if title is not None and self.title is not None:
            self.title.set_text(title)
        self._update_pawn_legend(scene)
        return self

    def _update_pawn_legend(self, scene: Scene) -> None:
        labels = list(scene.pawns)
        extras = [DOCTOR] + (["the cat"] if scene.cat is not None else [])
        if self.pawn_legend is not None:
            old = [t.get_text() for t in self.pawn_legend.get_texts()]
            if old == [*labels, *extras] or not labels:
                return
            self.pawn_legend.remove()
            self.pawn_legend = None
        if not labels and scene.doctor is None:
            return
        handles = [self.pawn_layer[p] for p in labels] + [self.doctor, self.cat][:len(extras)]
        self.pawn_legend = self.fig.legend(
            handles, [*labels, *extras], loc="outside right lower",
            fontsize=8, title="pawns", title_fontsize=8, frameon=False,
        )


def draw_board(
    board: Board,
    state: Any = None,
    ax: Axes | None = None,
    *,
    sight_of: str | None = None,
    show_path: bool = False,
    show_names: bool = True,
    highlight: Iterable[str] = (),
    title: str | None = None,
    figsize: tuple[float, float] = (10.0, 5.0),
    sight_legend: bool | None = None,
) -> BoardDrawing:
    """Draw ``board`` as a map, with the pawns of ``state`` on it.

    Parameters
    ----------
    board
        A :class:`~luckylab.boards.Board`; spaces are drawn at their ``pos``, coloured by kind.
    state
        ``None``, a :class:`Scene`, a dict ``{"pawns": {label: space}, "doctor": space,
        "cat": space}`` or a game (see :func:`scene_of`).
    ax
        Axes to draw into. ``None`` makes a new pyplot figure (shown by the inline backend).
    sight_of
        A pawn label (or ``"Doctor Lucky"``): ring the spaces it sees and draw a line to each
        pawn it sees, the cat included in the reckoning (``I-SIGHT-2``).
    show_path
        Draw Doctor Lucky's path as arrows from each space to the next (``I-BOARD-6``).
    show_names, highlight, title, figsize
        Space names under the discs; extra spaces to ring; the title; the figure size.
    sight_legend
        Whether the legend explains the sight lines; ``None`` (the default): only when
        ``sight_of`` draws some (a widget that shows sight later passes ``True``).

    Returns
    -------
    BoardDrawing
        Every artist, and :meth:`BoardDrawing.update` to move the pawns later.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    else:
        fig = ax.figure
    pos = {s: board.space(s).pos for s in board.spaces}
    unit = _unit(pos)
    ax.set_aspect("equal")
    ax.set_axis_off()
    geometry = getattr(board, "geometry", None)
    rects = getattr(geometry, "rects", None)
    kinds = [board.kind(s) for s in board.spaces]
    base_edge = "#333333"
    land_segments, air_pairs = [], []
    for a, b, kind in board.graph.edges(data="kind"):
        if kind == "air":
            air_pairs.append((a, b))
        else:
            land_segments.append([pos[a], pos[b]])
    air = []
    if rects:
        # A straight-line-sight board (Kill / Save Doctor Lucky): its rooms are rectangles and
        # its doors the openings; y runs downwards in those files.
        spaces = PatchCollection(
            [Rectangle((r.x0, r.y0), r.width, r.height) for r in
             (rects[s] for s in board.spaces)],
            facecolors=[kind_color(k) for k in kinds], edgecolors=base_edge, linewidths=1.0,
            zorder=2)
        ax.add_collection(spaces)
        rings = PatchCollection(
            [Rectangle((r.x0, r.y0), r.width, r.height) for r in
             (rects[s] for s in board.spaces)],
            facecolors="none", edgecolors="none", linewidths=3.5, zorder=4.5)
        ax.add_collection(rings)
        doors = [Rectangle((o.rect.x0, o.rect.y0), o.rect.width, o.rect.height)
                 for o in getattr(geometry, "openings", ())]
        ax.add_collection(PatchCollection(doors, facecolors="white", edgecolors="none",
                                          zorder=2.5))
        land = LineCollection([], colors="#7A7A7A")
        ax.add_collection(land)
        bounds = geometry.bounds
        ax.set_xlim(bounds.x0, bounds.x1)
        ax.set_ylim(bounds.y1, bounds.y0)
        name_dy = 0.0
    else:
        xs = [p[0] for p in pos.values()]
        ys = [p[1] for p in pos.values()]
        pad = 0.55 * unit
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_ylim(min(ys) - pad, max(ys) + pad)
        land = LineCollection(land_segments, colors="#7A7A7A", linewidths=2.0, zorder=1,
                              label="land border (step and sight)")
        ax.add_collection(land)
        for a, b in sorted(air_pairs):
            arrow = FancyArrowPatch(pos[a], pos[b], arrowstyle="-",
                                    connectionstyle="arc3,rad=0.25", linestyle=(0, (4, 3)),
                                    color="#0072B2", linewidth=1.3, alpha=0.8, zorder=1.5,
                                    shrinkA=12, shrinkB=12)
            ax.add_patch(arrow)
            air.append(arrow)
        spaces = ax.scatter([pos[s][0] for s in board.spaces],
                            [pos[s][1] for s in board.spaces], s=_NODE_SIZE,
                            c=[kind_color(k) for k in kinds], edgecolors=base_edge,
                            linewidths=1.0, zorder=2)
        # The rings that mark seen or highlighted spaces sit on top of the numbers, hollow, so
        # that a redraw only has to paint them (the discs below never change).
        rings = ax.scatter([pos[s][0] for s in board.spaces], [pos[s][1] for s in board.spaces],
                           s=_NODE_SIZE, facecolors="none", edgecolors="none", linewidths=3.5,
                           zorder=4.5)
        name_dy = -0.3 * unit

    labels = {}
    for s in board.spaces:
        x, y = pos[s]
        number = board.number(s)
        if not rects:
            # Above the sight lines (zorder 5) so a line between two pawns sharing the space
            # cannot cross out its number; the pawns (zorder 6) sit on the rim, clear of it.
            ax.text(x, y, "" if number is None else str(number), ha="center", va="center",
                    fontsize=9, fontweight="bold", color="#222222", zorder=5.5)
        if board.space(s).airplane:
            ax.text(x + 0.2 * unit, y - 0.2 * unit, "\u2708", ha="center", va="center",
                    fontsize=11, color="#0072B2", zorder=3)
        text = "\n".join(textwrap.wrap(s, 14))
        if rects and number is not None:
            text = f"{number} {text}"
        labels[s] = ax.text(x, y + name_dy, text, ha="center", va="top" if not rects else
                            "center", fontsize=6.5, color="#222222", zorder=3,
                            visible=show_names, alpha=1.0 if not rects else 0.6,
                            parse_math=False)  # a name with "$" is text, not math

    path_arrows = []
    if show_path:
        route = list(board.path)
        for a, b in zip(route, route[1:] + route[:1], strict=True):
            arrow = FancyArrowPatch(pos[a], pos[b], arrowstyle="-|>", mutation_scale=10,
                                    color="#B22222", linewidth=1.0, shrinkA=13, shrinkB=13,
                                    connectionstyle="arc3,rad=0.12", zorder=4)
            ax.add_patch(arrow)
            path_arrows.append(arrow)

    (doctor,) = ax.plot([], [], linestyle="none", marker="*", markersize=20,
                        markerfacecolor=DOCTOR_COLOR, markeredgecolor="black",
                        markeredgewidth=1.5, zorder=8, label=DOCTOR)
    (cat,) = ax.plot([], [], linestyle="none", marker="^", markersize=11,
                     markerfacecolor=CAT_COLOR, markeredgecolor="white", markeredgewidth=1.0,
                     zorder=8, label="the cat")
    sight_lines = LineCollection([], colors=SIGHT_COLOR, linewidths=2.2, linestyles="-",
                                 alpha=0.9, zorder=5)
    ax.add_collection(sight_lines)

    handles = [Patch(facecolor=kind_color(k), edgecolor="#333333", label=k)
               for k in board.kinds]
    if not rects:
        handles.append(Line2D([], [], color="#7A7A7A", linewidth=2,
                              label="border: step + sight"))
    if air:
        handles.append(Line2D([], [], color="#0072B2", linestyle=(0, (4, 3)),
                              label="\u2708 air link: step, no sight"))
    if show_path:
        handles.append(Line2D([], [], color="#B22222", marker=">", label="Doctor Lucky's path"))
    if sight_legend or (sight_legend is None and sight_of is not None):
        handles.append(Line2D([], [], color=SIGHT_COLOR, linewidth=2.2,
                              label="sight (ringed: spaces seen)"))
    legend = fig.legend(handles=handles, loc="outside right upper", fontsize=8,
                        title="spaces", title_fontsize=8, frameon=False)
    title_artist = ax.set_title(title if title is not None else _board_title(board),
                                fontsize=10, parse_math=False)

    drawing = BoardDrawing(board=board, fig=fig, ax=ax, spaces=spaces, land=land, air=air,
                           path_arrows=path_arrows, labels=labels, doctor=doctor, cat=cat,
                           sight_lines=sight_lines, title=title_artist, legend=legend,
                           rings=rings, unit=unit)
    return drawing.update(state, sight_of=sight_of, highlight=highlight)


def _board_title(board: Board) -> str:
    status = " (a reconstruction, not the published map)" if board.status == "reconstruction" \
        else ""
    return f"{board.name}{status}"


def _scene_spaces(scene: Scene) -> list[str]:
    return [*scene.pawns.values(), *(s for s in (scene.doctor, scene.cat) if s is not None)]


def _unit(pos: Mapping[str, tuple[float, float]]) -> float:
    """A typical distance between neighbouring spaces: the scale for pawn offsets."""
    points = list(pos.values())
    if len(points) < 2:
        return 1.0
    nearest = sorted(
        min(math.dist(p, q) for q in points if q is not p) for p in points
    )
    return nearest[len(nearest) // 2] or 1.0


def _pawn_spots(board: Board, scene: Scene, unit: float = 1.0) -> dict[str, tuple[float, float]]:
    """Where to draw each pawn: around its space's centre, evenly spread when it has company."""
    crowd: dict[str, list[str]] = {}
    if scene.doctor is not None:
        crowd.setdefault(scene.doctor, []).append(DOCTOR)
    for label, space in scene.pawns.items():
        crowd.setdefault(space, []).append(label)
    spots = {}
    # On a graph board each space's name sits right under its disc; rooms have it inside.
    name_below = getattr(getattr(board, "geometry", None), "rects", None) is None
    for space, labels in crowd.items():
        x, y = board.space(space).pos
        n = len(labels)
        for k, label in enumerate(labels):
            if name_below and n > 1:
                # Spread the crowd from left to right over the top of the disc (a wider arc
                # for four or more), so no pawn sits on the name below it.
                span = math.pi if n <= 3 else math.radians(220)
                angle = math.pi / 2 + span / 2 - span * k / (n - 1)
            else:
                # The first pawn on top; with an even crowd turn half a slot so that no pawn
                # sits right below the centre.
                angle = math.pi / 2 + 2 * math.pi * k / n + (math.pi / n if n % 2 == 0 else 0.0)
            r = _RING * unit
            spots[label] = (x + r * math.cos(angle), y + r * math.sin(angle))
    if scene.cat is not None:
        x, y = board.space(scene.cat).pos
        spots["cat"] = (x + _CAT_OFFSET[0] * unit, y + _CAT_OFFSET[1] * unit)
    return spots


def _place(artist: Line2D | None, xy: tuple[float, float] | None) -> None:
    if artist is None:
        return
    if xy is None:
        artist.set_data([], [])
    else:
        artist.set_data([xy[0]], [xy[1]])


def _initials(label: str, stranger: bool) -> str:
    if stranger:
        return "S"
    words = [w for w in label.replace("-", " ").split() if w]
    return (words[0][0] + (words[1][0] if len(words) > 1 else "")).upper() if words else "?"


def _ink_on(color: str) -> str:
    """Black or white text, whichever reads better on ``color``."""
    r, g, b = matplotlib.colors.to_rgb(color)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


# -- the sight matrix ---------------------------------------------------------------------------
def sight_matrix(report: Mapping[str, Any], order: Sequence[str] | None = None
                 ) -> tuple[list[str], list[list[int]]]:
    """The labels in order and the 0/1 matrix of :func:`draw_sight_matrix` (row sees column).

    A label with no row of its own (Doctor Lucky in a
    :func:`~luckylab.games.island.sight_report`) gets its row from the others' ``seen_by``:
    it sees whoever it is seen by, so the matrix is whole.

    >>> sight_matrix({"Ann": {"Bob"}, "Bob": {"Ann"}})
    (['Ann', 'Bob'], [[0, 1], [1, 0]])
    """
    seen = {label: set(getattr(row, "sees", row)) for label, row in report.items()}
    for label, row in report.items():
        for other in getattr(row, "seen_by", ()):
            if other not in report:
                seen.setdefault(other, set()).add(label)
    if order is None:
        order = list(seen)
        order += sorted({b for row in seen.values() for b in row} - set(order))
    order = list(order)
    return order, [[1 if b in seen.get(a, ()) else 0 for b in order] for a in order]


def draw_sight_matrix(
    report: Mapping[str, Any],
    ax: Axes | None = None,
    *,
    order: Sequence[str] | None = None,
    title: str = "who sees whom",
) -> tuple[Figure, Axes, Any]:
    """Draw who sees whom as a grid: a filled cell in row A, column B means A sees B.

    Parameters
    ----------
    report
        Pawn label -> what it sees: either an object with a ``sees`` attribute (a row of
        :func:`luckylab.games.island.sight_report`) or an iterable of labels.
    ax
        Axes to draw into; ``None`` makes a new pyplot figure.
    order
        The order of rows and columns (default: the report's order, then any label only seen).

    Returns
    -------
    (figure, axes, image)
        The image is the ``AxesImage`` whose array is the 0/1 matrix.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig, ax, image = draw_sight_matrix({"Ann": {"Bob"}, "Bob": {"Ann"}, "Cy": set()})
    >>> image.get_array().tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
    """
    order, matrix = sight_matrix(report, order)
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(1.2 + 0.55 * len(order), 1.0 + 0.5 * len(order)),
                               layout="constrained")
    else:
        fig = ax.figure
    image = ax.imshow(matrix, cmap="Oranges", vmin=0, vmax=1.4)
    ax.set_xticks(range(len(order)), order, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(order)), order, fontsize=8)
    ax.set_xticks([k - 0.5 for k in range(1, len(order))], minor=True)
    ax.set_yticks([k - 0.5 for k in range(1, len(order))], minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel("... sees this pawn", fontsize=8)
    ax.set_ylabel("this pawn ...", fontsize=8)
    ax.set_title(title, fontsize=10)
    cmap = image.get_cmap()
    ax.legend(handles=[Patch(facecolor=cmap(image.norm(1)), edgecolor="#333333", label="sees"),
                       Patch(facecolor=cmap(image.norm(0)), edgecolor="#333333",
                             label="does not see")],
              loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False,
              title="row ... column", title_fontsize=8)
    return fig, ax, image
