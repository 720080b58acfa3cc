"""What a Doctor Who seat may see, computed from the true state: the tests' oracle for
``observation(seat)`` and for the seat view widget."""

from __future__ import annotations


def allowed(game, seat: int) -> set[int]:
    """The cards ``seat`` may see: its hand and reserve, its own face-down cards, everything
    face up, the discards, what it passed and received."""
    ok = set(game.hands[seat]) | set(game.reserves[seat]) | set(game.discard)
    ok |= set(game.set_aside) | set(game.passed[seat]) | set(game.received[seat])
    for up in game.reserve_up:
        ok |= set(up)
    for lid, loc in game.locs.items():
        ok.add(lid)
        ok |= loc.up
        if loc.owner == seat or (game.conflict is not None and game.conflict.loc == lid):
            ok |= set(loc.defenders)  # a conflict waiting for a decision has them face up
        if loc.attacker == seat:
            ok |= set(loc.enemies)
    return ok
