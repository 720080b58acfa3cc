"""Replaying a game record: the same seed and actions give the same game, or a clear error.

:meth:`luckylab.games.base.GameBase.record` writes a record (game, players, seed, options,
actions, and the pins: package version, board and deck hashes, action count, the inputs' and
the final state's digests); :func:`replay` plays it back and checks every pin. This module sits
above the engines (it starts games through :mod:`luckylab.games.registry`), so
``luckylab.games.base`` never imports the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._version import __version__
from ..errors import LuckyLabError, ReplayError
from .base import GameBase, _is_int, _sha256, board_sha256, inputs_sha256
from .registry import new_game as registered_game

__all__ = ["replay"]


def replay(record: Mapping[str, Any], *, check_version: bool = True,
           upto: int | None = None, new_game: Callable[..., Any] | None = None) -> GameBase:
    """Play a :meth:`GameBase.record` back: the same seed and actions give the same game.

    ``upto=k`` stops after the first ``k`` actions: the game as it stood then (to look at a
    moment of a saved game). The whole record is still checked for truncation; only the final
    state's digest is not compared, since the game stops early.

    Raises :class:`~luckylab.errors.ReplayError` when the record is malformed, was made with
    another luckylab version (unless ``check_version=False``), another board or card list,
    is truncated, has an action the game refuses (``index`` names the entry), or replays into
    a different final state than it recorded. Records without the pins (older ones) replay
    with the checks they allow.

    ``new_game`` starts the game (default: the registered games' ``new_game``); pass your own
    to replay a game that is not registered (``docs/adding-a-game.md``).

    >>> from luckylab import new_game
    >>> game = new_game("kill", players=3, seed=4)
    >>> for _ in range(5):
    ...     _ = game.apply(game.legal_actions()[0])
    >>> replay(game.record(), upto=2).history == game.history[:2]
    True
    """
    if new_game is None:
        new_game = registered_game

    if not isinstance(record, Mapping):
        raise ReplayError(f"a record is a dict from GameBase.record(), not {type(record).__name__}")
    missing = [k for k in ("game", "players", "seed", "actions") if k not in record]
    if missing:
        raise ReplayError(f"the record lacks {', '.join(missing)}")
    options = record.get("options", {})
    actions = record["actions"]
    if not isinstance(options, Mapping) or not isinstance(actions, list):
        raise ReplayError("the record's options must be a dict and its actions a list")
    version = record.get("luckylab")
    if check_version and version is not None and version != __version__:
        raise ReplayError(f"the record was made with luckylab {version}; this is {__version__} "
                          "(rules may differ; replay(record, check_version=False) tries anyway)")
    count = record.get("action_count")
    if count is not None and (not _is_int(count) or count != len(actions)):
        raise ReplayError(f"the record is truncated or padded: it says {count!r} actions and "
                          f"lists {len(actions)}")
    if upto is not None and not (_is_int(upto) and 0 <= upto <= len(actions)):
        raise ReplayError(f"upto must be a whole number from 0 to {len(actions)} (the record's "
                          f"actions), not {upto!r}")
    try:
        game = new_game(record["game"], players=record["players"], seed=record["seed"],
                        **options)
    except LuckyLabError as exc:
        raise ReplayError(f"the recorded game cannot start: {exc}") from None
    for key, now in (("board_sha256", lambda: board_sha256(game._start_board())),
                     ("deck_sha256", lambda: _sha256(repr(tuple(getattr(game, "cards", ())))))):
        if key in record and record[key] != now():
            what = "board" if key.startswith("board") else "card list"
            raise ReplayError(f"the record was made on another {what} than this one "
                              f"({key} differs): its data file was changed")
    action_type = getattr(game, "action_from_data", None)
    for i, data in enumerate(actions if upto is None else actions[:upto]):
        try:
            game.apply(action_type(data) if action_type else data)
        except LuckyLabError as exc:
            raise ReplayError(f"{data!r} is refused: {exc}", index=i) from None
    digest = record.get("final_sha256")
    if upto is None and digest is not None and digest != game.state_digest():
        raise ReplayError("the replayed game ends in another state than the one recorded "
                          "(final_sha256 differs): an action, the seed or an option was edited")
    pinned = record.get("inputs_sha256")
    if pinned is not None and pinned != inputs_sha256(record):
        raise ReplayError("the record's game, seed, options or actions were edited after it "
                          "was made (inputs_sha256 differs)")
    return game
