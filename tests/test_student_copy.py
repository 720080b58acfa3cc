"""``luckylab student-copy``: lessons without their solutions, for students (issue 11).

The copies contain no solution text, still execute top to bottom, are never written into the
lessons folder, and a ``solution`` tag on a cell that is not a solution is reported.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from lesson_support import NOTEBOOKS, REPO, house_style_lesson, lesson_params

from luckylab.__main__ import main as luckylab_main
from luckylab.cli import COMMANDS
from luckylab.errors import LuckyLabError
from luckylab.lessons.notebook import LessonError, cell_source, cell_tags, is_lesson
from luckylab.lessons.student_copy import (
    WORK_TAG,
    StraySolutionTag,
    UnsafeDestination,
    stray_solution_tags,
    student_copy,
    work_cell_type,
    write_student_copies,
)

SOLUTION_TEXT = ("SOLUTION-TEXT-123456", "SOLUTION-PROSE-654321")


def execute(nb, cwd: Path):
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


@pytest.fixture
def lessons(tmp_path):
    """A lessons folder with two small house-style lessons (checks use the demo answers)."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(house_style_lesson("01", "Dice", "Next: [2. More dice](02_more.ipynb)",
                                      exercise_id="demo.1"), folder / "01_dice.ipynb")
    nbformat.write(house_style_lesson("02", "More dice", exercise_id="demo.1"),
                   folder / "02_more.ipynb")
    (folder / "notes.txt").write_text("not a lesson")
    return folder


def test_student_copy_is_a_registered_command():
    assert "luckylab.cli.student_copy" in COMMANDS


def test_copies_have_no_solution_cells_and_no_solution_text(lessons, tmp_path):
    reports = write_student_copies(lessons, tmp_path / "student")
    assert [r.target.name for r in reports] == ["01_dice.ipynb", "02_more.ipynb"]
    for report in reports:
        text = report.target.read_text("utf-8")
        assert not any(secret in text for secret in SOLUTION_TEXT)
        copy = nbformat.read(report.target, as_version=4)
        assert not any("solution" in cell_tags(c) for c in copy.cells)
        assert report.solution_cells_removed == 2
    assert not (tmp_path / "student" / "notes.txt").exists()


def test_everything_but_solutions_is_kept_and_exercise_outputs_are_cleared(lessons, tmp_path):
    write_student_copies(lessons, tmp_path / "student")
    original = nbformat.read(lessons / "01_dice.ipynb", as_version=4)
    copy = nbformat.read(tmp_path / "student" / "01_dice.ipynb", as_version=4)
    kept = [c for c in original.cells if "solution" not in cell_tags(c)]
    assert [c.source for c in copy.cells] == [c.source for c in kept]
    for old, new in zip(kept, copy.cells, strict=True):
        if "exercise" in cell_tags(old):
            assert old.outputs and new.outputs == [] and new.execution_count is None
        elif old.cell_type == "code":
            assert new.outputs == old.outputs  # outputs of the other cells are kept
    assert nbformat.read(lessons / "01_dice.ipynb", as_version=4) == original  # unchanged


def test_copies_execute_top_to_bottom(lessons, tmp_path):
    write_student_copies(lessons, tmp_path / "student")
    copy = nbformat.read(tmp_path / "student" / "01_dice.ipynb", as_version=4)
    execute(copy, tmp_path / "student")
    exercise = next(c for c in copy.cells if "exercise" in cell_tags(c))
    assert exercise.outputs[0]["data"]["text/plain"].startswith("not answered yet")


@pytest.mark.parametrize("out", ["notebooks", "notebooks/student", "notebooks/a/b", "."])
def test_refuses_to_write_into_the_lessons_folder_or_inside_it(lessons, out):
    before = sorted(p.name for p in lessons.rglob("*"))
    target = lessons / ".." / out if out != "." else lessons
    with pytest.raises(UnsafeDestination, match="lessons folder"):
        write_student_copies(lessons, target)
    assert sorted(p.name for p in lessons.rglob("*")) == before


def test_refuses_to_write_into_the_real_notebooks_folder():
    if not NOTEBOOKS.is_dir():
        pytest.skip("no notebooks folder")
    with pytest.raises(UnsafeDestination):
        write_student_copies(NOTEBOOKS, NOTEBOOKS / "student")
    assert not (NOTEBOOKS / "student").exists()


@pytest.mark.parametrize("where, why", [
    ("exercise text", "text of an exercise"),
    ("exercise cell", "both exercise and solution"),
    ("setup cell", "setup cell"),
    ("title cell", "title cell"),
])
def test_a_stray_solution_tag_is_reported_and_nothing_is_written(lessons, tmp_path, where, why):
    nb = nbformat.read(lessons / "02_more.ipynb", as_version=4)
    index = {"exercise text": 9, "exercise cell": 10, "setup cell": 1, "title cell": 0}[where]
    cell = nb.cells[index]
    cell.metadata["tags"] = [*cell.metadata.get("tags", []), "solution"]
    nbformat.write(nb, lessons / "02_more.ipynb")
    assert len(stray_solution_tags(nb, "02_more.ipynb")) == 1
    with pytest.raises(StraySolutionTag, match=why) as info:
        write_student_copies(lessons, tmp_path / "student")
    assert len(info.value.problems) == 1
    assert info.value.problems[0].startswith(f"02_more.ipynb cell {index}: ")
    assert isinstance(info.value, LuckyLabError)
    assert not (tmp_path / "student").exists()  # not even the good lesson was written


