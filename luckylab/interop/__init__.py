"""luckylab's games in other libraries: OpenSpiel (:mod:`luckylab.interop.openspiel`) and
PettingZoo (:mod:`luckylab.interop.pettingzoo`), thin adapters over the game protocol
(:mod:`luckylab.games.protocol`), and the compact action ids they share
(:mod:`luckylab.interop.compact`).

Neither library is a dependency of luckylab: install the extra first
(``pip install 'luckylab[openspiel]'`` or ``'luckylab[pettingzoo]'``). Importing this package
imports neither; an adapter whose library is missing raises
:class:`~luckylab.errors.MissingExtra` naming the extra (:func:`missing_extra`).

>>> print(missing_extra("pyspiel", "openspiel"))
luckylab.interop needs pyspiel, which is not installed: pip install 'luckylab[openspiel]'
"""

from __future__ import annotations

from ..errors import MissingExtra

__all__ = ["MissingExtra", "missing_extra"]


def missing_extra(module: str, extra: str) -> MissingExtra:
    """The error for a missing third-party ``module`` that the extra ``extra`` installs."""
    return MissingExtra(f"luckylab.interop needs {module}, which is not installed: "
                        f"pip install 'luckylab[{extra}]'")
