"""Drawing straight-line-sight boards (the 1997 mansion, the ship) and exploring their sight.

A geometry board (:mod:`luckylab.boards.geometry`) is a drawing: rooms are rectangles, walls are
what lies between them, doors are openings in the walls and the Gallery railing is an opening you
see through but cannot walk through (``K-SIGHT-2``). This module draws exactly that drawing,
the way the printed board looks: dark walls, rooms filled by kind, white door openings, the
railing grey with black dots. On top it can show

* the *sight bands* of one room: every horizontal or vertical strip of parallel straight lines
  that leaves the room through open area (:meth:`luckylab.boards.geometry.Geometry.sight_bands`,
  ``K-SIGHT-1``), neighbouring strips merged;
* a per-room *mark* (fill, hatch, outline) that widgets use to sort rooms into "seen",
  "adjacent", "a hiding place";
* pawns and Doctor Lucky.

It owns pictures only: adjacency and sight come from the :class:`~luckylab.boards.board.Board`
(derived once from the geometry), never from the picture. :class:`MansionExplorer` is the
ipywidgets lesson built on it; :func:`hiding_places` and :func:`sight_comparison` are the two
board questions it asks, as plain functions so notebooks and tests can ask them too.

The data's y axis runs downwards (page coordinates), so the axes are inverted.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from luckylab import load_board
>>> from luckylab.viz.mansion import draw_mansion, sight_comparison
>>> mansion = load_board("kill-doctor-lucky")
>>> drawing = draw_mansion(mansion, sight_of="Kitchen")
>>> len(drawing.rooms), len(drawing.doors), len(drawing.railings)
(32, 55, 1)
>>> sight_comparison(mansion, "Gallery").visible_not_adjacent
('Dining Hall', 'Drawing Room', 'Foyer', 'Hall NW', 'Master Suite', 'Piazza')
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text

from ..boards.board import Board
from ..boards.geometry import Geometry, Rect, SightBand
from ..errors import OptionError
from .args import release
from .blit import Painter
from .clicks import ClickMap, attach_clicks
from .draw import DOCTOR, DOCTOR_COLOR, PLAYER_COLORS, SIGHT_COLOR, kind_color

__all__ = [
    "MARKS",
    "NOBODY",
    "ROOM_COLORS",
    "MansionDrawing",
    "MansionExplorer",
    "SightComparison",
    "draw_mansion",
    "hiding_places",
    "merged_bands",
    "sight_comparison",
]

WALL_COLOR = "#3B3B3B"
DOOR_COLOR = "#FFFFFF"
RAILING_COLOR = "#C7C7C7"
ROOM_COLORS: dict[str, str] = {
    "room": "#E8DCC6",
    "hallway": "#D2D2D2",
    "stairs": "#F4F4F4",
}
"""Fill colours by space kind (as on the printed board: rooms beige-grey, stairs white)."""

MARKS: dict[str, dict[str, Any]] = {
    "chosen": {"facecolor": "#D55E00", "alpha": 0.45, "hatch": "", "edgecolor": "black",
               "linewidth": 3.0, "label": "the chosen room"},
    "adjacent": {"facecolor": "#56B4E9", "alpha": 0.55, "hatch": "", "edgecolor": "#0072B2",
                 "linewidth": 2.0, "label": "adjacent (a door away) and seen"},
    "visible": {"facecolor": "#E69F00", "alpha": 0.45, "hatch": "//", "edgecolor": "#B35900",
                "linewidth": 2.0, "label": "seen, not adjacent"},
    "adjacent_unseen": {"facecolor": "#CC79A7", "alpha": 0.55, "hatch": "xx",
                        "edgecolor": "#7F3C8D", "linewidth": 2.0,
                        "label": "adjacent, not seen"},
    "watched": {"facecolor": "#B0B0B0", "alpha": 0.55, "hatch": "", "edgecolor": "none",
                "linewidth": 0.0, "label": "seen by someone"},
    "hideout": {"facecolor": "#009E73", "alpha": 0.45, "hatch": ".", "edgecolor": "#00664A",
                "linewidth": 2.5, "label": "hiding place: nobody sees it"},
}
"""How :meth:`MansionDrawing.mark` paints a room, per mark name. Each mark differs by hatch
or outline as well as colour, so colour is never the only cue."""

ROOM = "(the chosen room)"
"""The :class:`MansionExplorer` click target that moves the chosen room itself."""

_NO_MARK = {"facecolor": "none", "alpha": 1.0, "hatch": "", "edgecolor": "none",
            "linewidth": 0.0}


# -- board questions (plain data) -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SightComparison:
    """What one room sees versus what it can step to (``K-BOARD-2`` vs ``K-SIGHT-1``).

    All tuples are sorted by name and never include the room itself.
    """

    room: str
    visible: tuple[str, ...]
    adjacent: tuple[str, ...]
    visible_not_adjacent: tuple[str, ...]
    adjacent_not_visible: tuple[str, ...]


def sight_comparison(board: Board, room: str) -> SightComparison:
    """Compare the spaces ``room`` sees with the spaces one door away.

    >>> from luckylab import load_board
    >>> c = sight_comparison(load_board("kill-doctor-lucky"), "Kitchen")
    >>> c.adjacent
    ('Hall SW', 'Hall W', 'Wine Cellar')
    >>> c.adjacent_not_visible
    ()
    """
    board.check(room)
    visible = board.visible_from(room) - {room}
    adjacent = board.neighbors(room)
    return SightComparison(
        room=room,
        visible=tuple(sorted(visible)),
        adjacent=tuple(sorted(adjacent)),
        visible_not_adjacent=tuple(sorted(visible - adjacent)),
        adjacent_not_visible=tuple(sorted(adjacent - visible)),
    )


def hiding_places(board: Board, watchers: Iterable[str]) -> tuple[str, ...]:
    """The spaces that no pawn standing on ``watchers`` sees, in board order.

    In Kill Doctor Lucky these are the spaces where a player could attack unseen (``K-KILL-1``;
    the engine's ``KillGame.unseen_spaces`` gives the same answer, and a test checks it).
    Sight is symmetric on geometry boards, so they are also the spaces from which you see none
    of the watchers. A space holding a watcher is never a hiding place (a pawn sees its own
    space).

    >>> from luckylab import load_board
    >>> mansion = load_board("kill-doctor-lucky")
    >>> "Kitchen" in hiding_places(mansion, ["Drawing Room"])
    True
    >>> hiding_places(mansion, [])[:3]     # nobody watching: hide anywhere
    ('Drawing Room', 'Parlor', 'Billiard Room')
    """
    if isinstance(watchers, str):
        raise OptionError(f"watchers must be a collection of spaces, not the string {watchers!r}")
    seen: set[str] = set()
    for space in watchers:
        seen |= board.visible_from(space)
    return tuple(s for s in board.spaces if s not in seen)


def merged_bands(bands: Iterable[SightBand]) -> list[SightBand]:
    """Merge side-by-side bands that run between the same two ends (one strip per view).

    :meth:`Geometry.sight_bands` returns one band per row (or column) of its cell grid, so a
    wide view can come in several touching strips; drawn as one they read as one view.
    """
    out: list[SightBand] = []
    for band in sorted(bands, key=lambda b: (b.orientation, b.start, b.end, b.lo)):
        last = out[-1] if out else None
        if (last is not None and last.orientation == band.orientation
                and last.start == band.start and last.end == band.end and last.hi == band.lo):
            out[-1] = SightBand(last.orientation, last.lo, band.hi, last.start, last.end,
                                last.spaces | band.spaces)
        else:
            out.append(band)
    return out


# -- the drawing ----------------------------------------------------------------------------------
@dataclass(eq=False)
class MansionDrawing:
    """The matplotlib objects of one geometry-board picture.

    Attributes are the artists, so tests and students can look at them: ``walls`` (the dark
    background), ``rooms`` (space -> its ``Rectangle``, filled by kind), ``doors`` and
    ``railings`` (one ``Rectangle`` per opening, in ``geometry.doors`` / ``geometry.see_through``
    order), ``railing_dots``, ``labels`` (space -> its name's ``Text``), ``numbers`` (numbered
    space -> the bold number above its name), ``marks`` (space -> an overlay
    ``Rectangle``, invisible until :meth:`mark`), ``bands`` (a ``PatchCollection`` of the
    sight bands shown), ``pawns`` (label -> ``Line2D``), ``doctor``, ``legend``.
    """

    board: Board
    geometry: Geometry
    fig: Figure
    ax: Axes
    walls: Rectangle
    rooms: dict[str, Rectangle]
    doors: list[Rectangle]
    railings: list[Rectangle]
    railing_dots: Line2D
    labels: dict[str, Text]
    numbers: dict[str, Text]
    marks: dict[str, Rectangle]
    bands: PatchCollection
    doctor: Line2D
    title: Text
    legend: Any = None
    pawns: dict[str, Line2D] = field(default_factory=dict)
    sight_of: str | None = None
    shown_bands: tuple[SightBand, ...] = ()
    marked: dict[str, str] = field(default_factory=dict)
    _painter: Painter = field(default_factory=Painter, repr=False, compare=False)

    def show_sight(self, space: str | None) -> MansionDrawing:
        """Draw the sight bands of ``space`` (``None``: hide them). Returns ``self``."""
        if space is None:
            bands: list[SightBand] = []
        else:
            self.board.check(space)
            bands = merged_bands(self.geometry.sight_bands(space))
        self.bands.set_paths([_rectangle(b.rect) for b in bands])
        self.bands.set_visible(bool(bands))
        self.sight_of = space
        self.shown_bands = tuple(bands)
        return self

    def mark(self, marks: Mapping[str, str]) -> MansionDrawing:
        """Paint each space of ``marks`` with its mark (a key of :data:`MARKS`); every other
        space loses its mark. Returns ``self``."""
        for space, name in marks.items():
            self.board.check(space)
            if name not in MARKS:
                raise OptionError(f"unknown mark {name!r}; choose from {sorted(MARKS)}")
        for space, patch in self.marks.items():
            name = marks.get(space)
            style = MARKS[name] if name else _NO_MARK
            patch.set_facecolor(style["facecolor"])
            patch.set_alpha(style["alpha"] if name else None)
            patch.set_hatch(style["hatch"])
            patch.set_edgecolor(style["edgecolor"])
            patch.set_linewidth(style["linewidth"])
            patch.set_visible(name is not None)
        self.marked = dict(marks)
        return self

    def place(self, pawns: Mapping[str, str | None] | None = None,
              doctor: str | None = None) -> MansionDrawing:
        """Put pawn markers (label -> space, ``None`` = off the board) and Doctor Lucky's star.

        Pawns sharing a space stand side by side. New labels get a marker in the next
        :data:`~luckylab.viz.draw.PLAYER_COLORS` colour. Returns ``self``.
        """
        pawns = dict(pawns or {})
        for space in [*pawns.values(), doctor]:
            if space is not None:
                self.board.check(space)
        crowd: dict[str, list[str]] = {}
        if doctor is not None:
            crowd.setdefault(doctor, []).append(DOCTOR)
        for label, space in pawns.items():
            if space is not None:
                crowd.setdefault(space, []).append(label)
        for label in pawns:
            if label not in self.pawns:
                color = PLAYER_COLORS[len(self.pawns) % len(PLAYER_COLORS)]
                (marker,) = self.ax.plot([], [], linestyle="none", marker="o", markersize=13,
                                         markerfacecolor=color, markeredgecolor="black",
                                         markeredgewidth=1.2, zorder=8, label=label)
                self.pawns[label] = marker
        for label, marker in self.pawns.items():
            if pawns.get(label) is None:
                marker.set_data([], [])
        if doctor is None:
            self.doctor.set_data([], [])
        for space, labels in crowd.items():
            # Pawns stand away from the room's name (which is at the centre): in a row near the
            # bottom of a room, near the far end of a thin hallway or stairway.
            rect = self.geometry.rects[space]
            cx, cy = rect.center
            thin = min(rect.width, rect.height) < 0.06 * self._span
            along_y = thin and rect.height > rect.width
            length = rect.height if along_y else rect.width
            step = min(length / (len(labels) + 1), 0.04 * self._span)
            if thin:
                centre = (rect.y0 if along_y else rect.x0) + 0.8 * length
                centre = min(centre, (rect.y1 if along_y else rect.x1)
                             - step * len(labels) / 2)
            else:
                centre = cx
            for k, label in enumerate(labels):
                at = centre + (k - (len(labels) - 1) / 2) * step
                artist = self.doctor if label == DOCTOR else self.pawns[label]
                if along_y:
                    artist.set_data([cx], [at])
                elif thin:
                    artist.set_data([at], [cy])
                else:
                    artist.set_data([at], [rect.y0 + 0.78 * rect.height])
        return self

    @property
    def _span(self) -> float:
        b = self.geometry.bounds
        return max(b.width, b.height)

    def png(self) -> bytes:
        """The figure as PNG bytes (what the widget shows), painting only what changes.

        The first call paints everything except the changing artists (marks, sight bands,
        names, pawns, Doctor Lucky, the title) and keeps that picture; later calls paste it and
        paint the changing artists on top, which takes about a third of a full repaint. The
        layout is frozen after the first call, so the kept picture stays valid: give the
        drawing a figure of its own and do not add artists to it afterwards.
        """
        changing = [*self.marks.values(), self.bands, *self.labels.values(),
                    *self.numbers.values(), *self.pawns.values(), self.doctor, self.title]
        return self._painter.png(self.fig, changing)


def draw_mansion(
    board: Board,
    ax: Axes | None = None,
    *,
    sight_of: str | None = None,
    pawns: Mapping[str, str | None] | None = None,
    doctor: str | None = None,
    marks: Mapping[str, str] | None = None,
    show_names: bool = True,
    legend: bool = True,
    mark_keys: Sequence[str] = (),
    title: str | None = None,
    width: float = 10.0,
) -> MansionDrawing:
    """Draw a geometry board the way it is printed, optionally with one room's sight bands.

    Parameters
    ----------
    board
        A board with a :class:`~luckylab.boards.geometry.Geometry` in ``board.geometry`` (the Kill
        Doctor Lucky mansion, the Save Doctor Lucky ship).
    ax
        Axes to draw into; ``None`` makes a new pyplot figure (shown by the inline backend).
    sight_of
        A space whose sight bands to draw (``K-SIGHT-1``).
    pawns, doctor
        Pawn label -> space, and Doctor Lucky's space (see :meth:`MansionDrawing.place`).
    marks
        Space -> mark name (see :data:`MARKS` and :meth:`MansionDrawing.mark`).
    show_names, legend, mark_keys, title, width
        Room names and numbers; the key to colours (plus the marks named in ``mark_keys``, and
        the pawns and Doctor Lucky if any are given);
        the title (default: the board's name,
        flagged if it is a reconstruction); the figure width in inches (height follows the
        board's proportions).

    Returns
    -------
    MansionDrawing

    Raises
    ------
    ValueError
        If ``board`` is not a geometry board.
    """
    geometry = board.geometry
    if not isinstance(geometry, Geometry):
        raise OptionError(f"{board.name} is not a geometry board (it has no rectangles to draw)")
    bounds = geometry.bounds
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=_figsize(bounds, width, legend), layout="constrained")
    else:
        fig = ax.figure
    span = max(bounds.width, bounds.height)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_xlim(bounds.x0, bounds.x1)
    ax.set_ylim(bounds.y1, bounds.y0)  # y runs downwards in the data (page coordinates)

    # Walls: everything that is not a space or an opening (as on the printed board).
    walls = Rectangle((bounds.x0, bounds.y0), bounds.width, bounds.height,
                      facecolor=WALL_COLOR, edgecolor="none", zorder=0)
    ax.add_patch(walls)
    rooms = {}
    for space in board.spaces:
        r = geometry.rects[space]
        rooms[space] = ax.add_patch(Rectangle(
            (r.x0, r.y0), r.width, r.height, facecolor=_room_color(board.kind(space)),
            edgecolor="none", zorder=1, label=space))
    doors = [ax.add_patch(Rectangle((o.rect.x0, o.rect.y0), o.rect.width, o.rect.height,
                                    facecolor=DOOR_COLOR, edgecolor="none", zorder=1.2))
             for o in geometry.doors]
    railings = [ax.add_patch(Rectangle((o.rect.x0, o.rect.y0), o.rect.width, o.rect.height,
                                       facecolor=RAILING_COLOR, edgecolor="none", zorder=1.2))
                for o in geometry.see_through]
    dot_x, dot_y = [], []
    for o in geometry.see_through:
        # The printed railing is a grey band with a row of black dots along its length.
        r = o.rect
        long_x = r.width >= r.height
        n = max(2, round((r.width if long_x else r.height) / (2 * min(r.width, r.height))))
        for k in range(n):
            t = (k + 0.5) / n
            dot_x.append(r.x0 + t * r.width if long_x else (r.x0 + r.x1) / 2)
            dot_y.append((r.y0 + r.y1) / 2 if long_x else r.y0 + t * r.height)
    (railing_dots,) = ax.plot(dot_x, dot_y, linestyle="none", marker="o", markersize=3.5,
                              color="black", zorder=1.3)

    marks_layer = {}
    for space in board.spaces:
        r = geometry.rects[space]
        marks_layer[space] = ax.add_patch(Rectangle(
            (r.x0, r.y0), r.width, r.height, facecolor="none", edgecolor="none",
            zorder=2, visible=False))
    bands = PatchCollection([], facecolors=SIGHT_COLOR, edgecolors=SIGHT_COLOR,
                            linewidths=0.8, alpha=0.28, zorder=3)
    ax.add_collection(bands)

    labels, numbers = {}, {}
    for space in board.spaces:
        labels[space], number = _label(ax, board, space, geometry.rects[space], span,
                                       show_names)
        if number is not None:
            numbers[space] = number

    (doctor_marker,) = ax.plot([], [], linestyle="none", marker="*", markersize=20,
                               markerfacecolor=DOCTOR_COLOR, markeredgecolor="black",
                               markeredgewidth=1.5, zorder=9, label=DOCTOR)
    title_artist = ax.set_title(title if title is not None else _title(board), fontsize=11,
                                parse_math=False)
    drawing = MansionDrawing(
        board=board, geometry=geometry, fig=fig, ax=ax, walls=walls, rooms=rooms, doors=doors,
        railings=railings, railing_dots=railing_dots, labels=labels, numbers=numbers,
        marks=marks_layer,
        bands=bands, doctor=doctor_marker, title=title_artist)
    for name in mark_keys:
        if name not in MARKS:
            raise OptionError(f"unknown mark {name!r}; choose from {sorted(MARKS)}")
    drawing.show_sight(sight_of)
    drawing.mark(marks or {})
    drawing.place(pawns, doctor)
    if legend:
        handles = _legend_handles(board, geometry, mark_keys)
        if pawns or doctor is not None:
            # Who is who: the pawns given now (and Doctor Lucky, who may arrive later).
            handles += [*drawing.pawns.values(), drawing.doctor]
        drawing.legend = fig.legend(handles=handles, loc="outside lower center", ncols=4,
                                    fontsize=8, frameon=False)
    return drawing


def _figsize(bounds: Rect, width: float, legend: bool) -> tuple[float, float]:
    return (width, width * bounds.height / bounds.width + (0.9 if legend else 0.4))


def _room_color(kind: str) -> str:
    return ROOM_COLORS.get(kind) or kind_color(kind)


def _title(board: Board) -> str:
    if board.status == "reconstruction" and "reconstruct" not in board.name:
        return f"{board.name} (a reconstruction, not the published board)"
    return board.name


def _label(ax: Axes, board: Board, space: str, rect: Rect, span: float, visible: bool
           ) -> tuple[Text, Text | None]:
    """A room's name (turned upright in tall narrow spaces) and its number in bold above it.

    Two plain texts rather than one with mathtext bold: mathtext layout would double the time
    a picture takes to render.
    """
    number = board.number(space)
    tall = rect.height > 2.5 * rect.width
    room_size = rect.height if tall else rect.width
    # Characters per line: what fits at 8 pt (a 10-inch-wide figure of the 1584-pt page is
    # about 0.45 pt of figure per data unit).
    per_line = max(6, int(room_size / span * 10 * 72 / 5.2))
    name = "\n".join(textwrap.wrap(space, per_line, break_long_words=False))
    x, y = rect.center
    style = {"ha": "center", "color": "#1A1A1A", "zorder": 4, "visible": visible,
             "annotation_clip": False, "parse_math": False}  # a "$" in a name is not math
    if number is None or tall:
        text = name if number is None else f"{number} {name}"
        return ax.annotate(text, (x, y), va="center", fontsize=8, rotation=90 if tall else 0,
                           linespacing=1.0, **style), None
    name_text = ax.annotate(name, (x, y), xytext=(0, -1), textcoords="offset points",
                            va="top", fontsize=8, linespacing=1.0, **style)
    number_text = ax.annotate(str(number), (x, y), xytext=(0, 1), textcoords="offset points",
                              va="bottom", fontsize=10, fontweight="bold", **style)
    return name_text, number_text


def _rectangle(r: Rect) -> Rectangle:
    return Rectangle((r.x0, r.y0), r.width, r.height)


def _legend_handles(board: Board, geometry: Geometry, mark_keys: Sequence[str]) -> list[Any]:
    handles: list[Any] = [Patch(facecolor=_room_color(k), edgecolor="#333333", label=k)
                          for k in board.kinds]
    handles.append(Patch(facecolor=WALL_COLOR, label="wall"))
    handles.append(Patch(facecolor=DOOR_COLOR, edgecolor="#333333",
                         label="door: step and sight"))
    if geometry.see_through:
        handles.append(Line2D([], [], color=RAILING_COLOR, linewidth=7, marker="o",
                              markersize=3.5, markerfacecolor="black", markeredgecolor="black",
                              label="railing: sight, no step"))
    handles.append(Patch(facecolor=SIGHT_COLOR, alpha=0.28, label="straight sight lines"))
    for name in mark_keys:
        style = MARKS[name]
        handles.append(Patch(facecolor=style["facecolor"], alpha=style["alpha"],
                             hatch=style["hatch"], edgecolor=style["edgecolor"],
                             label=style["label"]))
    return handles




# -- the widget ------------------------------------------------------------------------------------
NOBODY = ""
"""The pickers' value for "nobody there" (ipywidgets 8 shows a ``None`` value as a blank
dropdown, so the option needs a real value)."""


class MansionExplorer(W.VBox):
    """Pick a room: see its straight sight lines, what it sees, what it can step to, and where
    to hide from the other pawns.

    Parameters
    ----------
    board
        A geometry board or its name (default: the 1997 mansion, ``"kill-doctor-lucky"``).
    room
        The room shown first (default: the first space of the board, the Drawing Room).
    rivals
        Other pawns: label -> space (``None`` = off the board). Default: two rivals, at the
        start and halfway along Doctor Lucky's path (the Drawing Room, where everyone starts
        in Kill Doctor Lucky, and the Master Suite).
    doctor
        Doctor Lucky's space, or ``None`` to leave him off.
    view
        ``"sight"`` (the room's sight lines and neighbours) or ``"hide"`` (the hiding places).

    Every answer comes from the board (:func:`sight_comparison`, :func:`hiding_places`); the
    widget only holds the pickers and repaints. ``comparison`` and ``hideouts`` hold the latest
    answers, ``drawing`` the picture (drawn once; a change only re-marks rooms and moves
    pawns), ``png`` the last PNG rendered.

    Examples
    --------
    >>> lab = MansionExplorer(room="Kitchen", rivals={"Rival": "Drawing Room"})
    >>> lab.comparison.adjacent
    ('Hall SW', 'Hall W', 'Wine Cellar')
    >>> lab.room_picker.value = "Gallery"
    >>> "Dining Hall" in lab.comparison.visible_not_adjacent
    True
    >>> "Kitchen" in lab.hideouts
    True
    """

    def __init__(
        self,
        board: Board | str = "kill-doctor-lucky",
        room: str | None = None,
        rivals: Mapping[str, str | None] | None = None,
        doctor: str | None = None,
        view: str = "sight",
    ) -> None:
        from ..boards import load_board

        self.board = load_board(board) if isinstance(board, str) else board
        board_ = self.board
        if not isinstance(board_, Board):
            raise OptionError(f"board must be a Board or a board name, not {board_!r}")
        if not isinstance(board_.geometry, Geometry):
            raise OptionError(f"{board_.name} is not a geometry board (it has no rectangles)")
        if room is None:
            room = board_.spaces[0]
        if rivals is None:
            path = board_.path or board_.spaces
            rivals = {"Rival 1": path[0], "Rival 2": path[len(path) // 2]}
        rivals = dict(rivals)
        for space in [room, *rivals.values(), doctor]:
            if space is not None:
                board_.check(space)
        if view not in ("sight", "hide"):
            raise OptionError(f"view must be 'sight' or 'hide', not {view!r}")
        options = [(s if board_.number(s) is None else f"{board_.number(s)} {s}", s)
                   for s in board_.spaces]
        wide = W.Layout(width="270px")
        self.room_picker = W.Dropdown(options=options, value=room, description="room",
                                      layout=wide)
        self.rival_pickers = {
            name: W.Dropdown(options=[("(nobody)", NOBODY), *options],
                             value=NOBODY if space is None else space,
                             description=name, layout=wide)
            for name, space in rivals.items()
        }
        self.doctor_picker = W.Dropdown(options=[("(nobody)", NOBODY), *options],
                                        value=NOBODY if doctor is None else doctor,
                                        description=DOCTOR, layout=wide,
                                        style={"description_width": "initial"})
        self.view_picker = W.ToggleButtons(
            options=[("sight of the room", "sight"), ("where to hide", "hide")], value=view,
            style={"button_width": "140px"})
        self.click_picker = W.Dropdown(
            options=[("the chosen room", ROOM), *((r, r) for r in rivals), (DOCTOR, DOCTOR)],
            value=ROOM,
            description="a click moves", style={"description_width": "initial"}, layout=wide,
            tooltip="click a room on the map to move this there")
        self.map_output = W.Output()
        self.map_image = W.Image(format="png", layout=W.Layout(width="760px"))
        self.lists = W.HTML()

        bounds = board_.geometry.bounds
        self.figure = Figure(figsize=_figsize(bounds, 9.5, True), dpi=80, layout="constrained")
        self.drawing = draw_mansion(board_, self.figure.add_subplot(), width=9.5,
                                    pawns=rivals, doctor=doctor,
                                    mark_keys=("chosen", "adjacent", "visible",
                                               "adjacent_unseen", "hideout", "watched"))
        self.comparison: SightComparison | None = None
        self.hideouts: tuple[str, ...] = ()
        self.png = b""
        self.clicks = ClickMap(board_, self.drawing.ax)
        self._click_listener = attach_clicks(self.map_image, self.click)

        controls = W.VBox([self.room_picker, *self.rival_pickers.values(), self.doctor_picker,
                           self.click_picker])
        super().__init__([W.HBox([controls, W.VBox([self.view_picker, self.lists])]),
                          self.map_image])
        for widget in [self.room_picker, *self.rival_pickers.values(), self.doctor_picker,
                       self.view_picker]:
            widget.observe(self._changed, names="value")
        self.refresh()

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()

    @property
    def rivals(self) -> dict[str, str | None]:
        """Rival label -> space, as the pickers say."""
        return {name: picker.value or None for name, picker in self.rival_pickers.items()}

    @property
    def room(self) -> str:
        """The chosen room."""
        return self.room_picker.value

    @property
    def doctor(self) -> str | None:
        """Doctor Lucky's space, or None."""
        return self.doctor_picker.value or None

    def click(self, event: Mapping[str, Any]) -> str | None:
        """An ipyevents click on the map: move what ``click_picker`` names (the chosen room,
        a rival, Doctor Lucky) to the room under the pointer. Returns that room (None for a
        click on a wall)."""
        space = self.clicks.space_at(event)
        if space is not None:
            who = self.click_picker.value
            picker = self.room_picker if who == ROOM else self.doctor_picker \
                if who == DOCTOR else self.rival_pickers[who]
            picker.value = space
        return space

    def _changed(self, _change: Any = None) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Ask the board again and repaint (the pickers' handlers call this)."""
        board = self.board
        room = self.room
        watchers = [s for s in self.rivals.values() if s is not None]
        self.comparison = c = sight_comparison(board, room)
        self.hideouts = hiding_places(board, watchers)
        drawing = self.drawing
        if self.view_picker.value == "sight":
            marks = {s: "visible" for s in c.visible_not_adjacent}
            marks.update({s: "adjacent" for s in c.adjacent if s not in c.adjacent_not_visible})
            marks.update({s: "adjacent_unseen" for s in c.adjacent_not_visible})
            marks[room] = "chosen"
            drawing.show_sight(room)
            drawing.title.set_text(f"What {_name(board, room)} sees along straight lines")
        else:
            hidden = set(self.hideouts)
            marks = {s: ("hideout" if s in hidden else "watched") for s in board.spaces}
            drawing.show_sight(None)
            who = ", ".join(f"{n} ({s})" for n, s in self.rivals.items() if s is not None)
            drawing.title.set_text(f"Where nobody sees you: hiding from {who or 'nobody'}")
        drawing.mark(marks)
        drawing.place(self.rivals, self.doctor)
        self.lists.value = self._lists_html()
        self._show()

    def _lists_html(self) -> str:
        c = self.comparison
        board = self.board

        def names(spaces: Sequence[str]) -> str:
            if not spaces:
                return "<i>none</i>"
            return ", ".join(html.escape(_name(board, s)) for s in spaces)

        room = html.escape(_name(board, c.room))
        watchers = {n: s for n, s in self.rivals.items() if s is not None}
        hidden_here = c.room in self.hideouts
        rows = [
            f"<b>{room}</b> sees {len(c.visible)}: {names(c.visible)}",
            f"one door away ({len(c.adjacent)}): {names(c.adjacent)}",
            f"<b>seen but not adjacent</b> ({len(c.visible_not_adjacent)}): "
            f"{names(c.visible_not_adjacent)}",
            f"<b>adjacent but not seen</b> ({len(c.adjacent_not_visible)}): "
            f"{names(c.adjacent_not_visible)}",
            f"<b>where to hide</b> from {html.escape(', '.join(watchers) or 'nobody')} "
            f"({len(self.hideouts)} spaces): {names(self.hideouts)}",
            f"{room} is {'a hiding place' if hidden_here else 'watched'}"
            + ("" if hidden_here or not watchers else " by " + html.escape(", ".join(
                n for n, s in watchers.items() if board.sees(s, c.room)))),
        ]
        return "<div style='font-size:90%;line-height:1.35;max-width:560px'>" + \
            "<br>".join(rows) + "</div>"

    def _show(self) -> None:
        self.png = self.drawing.png()
        self.map_image.value = self.png


def _name(board: Board, space: str) -> str:
    number = board.number(space)
    return space if number is None else f"{space} ({number})"
