"""Save Doctor Lucky's fused turns: the default bot (``rider``) deciding and the rules applying
without building action lists, re-checking or dispatching.

:mod:`luckylab.games.save.rules` is the reference that students read; this module plays the
same games faster and is tested equal to it, action for action and draw for draw
(``tests/test_fused.py``). ``SaveGame.play_out`` uses it for a quiet game of exactly
``SaveGame`` (not a subclass: a house rule plays through the rules, see
:func:`luckylab.games.fused.plays_as_written`) in which every seat is the default bot
(:mod:`luckylab.games.fused`). Each decision is made here from the game's own
tables and applied by the reference's own step for it (``_do_snoop`` ...), so the sinking ship
and Doctor Lucky's moves stay the reference's; a failure round's answer is decided and paid in one
step (``_failure_round``, the reference's ``_do_foil`` for a quiet game). What depends only on the
board or the cards held is remembered across games: the snooping step from a room towards a room
(per board of the sinking ship) and the cheapest discard for the Failure points held and needed.

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
        self.foils: dict[tuple[int, ...], Any] = {}  # discards, by their cards

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
            _failure_round(game, seat, made, history)
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
    t, room = game._t, game._doctor_target()  # game.doctor_next(): his next room
    key = (t, here, room)
    action = _SNOOP_TOWARDS.get(key)
    if action is None:
        if len(_SNOOP_TOWARDS) >= 20_000:
            _SNOOP_TOWARDS.clear()
        action = _SNOOP_TOWARDS[key] = made.snoop(_snoop_to(game.board, t, here, room))
    return action


def _snoop_to(board: Any, t: Any, here: str, room: str) -> str:
    """``luckylab.agents.save.snoop_towards``: the exit closest to ``room``, staying put on a
    tie (its min over (distance, moved)): an exit replaces the best so far only when strictly
    closer. The same on every game on this board, so remembered (``_SNOOP_TOWARDS``)."""
    dist = board.distance
    best, best_dist = here, dist(here, room)
    for to in t.exits[here]:
        d = dist(to, room)
        if d < best_dist:
            best, best_dist = to, d
    return best


_SNOOP_TOWARDS: dict[tuple[Any, str, str], Any] = {}
"""(the board's tables, a room, Doctor Lucky's next room) -> the bot's Snoop from there."""


def _setup_move(game: Any, seat: int, here: str, doctor: str, made: _Actions) -> Any:
    """``luckylab.agents.save.setup_move``: the free step, else a Move card, that ends with
    Doctor Lucky before a witness; None if there is none."""
    if not game.step_used and doctor in game._t.exits[here] and _seen(game, seat, doctor):
        return made.make(made.step, doctor)
    moves, reach = game._moves, game._destinations  # game.move_destinations(c, start): [1]
    for card in game.hands[seat]:
        if card not in moves:
            continue
        if doctor in reach(card, here)[1] and _seen(game, seat, doctor):
            return made.make(made.play, card, "self", doctor)
        if here in reach(card, doctor)[1] and _seen(game, seat, here):
            return made.make(made.play, card, "doctor", here)
    return None


def _failure_round(game: Any, seat: int, made: _Actions, history: list[Any]) -> None:
    """One answer in a failure round: the bot's (``TrainRiderAgent._foil``: stop the attempt
    when it must, or when the players after it look short of cards; else pass), then
    ``SaveGame._do_foil`` for a quiet game (pay; the attempt fails, goes on to the next player,
    or succeeds). The cheapest discard is looked for only when the bot would play it."""
    attempt, rules, hand = game.attempt, game._foiling, game.hands[seat]
    values = rules.values
    held = sum([v for v in map(values.__getitem__, hand) if v])  # Failure points held
    stop, order, asked = attempt.stop, attempt.order, attempt.asked  # stop: the value
    short = stop - attempt.paid
    needed = short if short > 0 else 0  # attempt.needed
    must = rules.last_must_stop and len(asked) == len(order) - 1  # ... and is_last_asked
    action: Any = None
    if held < needed:  # it cannot stop the attempt (rules.cheapest: None), so it passes
        action = made.pass_
    elif not must:  # it may pass (S-FAIL-3): it does if the players after it look well off
        hands, behind = game.hands, 0
        for s in order[len(asked) + 1:]:
            behind += len(hands[s])
        if behind >= 2 * needed:
            action = made.pass_
    if action is None:  # it stops the attempt if it can, with the cheapest discard
        cards = sorted([c for c in hand if values[c]])  # the Failure cards held, by id
        # rules.cheapest(hand, attempt), remembered by the values of the Failure cards held
        # (in id order), the points needed and whether the player must stop the attempt
        key = (rules, tuple([values[c] for c in cards]), needed, must)
        places = _COVERS.get(key, _UNKNOWN)
        if places is _UNKNOWN:
            found = rules.cheapest(hand, attempt)
            places = None if found is None else tuple(cards.index(c) for c in found.cards)
            if len(_COVERS) >= 20_000:
                _COVERS.clear()
            _COVERS[key] = places
        if places is None:  # it cannot stop it: it passes (or, made to, the first discard)
            action = made.pass_ if not must else game.legal_actions()[0]
        else:
            chosen = tuple([cards[i] for i in places])  # places ascend, so the ids do
            action = made.foils.get(chosen)
            if action is None:
                if len(made.foils) >= 20_000:  # bounded, as shared_action's cache
                    made.foils.clear()
                action = made.foils[chosen] = made.foil(chosen)
    history.append(action)
    # SaveGame._do_foil, quietly
    paid = action.cards
    points_paid = sum([values[c] for c in paid])
    if points_paid < short <= held:
        attempt.loser = seat  # S-FAIL-2: the last who could have stopped it
    attempt.paid += points_paid
    asked.append((seat, paid))
    discards = game.discards
    for c in paid:
        hand.remove(c)
        discards.append(c)
    if attempt.paid >= stop:  # attempt.foiled
        game._log_attempt(attempt, foiled_by=seat)
        game.attempt = None
        game._between_turns()
        return
    if len(asked) < len(order):  # attempt.next_seat
        game._decider = order[len(asked)]
        return
    game._log_attempt(attempt, foiled_by=None)  # nobody stopped it: rescued
    game.winner = attempt.rescuer
    game.loser = attempt.loser if game.loser_award else None
    game.finished, game.end_reason, game.phase, game._decider = True, "rescued", "over", None


_UNKNOWN: Any = object()
