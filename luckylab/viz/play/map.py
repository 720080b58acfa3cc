"""The play table's map: the picture of the game (paths, rooms or a ship), repainted fast.

:class:`TableMap` draws the static picture once and, on every change, repaints only what moved
(:class:`~luckylab.viz.blit.Painter`), with the table's own marks: where the chosen group of
choices can go, which spaces see you, the space in focus. Which picture is drawn is data
(:attr:`~luckylab.viz.play.words.TableWords.picture`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure

from ..blit import Painter
from .state import full_board, where

__all__ = ["TableMap"]

_ISLAND_KEY = (
    "<small>Map: <b>dashed blue circles</b> are where the chosen move can go; "
    "<b>coloured rings</b> are the spaces that see you (or would see you on the "
    "space in the black circle); lines join you to the pawns that see you.</small>")
_ROOMS_KEY = (
    "<small>Map: <b>blue</b> rooms are where the chosen move can go and another "
    "player would see you, <b>purple hatched</b> ones where nobody else would; "
    "<b>grey</b> rooms see you (or would see you in the <b>orange</b> room, the "
    "one in focus).</small>")


class TableMap:
    """The map of ``game`` drawn as ``picture``: "paths" (spaces as discs joined by paths, the
    island), "rooms" (a mansion's rooms) or "ship" (rooms that sink).

    ``figure`` is the matplotlib figure, ``board`` the board clicks are read on, ``key`` the
    HTML line that explains the marks; :meth:`png` paints the map as it is now.
    """

    def __init__(self, game: Any, picture: str) -> None:
        self.picture = picture
        self.painter = Painter()
        self._pawn_tags: dict[str, Any] = {}
        if picture == "paths":
            from ..draw import draw_board, new_figure

            self.figure = new_figure(9.5, 4.8, dpi=80)
            ax = self.figure.add_subplot()
            view = game.view()  # the board and the pawns are public
            self.drawing = draw_board(view.board, view, ax=ax, title="")
            # Two overlays of our own: the spaces the chosen group can go to (dashed) and the
            # space in focus (a thick ring).
            self._targets = ax.scatter([], [], s=1500, facecolors="none", edgecolors="#0072B2",
                                       linewidths=2.2, linestyles="--", zorder=4.6)
            self._focus = ax.scatter([], [], s=2000, facecolors="none", edgecolors="black",
                                     linewidths=3.0, zorder=4.7)
            self.key = _ISLAND_KEY
            self.board = view.board
            return
        self.board = full_board(game, picture)
        if picture == "ship":
            from ..ship import draw_ship, ship_figsize

            self.figure = Figure(figsize=ship_figsize(self.board, 9.5, False), dpi=80,
                                 layout="constrained")
            self.drawing = draw_ship(game, self.figure.add_subplot(), legend=False, title="")
            self._mansion = self.drawing.mansion
        else:
            from ..mansion import _figsize, draw_mansion

            self.figure = Figure(figsize=_figsize(self.board.geometry.bounds, 9.5, False),
                                 dpi=80, layout="constrained")
            self.drawing = draw_mansion(self.board, self.figure.add_subplot(), legend=False,
                                        title="", width=9.5)
            self._mansion = self.drawing
        self.key = _ROOMS_KEY

    def png(self, game: Any, obs: Mapping[str, Any], targets: Sequence[str], you: int,
            focused: str | None, title: str, namer: Any) -> bytes:
        """The map now: ``targets`` marked, seen from ``you``'s seat (``obs``: what it may
        know), ``focused`` in focus."""
        if self.picture == "paths":
            return self._island(game, obs, targets, you, focused, title)
        return self._rooms(game, obs, targets, you, focused, title, namer)

    def _island(self, game: Any, obs: Mapping[str, Any], targets: Sequence[str], you: int,
                focused: str | None, title: str) -> bytes:
        import numpy as np

        view = game.view(you)  # what you may know: the board and the pawns are public
        board = view.board
        label = view.names[you]
        if focused is None or focused == where(obs, you):
            self.drawing.update(view, sight_of=label, title=title)
        else:
            seen = board.visible_from(focused, obs["cat"], view.cat_blocks)
            self.drawing.update(view, highlight=seen, title=title)
        pos = [board.space(s).pos for s in targets]
        self._targets.set_offsets(np.array(pos).reshape(-1, 2))
        focus = [] if focused is None else [board.space(focused).pos]
        self._focus.set_offsets(np.array(focus).reshape(-1, 2))
        drawing = self.drawing
        moving = [a for a in drawing._moving_artists() if a is not None]
        key = (*(f"{p}={drawing.scene.color(p)}" for p in drawing.scene.pawns),
               f"cat={drawing.scene.cat is not None}")
        return self.painter.png(self.figure, [*moving, self._targets, self._focus], key=key)

    def _rooms(self, game: Any, obs: Mapping[str, Any], targets: Sequence[str], you: int,
               focused: str | None, title: str, namer: Any) -> bytes:
        if self.picture == "ship":
            self.drawing.update(game, title=title)
            # The table marks rooms by who sees *you*; Doctor Lucky's sight bands (the
            # ShipStepper's view) would hide those marks and cost a repaint of every name.
            self._mansion.show_sight(None)
        else:
            self.drawing.place({f"Player {namer.player_number(s)}": where(obs, s)
                                for s in namer.live}, obs["doctor"])
            self.drawing.title.set_text(title)
        board = game.view().board  # the rooms afloat, in Save
        here = focused if focused is not None else where(obs, you)
        watched = set(board.seen_by(here)) if here in board else set()
        # Where the others' pawns see (K-SIGHT-1, S-SAVE-1): the room itself and every room
        # in straight-line sight of it, on the board as it is now (afloat, in Save).
        seen_by_others: set[str] = set()
        for seat in namer.live:
            if seat != you and where(obs, seat) in board:
                seen_by_others |= board.visible_from(where(obs, seat))
        marks = {s: "watched" for s in watched}
        for s in targets:
            marks[s] = "adjacent" if s in seen_by_others else "adjacent_unseen"
        if focused is not None:
            marks[focused] = "chosen"
        m = self._mansion
        m.mark(marks)
        tags = self._tag_pawns(m, game.current_player, namer)
        # Like the ship's fast frame: paint what moves, and again only the names that a mark
        # or a sight band covers (MansionDrawing.png repaints every name, four times slower).
        covered = set(m.marked)
        for band in m.shown_bands:
            covered |= band.spaces
        also = [m.labels[s] for s in covered if m.labels[s].get_visible()]
        also += [m.numbers[s] for s in covered if s in m.numbers]
        if self.picture == "ship":
            moving = self.drawing._moving_artists()
        else:
            moving = [*m.marks.values(), m.bands, *m.pawns.values(), m.doctor, m.title]
        return self.painter.png(self.figure, [*moving, *tags], also=also)

    def _tag_pawns(self, m: Any, deciding: int | None, namer: Any) -> list[Any]:
        """Write each player's number on their pawn (the rooms' pawns are plain discs); on the
        mansion the pawn of the player deciding now is drawn larger."""
        from ..draw import _ink_on

        tags = self._pawn_tags
        for label, marker in m.pawns.items():
            number = int(label.split()[-1]) + (1 if label.startswith("seat") else 0)
            tag = tags.get(label)
            if tag is None:
                tag = tags[label] = m.ax.text(0, 0, str(number), ha="center", va="center",
                                              fontsize=7, fontweight="bold", zorder=9,
                                              color=_ink_on(marker.get_markerfacecolor()))
            if self.picture == "rooms":
                marker.set_markersize(17 if deciding is not None
                                      and number == namer.player_number(deciding) else 13)
            xs, ys = marker.get_data()
            tag.set_visible(len(xs) > 0)
            if len(xs):
                tag.set_position((xs[0], ys[0]))
        return list(tags.values())
