"""Staging Kill Doctor Lucky positions for rule tests (a test helper, not a test module).

A staged game starts from a real seeded game and then moves pawns and cards by hand, always
taking each card from wherever it is, so the 96 cards stay accounted for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from luckylab.games.kill import KillGame


def snapshot(game: KillGame) -> tuple:
    """Everything an action could change, as comparable data."""
    return (
        game.phase, game.current_player, game.active, game.doctor, dict(game.position),
        {s: list(h) for s, h in game.hands.items()}, list(game.deck), list(game.discards),
        list(game.removed), game.stepped, game.turn, len(game.history), len(game.events),
        game.winner, game.finished, game.rng.getstate(),
        None if game.foil is None else (game.foil.total, list(game.foil.asked)),
    )


def card_ids(game: KillGame, name: str) -> list[int]:
    """Ids of the cards called ``name`` ("Move-1", "Failure 3", "Billiard Cue", "Kitchen")."""
    ids = [c.id for c in game.cards if c.name == name]
    assert ids, f"no card called {name!r}"
    return ids


def take(game: KillGame, card: int) -> None:
    """Remove ``card`` from wherever it is."""
    for pile in (game.deck, game.discards, game.removed, *game.hands.values()):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"card {card} is nowhere")


def staged(
    players: int = 4,
    seed: int = 0,
    *,
    turn_of: int = 0,
    positions: Mapping[int, str] | None = None,
    doctor: str | None = None,
    hands: Mapping[int, Iterable[str]] | None = None,
) -> KillGame:
    """A game at the start of ``turn_of``'s turn with pawns and hands as given.

    ``hands`` maps seats to card names; those seats' old cards go back to the deck (on top of
    the deck order, which stays seeded).
    """
    game = KillGame(players=players, seed=seed)
    for seat, where in (positions or {}).items():
        game.position[seat] = where
    if doctor is not None:
        game.doctor = doctor
    hands = hands or {}
    for seat in hands:
        game.deck.extend(game.hands[seat])
        game.hands[seat] = []
    for seat, names in hands.items():
        for name in names:
            # Prefer a copy nobody holds; else take it from an unstaged player's hand.
            ids = [c for c in card_ids(game, name)
                   if not any(c in game.hands[s] for s in hands)]
            loose = [c for c in ids if not any(c in h for h in game.hands.values())]
            card = (loose or ids)[0]
            take(game, card)
            game.hands[seat].append(card)
    game.active = turn_of
    game._decider = turn_of  # staging only: the turn of a chosen seat
    game.phase = "turn"
    game.stepped = False
    return game


def all_cards_once(game: KillGame) -> bool:
    """Every one of the 96 cards is in exactly one place."""
    places = [c for pile in game.card_places().values() for c in pile]
    return sorted(places) == list(range(len(game.cards)))
