"""What the play table reads of a game to show it (never to decide what may be done).

Everything the table offers comes from the engine's ``choices()``; these few readers give the
pictures and the tables their facts: the seats, where a pawn stands, a hand, the phase, the
points a payment is asked for. They read the engines' public attributes, each in one place.

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=4)
>>> live_seats(game), where(game, 0) == game.position[0], phase(game)
([0, 1, 2], True, 'turn')
"""

from __future__ import annotations

from typing import Any

__all__ = ["full_board", "hand", "is_stranger", "live_seats", "needed", "phase", "where"]


def is_stranger(game: Any, seat: int) -> bool:
    """True for a seat no person or bot plays (an Island Stranger)."""
    check = getattr(game, "is_stranger", None)
    return bool(check(seat)) if check is not None else False


def live_seats(game: Any) -> list[int]:
    """The seats that players (people or bots) sit in, in seat order."""
    return [s for s in range(game.num_seats) if not is_stranger(game, s)]


def where(game: Any, seat: int) -> str:
    """The space of ``seat``'s pawn."""
    positions = getattr(game, "position", None)
    if positions is None:
        positions = game.positions
    return str(positions[seat])


def hand(game: Any, seat: int) -> list[int]:
    """The card ids in ``seat``'s hand (shown only to that seat)."""
    return list(game.hands[seat])


def phase(game: Any) -> str:
    """The game's phase, for the title ("" for a game without phases)."""
    return str(getattr(game, "phase", ""))


def full_board(game: Any) -> Any:
    """The whole map the game is played on (a ship's sunk rooms included)."""
    return getattr(game, "ship", None) or game.board


def needed(game: Any, payment: Any) -> int | None:
    """The points ``payment`` (a foiling payment or a penalty) is asked to reach now; None
    when the game does not say."""
    if getattr(type(payment), "type_name", "") == "discard":
        return getattr(game, "penalty_value", None)
    for name in ("foil", "attempt"):
        round_ = getattr(game, name, None)
        if round_ is not None and hasattr(round_, "needed"):
            return int(round_.needed)
    return None
