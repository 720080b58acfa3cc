"""The Island lesson on sight: put pawns, Doctor Lucky and the cat anywhere and see who
sees whom (:class:`SightExplorer`, lesson 2).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from ..boards.board import Board
from ..errors import OptionError
from .args import choice
from .base import LessonWidget, board_or_name, html_table, show_figure, space_label
from .clicks import ClickMap, attach_clicks
from .draw import (
    DOCTOR,
    BoardDrawing,
    draw_board,
    draw_sight_matrix,
    new_figure,
    sight_matrix,
)

__all__ = ["SightExplorer"]

NO_CAT = "(no cat)"


def _space_options(board: Board) -> list[tuple[str, str]]:
    """Dropdown options: "7 Observatory" -> "Observatory" (unnumbered spaces by name)."""
    options = []
    for s in board.spaces:
        number = board.number(s)
        options.append((s if number is None else f"{number} {s}", s))
    return options


class SightExplorer(LessonWidget):
    """Put pawns, Doctor Lucky and the cat anywhere and see who sees whom.

    Parameters
    ----------
    board
        A board or a board name (default: the island).
    pawns
        Pawn name -> space (default: three characters on three spaces).
    doctor, cat
        Doctor Lucky's and the cat's spaces (``cat=None``: no cat on the board).
    cat_blocks
        ``"both"`` (the default ruling, ``I-SIGHT-2``) or ``"outward"``.

    The answers come from :func:`luckylab.games.island.sight_report`; ``report`` holds the
    latest one, ``drawing`` the map, ``hiding_places`` the spaces where one more pawn would be
    unseen by everybody (so it could draw, ``I-DRAW-1``).

    Examples
    --------
    >>> lab = SightExplorer(pawns={"Janet": "Frog Pond", "Sara": "Sunset Beach"},
    ...                     doctor="Frog Pond", cat=None)
    >>> lab.report["Janet"].may_attack
    False
    >>> lab.cat_picker.value = "Frog Pond"
    >>> lab.report["Janet"].may_attack
    True
    """

    def __init__(
        self,
        board: Board | str | None = None,
        pawns: Mapping[str, str] | None = None,
        doctor: str | None = "Sunset Beach",
        cat: str | None = "Observatory",
        cat_blocks: str = "both",
    ) -> None:
        from ..games.island import sight_report

        if pawns is not None and (not isinstance(pawns, Mapping) or not pawns):
            raise OptionError(f"SightExplorer: pawns must map at least one name to a space, "
                              f"not {pawns!r}")
        choice("cat_blocks", cat_blocks, ("both", "outward"), "SightExplorer")
        self._sight_report = sight_report
        self.board = board_or_name(board)
        board_ = self.board
        if pawns is None:
            pawns = {"Janet": "Castelo Feliz", "Sara": "Frog Pond", "Simaon": "Banana Jungle"}
        pawns = dict(pawns)
        for space in [*pawns.values(), doctor, cat]:
            if space is not None:
                board_.check(space)
        options = _space_options(board_)
        self.pawn_pickers = {
            name: W.Dropdown(options=options, value=space, description=name,
                             layout=W.Layout(width="260px"))
            for name, space in pawns.items()
        }
        self.doctor_picker = W.Dropdown(options=options, value=doctor, description=DOCTOR,
                                        style={"description_width": "initial"},
                                        layout=W.Layout(width="260px"))
        self.cat_picker = W.Dropdown(options=[(NO_CAT, None), *options], value=cat,
                                     description="the cat", layout=W.Layout(width="260px"))
        self.cat_blocks_picker = W.ToggleButtons(
            options=[("cat blocks both ways", "both"), ("cat blinds only her room", "outward")],
            value=cat_blocks, style={"button_width": "200px"})
        self.eyes_picker = W.Dropdown(options=[*pawns, DOCTOR], value=next(iter(pawns)),
                                      description="sight of", layout=W.Layout(width="260px"))
        self.hiding_box = W.Checkbox(value=False, description="ring the hiding places",
                                     indent=False)
        self.click_picker = W.Dropdown(options=[*((p, p) for p in pawns), (DOCTOR, DOCTOR),
                                                ("the cat", "cat")],
                                       value=next(iter(pawns)), description="a click moves",
                                       tooltip="click a space on the map to put this pawn there",
                                       style={"description_width": "initial"},
                                       layout=W.Layout(width="260px"))
        self.map_output = W.Output()
        self.map_image = W.Image(format="png", layout=W.Layout(width="960px"))
        self.matrix_output = W.Output()
        self.table = W.HTML()
        self.summary = W.HTML()

        self.map_figure = new_figure(10, 4.8, dpi=96)
        self.drawing: BoardDrawing = draw_board(board_, None, ax=self.map_figure.add_subplot(),
                                                sight_legend=True)
        self.clicks = ClickMap(board_, self.drawing.ax)
        self._click_listener = attach_clicks(self.map_image, self.click)
        self.matrix_figure = new_figure(3.6, 3.2)
        self.matrix_ax = self.matrix_figure.add_subplot()
        self.matrix_image = None
        self.report: dict[str, Any] = {}
        self.hiding_places: tuple[str, ...] = ()

        controls = W.VBox([*self.pawn_pickers.values(), self.doctor_picker, self.cat_picker,
                           self.eyes_picker, self.hiding_box, self.click_picker])
        super().__init__([
            W.HBox([controls, self.matrix_output]),
            self.cat_blocks_picker,
            self.map_image,
            self.summary,
            self.table,
        ])
        for widget in [*self.pawn_pickers.values(), self.doctor_picker, self.cat_picker,
                       self.cat_blocks_picker, self.eyes_picker, self.hiding_box]:
            widget.observe(self._changed, names="value")
        self.refresh()

    # -- state -------------------------------------------------------------------------------
    @property
    def pawns(self) -> dict[str, str]:
        """Pawn name -> space, as the dropdowns say."""
        return {name: picker.value for name, picker in self.pawn_pickers.items()}

    def place(self, pawn: str, space: str | None) -> None:
        """Move a pawn (a name, ``"Doctor Lucky"`` or ``"cat"``) to ``space``, as a student
        would with the dropdown."""
        picker = {DOCTOR: self.doctor_picker, "cat": self.cat_picker}.get(pawn) \
            or self.pawn_pickers[pawn]
        picker.value = space if space is None else self.board.check(space)

    def click(self, event: Mapping[str, Any]) -> str | None:
        """An ipyevents click on the map: put the pawn chosen in ``click_picker`` on the
        space under the pointer. Returns that space (None for a click beside the spaces)."""
        space = self.clicks.space_at(event)
        if space is not None:
            self.place(self.click_picker.value, space)
        return space

    def _changed(self, change: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Ask the engine again and redraw everything."""
        board = self.board
        pawns = self.pawns
        doctor = self.doctor_picker.value
        cat = self.cat_picker.value
        mode = self.cat_blocks_picker.value
        self.report = self._sight_report(board, pawns, doctor=doctor, cat=cat, cat_blocks=mode)
        if self.hiding_box.value:
            # "Where could one more pawn hide?" is the engine's own question: would a pawn
            # there be allowed to draw (I-DRAW-1)?
            probe = "you (a probe)"
            self.hiding_places = tuple(
                s for s in board.spaces
                if self._sight_report(board, {**pawns, probe: s}, doctor=doctor, cat=cat,
                                      cat_blocks=mode)[probe].may_draw)
        else:
            self.hiding_places = ()
        self.drawing.update({"pawns": pawns, "doctor": doctor, "cat": cat, "cat_blocks": mode},
                            sight_of=self.eyes_picker.value, highlight=self.hiding_places)
        self.map_image.value = self.drawing.render_png()

        everyone = [*pawns, DOCTOR]
        rows = {name: row.sees for name, row in self.report.items()}
        # Doctor Lucky's row: he sees whoever sees him (sight is symmetric, I-SIGHT-1);
        # read from the report so no sight rule is computed here.
        rows[DOCTOR] = {name for name, row in self.report.items() if DOCTOR in row.seen_by}
        if self.matrix_image is None:
            _, _, self.matrix_image = draw_sight_matrix(rows, ax=self.matrix_ax, order=everyone)
        else:  # same pawns, same axes: only the cells change
            self.matrix_image.set_data(sight_matrix(rows, everyone)[1])
        show_figure(self.matrix_output, self.matrix_figure)

        self.table.value = html_table(
            ["pawn", "space", "sees", "seen by", "may draw?", "may attack?", "why"],
            [[name, space_label(board, pawns[name]), ", ".join(sorted(row.sees)) or "nobody",
              ", ".join(sorted(row.seen_by)) or "nobody", "yes" if row.may_draw else "no",
              "yes" if row.may_attack else "no", row.reason]
             for name, row in self.report.items()])
        hiding = ""
        if self.hiding_box.value:
            hiding = (f" Ringed: the {len(self.hiding_places)} spaces where one more pawn would "
                      "be seen by nobody.")
        cat_text = "no cat" if cat is None else f"the cat in {space_label(board, cat)}"
        self.summary.value = html.escape(
            f"Doctor Lucky in {space_label(board, doctor)}, {cat_text}.{hiding}")
