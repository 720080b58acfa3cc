"""Save Doctor Lucky's fused turns: the default bot (``rider``) deciding and the rules applying
without building action lists, re-checking or dispatching.

:mod:`luckylab.games.save.rules` is the reference that students read; this module plays the
same games faster and is tested equal to it, action for action and draw for draw
(``tests/test_fused.py``). ``SaveGame.play_out`` uses it for a quiet game of exactly
``SaveGame`` (not a subclass: a house rule plays through the rules, see
:func:`luckylab.games.fused.plays_as_written`) in which every seat is the default bot
(:mod:`luckylab.games.fused`). Each decision is made here from the game's own
tables and applied by the reference's own step for it (``_do_snoop`` ...), so the sinking ship,
Doctor Lucky's moves and the failure rounds stay the reference's.

What the bot does (``luckylab.agents.save.TrainRiderAgent``):

- with a witness in Doctor Lucky's room, try a rescue if it is worth 3 or more (its best Aid)
  or half the ship has sunk;
- else, if its best Aid would make an attempt in his room worth 3 (or half the ship has sunk),
  take the free step or play a Move card that puts it with him before a witness;
- else snoop towards the room he goes to next (end the turn once it has moved);
- asked in a failure round: stop the attempt when it must (``S-FAIL-3``) or when the players
  after it hold fewer than two cards per point still needed; else pass.

>>> from luckylab.games.save import SaveGame
>>> game = SaveGame(players=4, seed=2)
>>> game.quieten()
>>> play_out(game)
>>> game.is_over, len(game.history) > 0
(True, True)
"""

from __future__ import annotations

from typing import Any

from ..fused import shared_action
from .actions import ACTIONS

__all__ = ["PLAYS", "play_out"]

PLAYS: dict[str, tuple[Any, ...]] = {}
"""The choices a bot's ``fused_profile`` may set: none, only the default bot's play is fused."""

GOOD_ATTEMPT = 3  # TrainRiderAgent.good_attempt


class _Actions:
    """The action classes (``Snoop, Step, PlayMove, Rescue, EndTurn, Foil``) and remembered
    instances of them (actions are frozen values)."""

    def __init__(self, actions: tuple[type, ...] = ACTIONS) -> None:
        self.snoop, self.step, self.play, self.rescue, end_turn, self.foil = actions
        self.end_turn, self.pass_ = end_turn(), self.foil(())
        self.made: dict[tuple[Any, ...], Any] = {}

    def make(self, cls: type, *fields: Any) -> Any:
        return shared_action(self.made, cls, *fields)


_MADE = _Actions()
_COVERS: dict[tuple[Any, ...], tuple[int, ...] | None] = {}


def play_out(game: Any) -> None:
    """Play a quiet ``SaveGame`` of default bots to its end."""
    made = _MADE
    history = game.history
    while game.phase != "over":
        seat = game._decider
        if game.phase == "foil":
            action = _foil(game, seat, made)
            history.append(action)
            _pay(game, seat, action.cards)
            continue
        action = _decide(game, seat, made)
        history.append(action)
        kind = type(action)
        if kind is made.snoop:
            game._do_snoop(seat, action)
        elif kind is made.step:
            game._do_step(seat, action)
        elif kind is made.play:
            game._do_move_card(seat, action)
        elif kind is made.rescue:
            game._do_rescue(seat, action)
        else:
            game._do_end(seat, action)


def _seen(game: Any, seat: int, space: str) -> bool:
    """Whether another player sees ``space`` (``witnesses(seat, space)`` is not empty)."""
    vis, positions = game._t.vis, game.positions
    for s in game.seats:  # noqa: SIM110 - a loop, not a generator, on the hot path
        if s != seat and space in vis[positions[s]]:
            return True
    return False


def _best_aid(game: Any, seat: int, room: str) -> tuple[int, int | None]:
    """``luckylab.agents.save.best_aid``: the first Aid worth most in ``room``, and its value."""
    best, aid = 1, None
    aids, cards = game._aids, game.cards
    for c in game.hands[seat]:
        if c in aids:
            value = cards[c].weapon_value(room)
            if value > best:
                best, aid = value, c
    return best, aid


