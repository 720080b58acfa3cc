"""Questions about the games, answered with exact counts or seeded simulations, one question
per module. Nothing here draws (see :mod:`luckylab.viz`); every function returns plain data.

- :mod:`luckylab.analysis.stats`: a mean or a rate with its 95% interval (any game).
- :mod:`luckylab.analysis.luck`: how likely is a foil? Luck distributions and ``p_foil``.
- :mod:`luckylab.analysis.dilemma`: who should pay to foil (the volunteer's dilemma).
- :mod:`luckylab.analysis.attempts`: what happened to the attempts of played games.
- :mod:`luckylab.analysis.sinking`: Save Doctor Lucky's sinking clock and its witnesses.
- :mod:`luckylab.analysis.memory`: Panic Island! by the numbers (memory, when to wake Gouga).
- :mod:`luckylab.analysis.search_strength`: the look-ahead bot's measured strength.

``import luckylab`` does not load this package; import the module you need::

    from luckylab.analysis.stats import wilson_ci
"""
