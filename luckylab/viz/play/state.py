"""What the play table reads of a game to show it (never to decide what may be done).

Everything the table offers comes from the engine's ``choices()``; everything it shows of the
state comes from one seat's ``observation(seat)`` (plain data: its own hand, the others' hand
sizes, where the pawns stand, the phase, a foiling round's needs), so the table can show no
card that seat may not see. These few readers name the entries it uses.

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=4)
>>> obs = seen(game, 0)
>>> live_seats(game), where(obs, 0) == game.position[0], sorted(hand(obs)) == sorted(game.hands[0])
([0, 1, 2], True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["full_board", "hand", "hand_size", "live_seats", "needed", "phase", "seen", "where"]


def seen(game: Any, seat: int) -> Mapping[str, Any]:
    """What ``seat`` may know now (the data of ``game.observation(seat)``)."""
    return game.observation(seat).data  # type: ignore[no-any-return]


def live_seats(game: Any) -> list[int]:
    """The seats that players (people or bots) sit in, in seat order (not Island's
    Strangers)."""
    strangers = set(seen(game, 0).get("strangers", ()))
    return [s for s in range(game.num_seats) if s not in strangers]


def where(obs: Mapping[str, Any], seat: int) -> str:
    """The space of ``seat``'s pawn."""
    return str(obs["positions"][seat])


def hand(obs: Mapping[str, Any]) -> list[int]:
    """The card ids in the observing seat's own hand."""
    return list(obs["hand"])


def hand_size(obs: Mapping[str, Any], seat: int) -> int:
    """How many cards ``seat`` holds."""
    return int(obs["hand_sizes"][seat])


def phase(obs: Mapping[str, Any]) -> str:
    """The game's phase, for the title ("" for a game without phases)."""
    return str(obs.get("phase", ""))


def full_board(game: Any, picture: str) -> Any:
    """The whole map the game is played on, as the table's ``picture`` shows it: a ship's sunk
    rooms included (Save's view's ``ship``), else the board."""
    view = game.view()  # the map is public
    return view.ship if picture == "ship" else view.board


def needed(obs: Mapping[str, Any], payment: Any) -> int | None:
    """The points ``payment`` (a foiling payment or a penalty) is asked to reach now; None
    when the observation does not say."""
    if getattr(type(payment), "type_name", "") == "discard":
        penalty = obs.get("penalty")
        return None if not penalty else int(penalty["value"])
    for name in ("foil", "rescue"):
        round_ = obs.get(name)
        if round_ and "needed" in round_:
            return int(round_["needed"])
    return None
