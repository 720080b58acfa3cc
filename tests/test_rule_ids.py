"""The rules in the repository (``docs/rules/``) and the code agree on rule IDs (issue 11).

Every rule ID the package or the tests cite (``I-DOC-3`` in code and data, ``I_DOC_3`` in test
names) is defined in ``docs/rules/``, once; and every rule defined there for a game that has an
engine in ``luckylab.GAMES`` is named by at least one test.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import luckylab

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules"
DEFINITION = re.compile(r"^- `(?P<id>[A-Z]-[A-Z]+-[0-9]+)`", re.M)
CITED = re.compile(r"(?<![A-Za-z0-9_-])[A-Z]-[A-Z]+-[0-9]+(?![0-9])")
NAMED = re.compile(r"(?<![A-Za-z0-9])(?P<id>[A-Z][-_][A-Z]+[-_][0-9]+)(?![0-9])")
GAME_LETTERS = "IKSPD"  # island, kill, save, panic, doctorwho


@cache
def definitions() -> dict[str, list[str]]:
    """Rules file stem -> the rule IDs it defines, in order."""
    return {p.stem: DEFINITION.findall(p.read_text("utf-8")) for p in sorted(RULES.glob("*.md"))}


def sources(folder: str, suffixes: tuple[str, ...] = (".py", ".toml")) -> list[Path]:
    return sorted(p for p in (REPO / folder).rglob("*") if p.suffix in suffixes
                  and "__pycache__" not in p.parts)


@cache
def named_in_tests() -> set[str]:
    found = set()
    for path in sources("tests", (".py",)):
        found |= {m["id"].replace("_", "-") for m in NAMED.finditer(path.read_text("utf-8"))}
    return found


def test_there_is_a_rules_file_for_every_game():
    stems = set(definitions())
    assert {"island", "kill", "save", "panic", "doctorwho"} <= stems
    for game in luckylab.GAMES:
        assert game in stems, f"docs/rules/{game}.md is missing for the engine {game!r}"


def test_every_rules_file_defines_its_own_ids_once():
    counts = Counter(i for ids in definitions().values() for i in ids)
    assert not [i for i, n in counts.items() if n > 1]
    for stem, ids in definitions().items():
        assert ids, f"docs/rules/{stem}.md defines no rule ID"
        assert len({i[0] for i in ids}) == 1, f"{stem}.md mixes games' letters"


def test_every_rule_id_cited_in_the_package_and_tests_is_defined():
    defined = {i for ids in definitions().values() for i in ids}
    undefined = []
    for folder in ("luckylab", "tests"):
        for path in sources(folder):
            for rule in set(CITED.findall(path.read_text("utf-8"))):
                if rule[0] in GAME_LETTERS and rule not in defined:
                    undefined.append(f"{path.relative_to(REPO)}: {rule}")
    assert not undefined, "rule IDs not defined in docs/rules/:\n" + "\n".join(sorted(undefined))


def test_every_rule_id_named_in_a_test_is_defined():
    defined = {i for ids in definitions().values() for i in ids}
    named = {i for i in named_in_tests() if i[0] in GAME_LETTERS}
    assert not named - defined, sorted(named - defined)


@pytest.mark.parametrize("game", sorted(luckylab.GAMES))
def test_every_rule_of_a_game_with_an_engine_is_named_by_a_test(game):
    ids = definitions().get(game, [])
    untested = [i for i in ids if i not in named_in_tests()]
    assert not untested, (f"rules of {game} that no test names (put the ID, e.g. "
                          f"{untested[0].replace('-', '_')}, in a test's name or docstring): "
                          f"{untested}")


def test_no_path_outside_the_repository_is_cited():
    offenders = []
    for folder in ("luckylab", "tests", "docs"):
        for path in sources(folder, (".py", ".toml", ".md")):
            if path.name in ("test_lesson_style.py", "test_rule_ids.py") or (
                path.parts[-2:] == ("lessons", "style.py")):
                continue  # they look for such links on purpose
            text = path.read_text("utf-8")
            if "../shared" in text or "shared/rules/" in text or "../seeds" in text:
                offenders.append(str(path.relative_to(REPO)))
    assert not offenders