def _decide(game: Any, seat: int, made: _Actions) -> Any:
    """The bot's action on its own turn."""
    late = len(game.afloat) <= len(game.decks) // 2
    here, doctor = game.positions[seat], game.doctor
    if here == doctor and _seen(game, seat, here):  # a rescue may be tried (S-SAVE-1)
        value, aid = _best_aid(game, seat, here)
        if value >= GOOD_ATTEMPT or late:
            return made.make(made.rescue, aid)
    elif late or _best_aid(game, seat, doctor)[0] >= GOOD_ATTEMPT:
        move = _setup_move(game, seat, here, doctor, made)
        if move is not None:
            return move
    if game.phase != "turn":  # snoop towards his next room, or end an active turn
        return made.end_turn
    room, dist = game.doctor_next(), game.board.distance
    best, best_key = here, (dist(here, room), False)
    for to in game._t.exits[here]:
        key = (dist(to, room), True)
        if key < best_key:
            best, best_key = to, key
    return made.make(made.snoop, best)


def _setup_move(game: Any, seat: int, here: str, doctor: str, made: _Actions) -> Any:
    """``luckylab.agents.save.setup_move``: the free step, else a Move card, that ends with
    Doctor Lucky before a witness; None if there is none."""
    if not game.step_used and doctor in game._t.exits[here] and _seen(game, seat, doctor):
        return made.make(made.step, doctor)
    moves = game._moves
    for card in game.hands[seat]:
        if card not in moves:
            continue
        if doctor in game.move_destinations(card, here) and _seen(game, seat, doctor):
            return made.make(made.play, card, "self", doctor)
        if here in game.move_destinations(card, doctor) and _seen(game, seat, here):
            return made.make(made.play, card, "doctor", here)
    return None


def _foil(game: Any, seat: int, made: _Actions) -> Any:
    """``TrainRiderAgent._foil``: stop the attempt when it must, or when the players after it
    look short of cards; else pass."""
    attempt, rules, hand = game.attempt, game._foiling, game.hands[seat]
    block = _cheapest(rules, hand, attempt, made)
    may_pass = not rules.must_stop(hand, attempt)
    if block is None:
        return made.pass_ if may_pass else game.legal_actions()[0]
    if not may_pass:
        return block
    hands = game.hands
    cards_behind = sum(len(hands[s]) for s in attempt.order[len(attempt.asked) + 1:])
    return block if cards_behind < 2 * attempt.needed else made.pass_


def _pay(game: Any, seat: int, cards: tuple[int, ...]) -> None:
    """``SaveGame._do_foil`` for a quiet game: pay, then the attempt fails, goes on to the
    next player, or succeeds."""
    attempt, hand, values = game.attempt, game.hands[seat], game._foiling.values
    points = sum([values[c] for c in cards])
    if points < attempt.stop - attempt.paid <= sum([v for v in map(values.__getitem__, hand)
                                                     if v]):
        attempt.loser = seat  # S-FAIL-2: the last who could have stopped it
    attempt.paid += points
    attempt.asked.append((seat, cards))
    for c in cards:
        hand.remove(c)
        game.discards.append(c)
    if attempt.foiled:
        game._log_attempt(attempt, foiled_by=seat)
        game.attempt = None
        game._between_turns()
        return
    nxt = attempt.next_seat
    if nxt is not None:
        game._decider = nxt
        return
    game._log_attempt(attempt, foiled_by=None)  # nobody stopped it: rescued
    game.winner = attempt.rescuer
    game.loser = attempt.loser if game.loser_award else None
    game.finished, game.end_reason, game.phase, game._decider = True, "rescued", "over", None


def _cheapest(rules: Any, hand: list[int], attempt: Any, made: _Actions) -> Any:
    """``rules.cheapest(hand, attempt)``, remembered by the values of the cards that count (in
    id order), the points needed and whether the player must stop the attempt."""
    values = rules.values
    cards = sorted([c for c in hand if values[c]])
    needed = attempt.needed
    key = (rules, tuple([values[c] for c in cards]), needed,
           rules.last_must_stop and attempt.is_last_asked)
    places = _COVERS.get(key, _UNKNOWN)
    if places is _UNKNOWN:
        found = rules.cheapest(hand, attempt)
        places = None if found is None else tuple(cards.index(c) for c in found.cards)
        if len(_COVERS) >= 20_000:
            _COVERS.clear()
        _COVERS[key] = places
    if places is None:
        return None
    return made.make(made.foil, tuple(sorted([cards[i] for i in places])))


_UNKNOWN: Any = object()
