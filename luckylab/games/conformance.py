"""Checks that a game keeps the protocol (:mod:`luckylab.games.protocol`), through it alone.

After OpenSpiel's ``random_sim_test``: seeded random playouts to the end, and at chosen moments
the promises a consumer relies on:

- ``legal_actions()`` is empty exactly when ``is_over`` (and ``current_player`` is ``None``);
- every listed action has an id in ``range(num_distinct_actions)`` that round-trips, distinct
  ids for distinct actions; ``choices()`` groups exactly the listed actions;
- a refused action (an id of an action not legal now) raises a
  :class:`~luckylab.errors.LuckyLabError` and leaves ``state_digest()`` and ``record()`` as they
  were;
- a clone is independent; ``record()`` replays into the same ``state_digest()``;
- every event kind is in :data:`~luckylab.games.protocol.EVENT_KINDS`, and a finished game's
  last event is ``"game_over"`` or ``"turn_cap"``;
- ``observation(seat)`` is plain data, and equal on ``determinize(seat, rng)``: whatever is
  hidden from a seat can be dealt anew without the seat seeing a difference (an observation that
  leaks another seat's hidden cards changes when they are dealt anew, and is caught);
- a seat's world (:func:`~luckylab.games.shown.seat_world`, what a tournament shows a bot)
  depends only on what the seat may know: made from a game with other secrets (the hidden
  cards dealt anew, another seed, another generator) with the same generator, it is the very
  same world;
- ``returns()`` has one number per seat, all zero before the end;
- ``view(seat)`` is that seat's :class:`~luckylab.games.protocol.SeatView` (its own hand
  shown, another's refused) and ``view()`` the open table.

>>> check_game("kill", players=2, seeds=[1], every=25)  # raises AssertionError on a breach
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ..errors import HiddenInformation, LuckyLabError
from .protocol import EVENT_KINDS, GameState, Observation, SeatView
from .record import replay
from .shown import seat_world

__all__ = ["check_game", "check_state", "play_random"]

MAX_ACTIONS = 20_000
"""A random playout longer than this is a breach (a game that cannot end)."""


def play_random(game: Any, rng: random.Random,
                visit: Callable[[Any, int], None] | None = None) -> Any:
    """Play ``game`` to the end choosing uniformly among ``legal_actions()``; ``visit(game, k)``
    sees the state before the ``k``-th action and at the end."""
    for k in range(MAX_ACTIONS):
        if visit is not None:
            visit(game, k)
        actions = game.legal_actions()
        if not actions:
            break
        events = game.apply(rng.choice(actions))
        for event in events:
            assert event.kind in EVENT_KINDS, f"event kind {event.kind!r} is not in EVENT_KINDS"
    else:
        raise AssertionError(f"{game.game_name}: no end after {MAX_ACTIONS} random actions")
    if visit is not None:
        visit(game, -1)
    return game


def check_game(game_name: str, players: int, seeds: Iterable[int], *, every: int = 10,
               new_game: Callable[..., Any] | None = None, **options: Any) -> None:
    """Random playouts of ``game_name`` from each seed, with :func:`check_state` on every
    ``every``-th state and the last; raises :class:`AssertionError` naming the breach."""
    if new_game is None:
        from .registry import new_game
    for seed in seeds:
        game = new_game(game_name, players=players, seed=seed, **options)
        rng = random.Random(seed)
        hidden = False

        def visit(state: Any, k: int, seed: int = seed) -> None:
            nonlocal hidden
            if k == -1 or k % every == 0:
                try:
                    hidden = check_state(state, random.Random(seed * 7919 + k)) or hidden
                except AssertionError as exc:
                    raise AssertionError(f"{game_name} {players}p seed {seed} before action "
                                         f"{k}: {exc}") from None

        play_random(game, rng, visit)
        assert game.is_over, f"{game_name} seed {seed}: the playout stopped before the end"
        events = getattr(game, "events", None)
        if events:
            assert events[-1].kind in ("game_over", "turn_cap"), (
                f"{game_name} seed {seed}: the last event is {events[-1].kind!r}, not "
                "'game_over' or 'turn_cap'")
        if getattr(game, "hidden_information", True):
            assert hidden, (f"{game_name} seed {seed}: determinize never dealt anything anew "
                            "that another seat could see (or the game hides nothing: then set "
                            "hidden_information = False on its class)")
        again = replay(game.record(), new_game=new_game)
        assert again.state_digest() == game.state_digest(), "replay differs"


def check_state(game: Any, rng: random.Random) -> bool:
    """The protocol's promises about one state (see the module docstring). Returns True when
    dealing anew what some seat cannot see changed what another seat sees (the game has hidden
    information here, and ``determinize`` really deals it anew)."""
    assert isinstance(game, GameState), f"{type(game).__name__} lacks part of the protocol"
    legal = game.legal_actions()
    over = game.is_over
    assert (not legal) == over, f"is_over={over} but {len(legal)} legal actions"
    player = game.current_player
    assert (player is None) == over, f"is_over={over} but current_player={player!r}"
    if not over:
        assert 0 <= player < game.num_seats, f"current_player {player} is no seat"

    returns = game.returns()
    assert len(returns) == game.num_seats, "returns() needs one number per seat"
    assert all(isinstance(r, float) for r in returns), "returns() are floats"
    if not over:
        assert not any(returns), "returns() are zero before the end"

    size = game.num_distinct_actions
    ids = [game.action_id(a) for a in legal]
    assert all(type(i) is int and 0 <= i < size for i in ids), "an action id out of range"
    assert len(set(ids)) == len(ids), "two legal actions share an id (or one is listed twice)"
    for action, i in zip(legal, ids, strict=True):
        assert game.action_from_id(i) == action, f"id {i} does not round-trip {action!r}"
    grouped = [a for group in game.choices() for a in group.actions]
    assert sorted(map(game.action_id, grouped)) == sorted(ids), "choices() != legal_actions()"

    digest, record = game.state_digest(), game.record(digest=False)
    if legal:
        taken = set(ids)
        for _ in range(5):
            i = rng.randrange(size)
            if i in taken:
                continue
            try:
                game.apply(game.action_from_id(i))
            except LuckyLabError:
                pass
            else:
                raise AssertionError(f"apply accepted id {i} ({game.action_from_id(i)!r}), "
                                     "which legal_actions() does not list")
            assert game.state_digest() == digest, "a refused action changed the state"
            assert game.record(digest=False) == record, "a refused action changed the record"

    twin = game.clone()
    if legal:
        twin.apply(legal[0])
        assert game.state_digest() == digest and game.record(digest=False) == record, (
            "applying an action to a clone changed the original")

    hidden = False
    seen = [game.observation(s).key() for s in range(game.num_seats)]
    for seat in range(game.num_seats):
        obs = game.observation(seat)
        assert isinstance(obs, Observation) and obs.seat == seat, "observation(seat) type"
        assert isinstance(obs.text, str), "observation text"
        key = obs.key()  # plain data or TypeError
        world = game.determinize(seat, random.Random(rng.getrandbits(32)))
        assert world.observation(seat).key() == key, (
            f"seat {seat}'s observation changes when what it cannot see is dealt anew: it "
            "shows something hidden from that seat")
        if seat == player:
            assert [world.action_id(a) for a in world.legal_actions()] == ids, (
                "the legal actions change when what the player cannot see is dealt anew")
        assert game.state_digest() == digest, "determinize changed the original"
        hidden = hidden or any(world.observation(s).key() != seen[s]
                               for s in range(game.num_seats) if s != seat)
        _check_view(game, seat)
        if not over:
            _check_seat_world(game, seat, rng)
    return hidden


def _check_seat_world(game: Any, seat: int, rng: random.Random) -> None:
    """The world a tournament shows ``seat`` passes on nothing the seat may not know."""
    other = game.determinize(seat, random.Random(rng.getrandbits(32)))
    other.seed, other.rng = rng.getrandbits(32), random.Random(rng.getrandbits(32))
    deal = rng.getrandbits(32)
    mine = seat_world(game, seat, random.Random(deal)).__dict__
    theirs = seat_world(other, seat, random.Random(deal)).__dict__
    for key in mine.keys() | theirs.keys():
        a, b = mine.get(key, "(none)"), theirs.get(key, "(none)")
        if isinstance(a, random.Random) and isinstance(b, random.Random):
            a, b = a.getstate(), b.getstate()
        assert a == b, (
            f"seat {seat}'s world differs in {key!r} between two games it cannot tell apart: "
            "it passes on something the seat may not know (or determinize deals from an "
            "order the seat cannot see: deal from a sorted pool)")


def _check_view(game: Any, seat: int) -> None:
    """``view(seat)`` is a :class:`SeatView` of that seat and ``view()`` the open table; a
    view with hands shows the seat its own and refuses another's."""
    view, table = game.view(seat), game.view()
    assert isinstance(view, SeatView) and view.seat == seat, "view(seat) is that seat's view"
    assert isinstance(table, SeatView) and table.seat is None, "view() is the open table"
    if hasattr(view, "hand_of"):
        assert view.hand_of(seat) == table.hand_of(seat), "a seat's view shows its own hand"
        for other in range(game.num_seats):
            if other != seat:
                try:
                    view.hand_of(other)
                except HiddenInformation:
                    continue
                raise AssertionError(f"seat {seat}'s view shows seat {other}'s hand")