def test_student_copy_of_one_notebook_leaves_it_unchanged():
    nb = house_style_lesson()
    before = nbformat.writes(nb)
    copy = student_copy(nb)
    assert nbformat.writes(nb) == before
    assert len(copy.cells) == len(nb.cells) - 2


def test_missing_or_empty_lessons_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LessonError, match="not a folder of lessons"):
        write_student_copies(tmp_path / "nope", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(LessonError, match="holds no lesson"):
        write_student_copies(tmp_path / "empty", tmp_path / "out")


def test_a_damaged_notebook_is_named(lessons, tmp_path):
    (lessons / "03_broken.ipynb").write_text("{not json")
    with pytest.raises(LessonError, match="03_broken.ipynb: not a readable notebook"):
        write_student_copies(lessons, tmp_path / "student")
    assert not (tmp_path / "student").exists()


def test_cli_writes_copies_and_reports(lessons, tmp_path, capsys):
    assert luckylab_main(["student-copy", str(lessons), "--out", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    assert "2 solution cell(s) removed" in out and "2 student copies" in out
    assert (tmp_path / "s" / "02_more.ipynb").is_file()


def test_cli_refusal_is_a_luckylab_error_with_exit_status_2(lessons, capsys):
    assert luckylab_main(["student-copy", str(lessons), "--out", str(lessons / "x")]) == 2
    assert capsys.readouterr().err.startswith("luckylab: error: ")


def test_python_dash_m_luckylab_student_copy(lessons, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-m", "luckylab", "student-copy", str(lessons),
                           "--out", str(tmp_path / "s")], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["01_dice.ipynb",
                                                                   "02_more.ipynb"]


@pytest.mark.parametrize("path", lesson_params(old_style="run", slow=True))
def test_real_lesson_student_copy_has_no_solutions_and_runs(path, tmp_path):
    original = nbformat.read(path, as_version=4)
    assert stray_solution_tags(original, path.name) == []
    copy = student_copy(original, path.name)
    solutions = [c.source.strip() for c in original.cells
                 if "solution" in cell_tags(c) and len(c.source.strip()) > 20]
    text = "\n".join(c.source for c in copy.cells)
    assert not [s for s in solutions if s in text]
    nbformat.write(copy, tmp_path / path.name)
    execute(copy, path.parent)  # the lesson's own folder: files it reads are there


def test_import_luckylab_loads_neither_the_lesson_tools_nor_nbformat():
    code = ("import sys, luckylab, luckylab.__main__; "
            "luckylab.__main__.build_parser(); "
            "bad = [m for m in sys.modules if m.startswith(('nbformat', 'nbclient'))]; "
            "assert not bad, bad; "
            "import luckylab.lessons.student_copy, luckylab.lessons.style; "
            "assert 'nbformat' not in sys.modules; print('ok')")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
    # the face re-exports check (luckylab.lessons.exercises); the lesson tools stay unloaded
    plain = subprocess.run([sys.executable, "-c", "import sys, luckylab; "
                            "print(sorted(m for m in sys.modules "
                            "if m.startswith('luckylab.lessons')))"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert plain.stdout.strip() == "['luckylab.lessons', 'luckylab.lessons.exercises']", \
        plain.stderr


# --- "your answer" cells, and copies from a plain install (issue 26) -----------------------

def _exercise_texts(cells) -> list[int]:
    return [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
            and "solution" not in cell_tags(c)
            and re.search(r"^\*\*Exercise\b", cell_source(c), re.M)]


def _solution_only_lesson():
    """The house-style lesson plus Exercise 2 answered by code, Exercise 3 by words only."""
    from nbformat.v4 import new_code_cell, new_markdown_cell

    nb = house_style_lesson(exercise_id="demo.1")
    recap = next(i for i, c in enumerate(nb.cells) if c.source.startswith("## Recap"))
    nb.cells[recap:recap] = [
        new_markdown_cell("**Exercise 2.** Roll 100 dice and count the sixes."),
        new_code_cell("rolls = [1, 6] * 50  # SOLUTION-CODE-24680\nprint(rolls.count(6))",
                      metadata={"tags": ["solution"]}),
        new_markdown_cell("About a sixth SOLUTION-PROSE-13579.", metadata={"tags": ["solution"]}),
        new_markdown_cell("**Exercise 3.** Why is a die fair?"),
        new_markdown_cell("By symmetry SOLUTION-PROSE-97531.", metadata={"tags": ["solution"]}),
    ]
    return nb


def test_an_exercise_answered_only_by_a_solution_gets_an_empty_answer_cell_of_its_kind():
    nb = _solution_only_lesson()
    copy = student_copy(nb)
    texts = _exercise_texts(copy.cells)
    under = [copy.cells[i + 1] for i in texts]
    assert ["exercise" in cell_tags(under[0]), *[WORK_TAG in cell_tags(c) for c in under[1:]]] \
        == [True, True, True]
    assert [c.cell_type for c in under] == ["code", "code", "markdown"]
    assert under[1].source.strip() == "# your answer here" and under[1].outputs == []
    assert under[2].source.strip() == "*Your answer:*"
    assert sum(WORK_TAG in cell_tags(c) for c in copy.cells) == 2  # one per exercise, no more
    nbformat.validate(copy)  # ids unique and well formed, fields complete
    assert not any(s in nbformat.writes(copy) for s in
                   ("SOLUTION-CODE-24680", "SOLUTION-PROSE-13579", "SOLUTION-PROSE-97531"))


def test_a_markdown_solution_holding_code_asks_for_code():
    fenced = {"cell_type": "markdown", "source": ["Loop:\n", "```python\n", "print(1)\n", "```"]}
    words = {"cell_type": "markdown", "source": "Six, and `len(faces)` says so."}
    assert work_cell_type([fenced]) == "code"
    assert work_cell_type([words]) == "markdown"
    assert work_cell_type([words, {"cell_type": "code", "source": "6"}]) == "code"


def _plain_install_distributions() -> set[str]:
    """The distributions a plain ``pip install luckylab`` brings: its dependencies (no extras)
    and theirs, as installed here, plus luckylab itself."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    todo = [Requirement(r) for r in pyproject["project"]["dependencies"]]
    seen = {"luckylab"}
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            todo += [Requirement(r) for r in distribution(req.name).requires or []]
        except PackageNotFoundError:  # e.g. tomli on Python >= 3.11
            continue
    return seen


# Runs the CLI with every module outside a plain install unimportable (as if never installed).
_PLAIN_INSTALL = r"""
import importlib.abc, importlib.metadata, re, sys
allowed = set(sys.argv[1].split(","))
owners = importlib.metadata.packages_distributions()
def canon(name):
    return re.sub(r"[-_.]+", "-", name).lower()
class NotInAPlainInstall(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        dists = {canon(d) for d in owners.get(top, ())}
        if dists and not dists & allowed:
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)
sys.meta_path.insert(0, NotInAPlainInstall())
for extra in ("nbformat", "nbclient", "jupyterlab", "pytest"):
    try:
        __import__(extra)
    except ModuleNotFoundError:
        continue
    raise SystemExit(f"{extra} is importable: the plain install is not simulated")
from luckylab.__main__ import main
sys.exit(main(["student-copy", *sys.argv[2:]]))
"""


def test_student_copies_of_all_lessons_from_a_plain_install(tmp_path):
    """Done when (issue 26): copies from a plain ``pip install -e .`` (nbformat, nbclient and
    every other extra unimportable), a work cell under every exercise, no solution leaked."""
    if not NOTEBOOKS.is_dir():
        pytest.skip("no notebooks folder")
    allowed = _plain_install_distributions()
    assert "nbformat" not in allowed and "numpy" in allowed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = tmp_path / "student"
    done = subprocess.run([sys.executable, "-c", _PLAIN_INSTALL, ",".join(sorted(allowed)),
                           str(NOTEBOOKS), "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr + done.stdout
    lessons = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if is_lesson(p))
    assert sorted(p.name for p in out.iterdir()) == lessons
    exercises = added = 0
    for name in lessons:
        original = json.loads((NOTEBOOKS / name).read_text("utf-8"))["cells"]
        copy = nbformat.read(out / name, as_version=4)  # valid nbformat 4
        nbformat.validate(copy)
        text = nbformat.writes(copy)
        solutions = [cell_source(c).strip() for c in original if "solution" in cell_tags(c)]
        assert not [s for s in solutions if len(s) > 20 and s in text], name
        assert not any("solution" in cell_tags(c) for c in copy.cells), name
        for i in _exercise_texts(copy.cells):
            exercises += 1
            work = copy.cells[i + 1] if i + 1 < len(copy.cells) else None
            assert work is not None and cell_tags(work) & {"exercise", WORK_TAG}, \
                f"{name}: no cell to work in under {copy.cells[i].source[:40]!r}"
            if WORK_TAG in cell_tags(work):
                added += 1
                k = next(j for j, c in enumerate(original)
                         if cell_source(c) == copy.cells[i].source)
                solution = []
                for c in original[k + 1:]:
                    if "solution" not in cell_tags(c):
                        break
                    solution.append(c)
                assert solution, f"{name}: a work cell added where no solution was"
                assert work.cell_type == work_cell_type(solution)
        assert f"{out / name}: " in done.stdout
    assert exercises == sum(len(_exercise_texts(json.loads((NOTEBOOKS / n).read_text("utf-8"))
                                                ["cells"])) for n in lessons)
    reported = sum(int(m) for m in re.findall(r"(\d+) empty answer cell", done.stdout))
    assert reported == added
