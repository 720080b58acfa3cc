"""Closing a play table closes every widget it made (issue 29: five closed
PlayTables used to leave 370 live widgets behind)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from ipywidgets.widgets import widget  # noqa: E402

from luckylab.viz.play import PlayTable  # noqa: E402


def live_widgets() -> int:
    """How many widgets ipywidgets (8) keeps alive: every open widget is in this registry."""
    return len(widget._instances)


@pytest.mark.parametrize(("game", "players"), [("island", 4), ("kill", 3), ("save", 4),
                                             ("panic", 3), ("doctorwho", 3)])
def test_closed_play_tables_leave_no_widget_behind(game, players):
    before = live_widgets()
    tables = [PlayTable(game, players=players, you=1, seed=seed) for seed in range(5)]
    for table in tables:  # played a little: the widgets a decision makes are closed too
        table.group_picker.value = table.group_picker.options[0]
        table.go_button.click()
        table.hint_button.click()
    assert live_widgets() > before + 5 * 20
    for table in tables:
        table.close()
    assert live_widgets() == before


def test_a_table_whose_bots_fail_leaves_no_widget_behind(monkeypatch):
    import luckylab.agents

    class Broken:
        def __init__(self, seed):
            pass

        def choose(self, game):
            raise RuntimeError("this bot is broken")

    monkeypatch.setattr(luckylab.agents, "agent_class", lambda game, name=None: Broken)
    before = live_widgets()
    with pytest.raises(RuntimeError, match="broken"):
        PlayTable("kill", players=3, you=2, seed=4)  # seat 1 (a bot) plays first
    assert live_widgets() == before
