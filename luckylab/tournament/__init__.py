"""The class tournament: students save their bots, the teacher runs a fair, safe tournament.

- :func:`save_bot` (in a notebook): one bot class -> one ``.py`` file to hand in;
- :func:`load_bots`: a folder of bot files -> entrants, and the files left out with why;
- :func:`run`: duplicate deals and seat rotation, the bundled bots as reference entrants,
  every student bot in its own limited worker process (:mod:`.sandbox`), a resumable results
  file; returns a :class:`TournamentResult` (leaderboard with intervals by deal and ratings,
  head-to-head, win rate by seat, failures).

``python -m luckylab tournament BOTS_DIR --game island --players 4 --games 2000`` does the same
from a terminal. See ``docs/tournament.md``.
"""

from .bots import Entrant, Problem, load_bots, reference_entrants, save_bot
from .ratings import Rating
from .results import TournamentResult
from .run import run
from .sandbox import Limits

__all__ = ["Entrant", "Limits", "Problem", "Rating", "TournamentResult", "load_bots",
           "reference_entrants", "run", "save_bot"]
