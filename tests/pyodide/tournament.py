"""Lesson 13's tournament where processes cannot start: two bot files and the bundled bots,
run with run()'s defaults; prints JSON (platform, what run() said, the table, the games).

Run by tests/test_lite.py under Pyodide (in-process bots) and under CPython (worker processes):
the table and the games must be the same.
"""

import contextlib
import io
import json
import os
import sys
import tempfile

from luckylab.tournament import run

folder = tempfile.mkdtemp()
for name, base in (("bold", "AggressiveAgent"), ("careful", "CautiousAgent")):
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write(f"LUCKYLAB_BOT = {{'name': {name!r}, 'game': 'island', 'class': 'Bot'}}\n"
                f"from luckylab.agents.island import {base}\n\n"
                f"class Bot({base}):\n    pass\n")
said = io.StringIO()
with contextlib.redirect_stderr(said):
    result = run(folder, game="island", players=4, games=16, seed=13, progress=False)
games = [{k: r[k] for k in ("seats", "places", "returns", "turns", "failures")}
         for r in result.records]
print(json.dumps({"platform": sys.platform, "said": said.getvalue(), "table": result.to_text(),
                  "games": games}))
