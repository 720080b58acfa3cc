"""The answer key agrees with the lessons' solutions, so self-checks cannot drift (issue 11).

Every answer file loads; every exercise id in it (``demo.*`` apart) is checked by a
``luckylab.check("<id>", ...)`` call in a solution cell of its lesson, whose stored output is
``correct`` (and the outputs test re-runs the lesson, so that output is today's); every check
a lesson calls has an answer; exercise cells start from ``answer = None``.
"""

from __future__ import annotations

import re
from importlib import resources

import pytest
from lesson_support import lesson_files, lesson_params

from luckylab.lessons.exercises import answer_key, check
from luckylab.lessons.notebook import cell_tags, lesson_prefix, read_notebook
from luckylab.lessons.outputs import text_outputs

CALL = re.compile(r"luckylab\.check\(\s*[\"'](?P<id>[^\"']+)[\"']")
ANSWERS = resources.files("luckylab") / "data" / "answers"


def answer_files():
    return sorted(e.name for e in ANSWERS.iterdir() if e.name.endswith(".toml"))


def solution_checks(nb):
    """(cell index, exercise id, cell) for every check call in a solution cell."""
    return [(i, m["id"], c) for i, c in enumerate(nb.cells)
            if c.cell_type == "code" and "solution" in cell_tags(c)
            for m in CALL.finditer(c.source)]


def lessons_by_prefix():
    return {lesson_prefix(p): p for p in lesson_files()}


def test_every_answer_file_loads_and_is_named_after_its_lesson():
    key = answer_key()
    assert "demo.1" in key
    for name in answer_files():
        prefix = name.removesuffix(".toml")
        ids = [e for e in key if e.split(".")[0] == prefix]
        assert ids, f"{name} defines no exercise of lesson {prefix}"
    for exercise in key:
        assert f"{exercise.split('.')[0]}.toml" in answer_files(), exercise


def test_every_answer_has_a_lesson_and_a_checked_solution():
    lessons = lessons_by_prefix()
    missing = []
    for exercise in sorted(answer_key()):
        prefix = exercise.split(".")[0]
        if prefix == "demo":
            continue
        if prefix not in lessons:
            missing.append(f"{exercise}: no lesson {prefix}_*.ipynb")
            continue
        checked = {e for _, e, _ in solution_checks(read_notebook(lessons[prefix]))}
        if exercise not in checked:
            missing.append(f"{exercise}: no solution cell of {lessons[prefix].name} calls "
                           f"luckylab.check({exercise!r}, ...)")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("path", lesson_params(old_style="run"))
def test_solution_checks_say_correct(path):
    bad = []
    for index, exercise, cell in solution_checks(read_notebook(path)):
        lines = [line.strip() for item in text_outputs(cell)
                 for line in item.split(": ", 1)[-1].splitlines()]
        if "correct" not in lines or any(line.startswith("not ") for line in lines):
            bad.append(f"cell {index} ({exercise}): stored output {lines}")
    assert not bad, f"{path.name}: " + "; ".join(bad)


@pytest.mark.parametrize("path", lesson_params(old_style="run"))
def test_every_check_in_a_lesson_has_an_answer_of_that_lesson(path):
    prefix = lesson_prefix(path)
    key = answer_key()
    ids = {m["id"] for c in read_notebook(path).cells if c.cell_type == "code"
           for m in CALL.finditer(c.source)}
    assert not ids - set(key), f"checks without an answer: {sorted(ids - set(key))}"
    others = {e for e in ids if e.split(".")[0] not in (prefix, "demo")}
    assert not others, f"{path.name} checks another lesson's exercises: {sorted(others)}"


@pytest.mark.parametrize("path", lesson_params(old_style="run"))
def test_exercise_cells_start_from_answer_none(path):
    for index, cell in enumerate(read_notebook(path).cells):
        if cell.cell_type == "code" and "exercise" in cell_tags(cell):
            assert re.search(r"^answer = None\b", cell.source, re.M), f"cell {index}"
            assert CALL.search(cell.source), f"cell {index} has no luckylab.check"


def test_hints_never_contain_the_answer():
    for exercise, answer in answer_key().items():
        if answer.kind in ("integer", "number"):
            feedback = check(exercise, answer.value + 1000)
            assert not feedback.ok
            value = answer.value if answer.kind == "integer" else f"{answer.value:g}"
            if len(str(value).lstrip("-")) < 2:
                continue  # a one-digit number may appear in a hint for other reasons
            assert not re.search(rf"(?<![\d.]){re.escape(str(value))}(?![\d])",
                                 answer.hint), exercise
        elif answer.kind == "text":
            assert not any(v.casefold() in answer.hint.casefold() for v in answer.value), \
                exercise
