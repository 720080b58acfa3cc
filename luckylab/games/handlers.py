"""How every engine applies an action: one table, phase by phase, of the method pairs that
check and carry out each kind of action.

An engine lists, in its class, the actions each phase accepts and the *names* of the two
methods that handle each one::

    HANDLERS = {
        "phase2": {Draw: ("_check_draw", "_do_draw"), Attack: ("_check_attack", "_do_attack")},
        "foil": {Foil: ("_check_foil", "_do_foil")},
    }

``check(seat, action)`` raises :class:`~luckylab.errors.IllegalAction` and changes nothing;
``do(seat, action)`` changes the state and says what happened with ``_say``. The names are
looked up on each class when the class is made, so **a subclass that overrides a handler is
obeyed**: a do method on every path, a check by :meth:`HandlerTable.apply` (the trusted path,
:meth:`HandlerTable.apply_trusted`, is for actions already known to be legal and checks
nothing). A house rule that forbids an action therefore goes in the rule method that both
``legal_actions()`` and the check ask (the Island's ``can_attack``, ``sight`` ...):

>>> class Toy(HandlerTable):
...     HANDLERS = {"play": {int: ("_check_number", "_do_number")}}
...     def _check_number(self, seat, action): ...
...     def _do_number(self, seat, action): ...
>>> class NoSevens(Toy):
...     def _check_number(self, seat, action):
...         if action == 7:
...             raise IllegalAction("no sevens at this table")
>>> NoSevens._handlers["play"][int][0] is NoSevens._check_number
True
>>> Toy._handlers["play"][int][0] is Toy._check_number
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..errors import IllegalAction
from .base import Event, foreign_action

__all__ = ["HandlerTable"]

Handler = Callable[[Any, Any, Any], None]


class HandlerTable:
    """The dispatch every engine shares: ``apply``, ``apply_trusted``, ``play_out`` and the
    quiet mode, driven by the class's :attr:`HANDLERS`.

    An engine keeps the phase in ``phase`` (``"over"``, or None, once the game has ended) and
    the seat that decides in ``_decider``; it may change the words of a refusal
    (:meth:`_not_now`) and what happens after each action (:meth:`_carry_out`: the trusted
    path then goes through it too).
    """

    HANDLERS: ClassVar[Mapping[Any, Mapping[type, tuple[str, str]]]]
    """Phase -> action class -> (name of the check method, name of the do method)."""
    _handlers: ClassVar[dict[Any, dict[type, tuple[Handler, Handler]]]]
    """:attr:`HANDLERS` with each name resolved on the class (made by ``__init_subclass__``)."""

    _pending: list[Event]
    _decider: Any
    _quiet: bool = False
    phase: Any
    history: list[Any]
    events: list[Event]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if (cls._carry_out is not HandlerTable._carry_out
                and cls.apply_trusted is HandlerTable.apply_trusted):
            cls.apply_trusted = HandlerTable._apply_through_carry_out  # type: ignore[method-assign]
        table = getattr(cls, "HANDLERS", None)
        if table is None:
            return
        cls._handlers = {
            phase: {kind: (getattr(cls, check), getattr(cls, do))
                    for kind, (check, do) in actions.items()}
            for phase, actions in table.items()}

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Any) -> list[Event]:
        """Check ``action`` against the rules, carry it out and return the events it caused.

        Raises :class:`~luckylab.errors.IllegalAction` (with the reason) before changing
        anything when the action is not allowed now: the game is over, it is another game's
        action, this phase takes other actions, a field has the wrong type, or the rules
        refuse it (the check method of :attr:`HANDLERS`).
        """
        phase = self.phase
        if phase is None or phase == "over":
            raise IllegalAction("the game is over")
        handler = self._handlers[phase].get(type(action))
        if handler is None:
            raise self._refusal(action, phase)
        action.check_fields()  # field types (a float card id is refused, never coerced)
        seat = self._decider
        handler[0](self, seat, action)  # raises before any change
        return self._carry_out(handler[1], seat, action)

    def apply_trusted(self, action: Any) -> list[Event]:
        """``apply`` without the legality check: the engine's own fast path (the protocol).

        Only for an action from ``legal_actions()`` of this very state, or one that a bundled
        bot built for it (see ``luckylab.simulation.play_game``); anything else must go
        through ``apply``.
        """
        self._pending = []  # what _carry_out does, written in: the simulations' hottest path
        self._handlers[self.phase][type(action)][1](self, self._decider, action)
        self.history.append(action)
        events = self._pending
        self._pending = []
        self.events.extend(events)
        return events

    def _apply_through_carry_out(self, action: Any) -> list[Event]:
        """:meth:`apply_trusted` of an engine (or a house rule) that changes :meth:`_carry_out`
        (``__init_subclass__`` puts it in place)."""
        return self._carry_out(self._handlers[self.phase][type(action)][1], self._decider,
                               action)

    def _carry_out(self, do: Handler, seat: Any, action: Any) -> list[Event]:
        """Run ``do``, record the action and return the events it said."""
        self._pending = []
        do(self, seat, action)
        self.history.append(action)
        events = self._pending
        self._pending = []
        self.events.extend(events)
        return events

    def _refusal(self, action: Any, phase: Any) -> IllegalAction:
        """The error for an action this phase has no handler for."""
        if not any(type(action) in actions for actions in self._handlers.values()):
            return IllegalAction(foreign_action(action, self.game_name,  # type: ignore[attr-defined]
                                                self.title))  # type: ignore[attr-defined]
        action.check_fields()  # a wrong type is named before the phase
        allowed = ", ".join(kind.__name__ for kind in self._handlers[phase])
        return IllegalAction(self._not_now(action, phase, allowed))

    def _not_now(self, action: Any, phase: Any, allowed: str) -> str:
        """The words for an action of this game that the phase does not take."""
        return (f"{type(action).__name__} is not an action now ({phase}); Player "
                f"{self._decider + 1} chooses one of: {allowed}")

    def _no_check(self, seat: Any, action: Any) -> None:
        """The check of an action that is always allowed in its phase."""
        return None

    # -- events and the quiet mode -------------------------------------------------------
    def _say(self, kind: str, text: str, **data: Any) -> None:
        self._pending.append(Event(kind, text, data))

    def quieten(self, quiet: bool = True) -> None:
        """Stop (or resume) writing events: nobody reads them in a simulation or a search
        rollout. The play is the same; ``events`` and ``state_digest()`` then lack the quiet
        part, so a quiet game is for results, not for records."""
        if quiet:
            self._quiet = True  # instance attributes: this game only
            self._say = _say_nothing  # type: ignore[method-assign]
        else:
            self.__dict__.pop("_say", None)
            self.__dict__.pop("_quiet", None)

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end through the trusted path, ``choosers[seat](self)`` deciding for
        each seat (the loop reads who decides from ``_decider`` and the end from ``phase``)."""
        apply = self.apply_trusted
        while self.phase != "over":
            apply(choosers[self._decider](self))


def _say_nothing(*args: Any, **kwargs: Any) -> None:
    """Stands in for ``_say`` in a quiet game."""
    return None
