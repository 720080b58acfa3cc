"""The house style of the lessons (BRIEF, issue 10), their length and their slide metadata.

Per lesson in ``notebooks/``: :func:`luckylab.lessons.style.style_problems` finds nothing, the
lesson is within one class's length (800 words of prose, 8 code cells), and every cell carries
the slide type :mod:`luckylab.lessons.slides` gives it. The tests of the checker itself build a
small house-style lesson and break it one rule at a time.
"""

from __future__ import annotations

import copy

import nbformat
import pytest
from lesson_support import house_style_lesson, lesson_files, lesson_params
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from luckylab.lessons import slides, stats
from luckylab.lessons.notebook import cell_tags, read_notebook
from luckylab.lessons.style import check_folder, lesson_title, style_problems

NEXT = "Next: [5. Hands up](05_hands.ipynb)"
TITLES = {"04_foil.ipynb": "4. Will my attack be foiled?", "05_hands.ipynb": "5. Hands up"}


def problems(nb, titles=TITLES):
    return style_problems(nb, "04_foil.ipynb", titles)


def good():
    return house_style_lesson("04", next_link=NEXT)


# -- the checker --------------------------------------------------------------------------


def test_a_house_style_lesson_has_no_problems():
    assert problems(good()) == []


def _cell(nb, start):
    return next(c for c in nb.cells if c.source.startswith(start))


def _set(start, new):
    def change(nb):
        _cell(nb, start).source = new
    return change


def _retag(start, tags):
    def change(nb):
        _cell(nb, start).metadata["tags"] = tags
    return change


def _insert(index, cell):
    def change(nb):
        nb.cells.insert(index, cell)
    return change


def _remove(start):
    def change(nb):
        nb.cells.remove(_cell(nb, start))
    return change


def _swap(a, b):
    def change(nb):
        i, j = nb.cells.index(_cell(nb, a)), nb.cells.index(_cell(nb, b))
        nb.cells[i], nb.cells[j] = nb.cells[j], nb.cells[i]
    return change


def _solution_output(text):
    def change(nb):
        cell = _cell(nb, "faces =")
        cell.outputs = [new_output("execute_result", {"text/plain": text}, execution_count=3)]
    return change


def _figure(caption, alt="Six faces, numbered 1 to 6."):
    def change(nb):
        index = nb.cells.index(_cell(nb, "print(2 * 3)"))
        metadata = {"alt": alt} if alt else {}
        nb.cells[index].outputs.append(new_output("display_data", {"image/png": "iVBOR",
                                                                   "text/plain": "<Figure>"},
                                                  metadata=metadata))
        if caption is not None:
            nb.cells.insert(index + 1, new_markdown_cell(caption))
    return change


BROKEN = {
    "unnumbered title": (_set("# 4.", "# Foiling\n\n**Objectives** By the end you can\n- a\n- b"
                              "\n**Prerequisites** none\n**Time** 50 minutes"), "title must read"),
    "wrong number": (_set("# 4.", "# 5. Foiling\n\n**Objectives** By the end you can\n- a\n- b"
                          "\n**Prerequisites** none\n**Time** 50 minutes"), "numbered 5"),
    "no objectives": (_set("# 4.", "# 4. Foiling\n\n**Prerequisites** none\n**Time** 50 minutes"),
                      "missing **Objectives**"),
    "one objective": (_set("# 4.", "# 4. F\n\n**Objectives** By the end you can\n- a\n"
                           "**Prerequisites** none\n**Time** 50 minutes"), "1 bullets"),
    "no time in minutes": (_set("# 4.", "# 4. F\n\n**Objectives** By the end you can\n- a\n- b\n"
                                "**Prerequisites** none\n**Time** one class"), "minutes"),
    "no setup cell": (_remove("import luckylab"), "setup code"),
    "setup without luckylab": (_set("import luckylab", "import math"), "import luckylab"),
    "missing section": (_remove("## Play"), "'## Play' appears 0 times"),
    "sections out of order": (_swap("## Story", "## Question"), "out of order"),
    "teaching section after Play": (_insert(7, new_markdown_cell("## More maths")),
                                    "between '## Question' and '## Play'"),
    "recap of two lines": (_set("## Recap", f"## Recap\n\n- one\n- two\n\n{NEXT}"), "2 bullets"),
    "no next link": (_set("## Recap", "## Recap\n\n- one\n- two\n- three"), "Next:"),
    "next link to a missing lesson": (
        _set("## Recap", "## Recap\n\n- a\n- b\n- c\n\nNext: [6. X](06_x.ipynb)"),
        "not in the lessons folder"),
    "next link with the wrong title": (
        _set("## Recap", "## Recap\n\n- a\n- b\n- c\n\nNext: [5. Feet](05_hands.ipynb)"),
        "is not the title of"),
    "section after the recap": (_insert(99, new_markdown_cell("## Appendix")), "after the Recap"),
    "details block": (_set("So a die", "<details><summary>Solution</summary>6</details>"),
                      "<details>"),
    "nbval comment": (_set("print(2 * 3)", "# NBVAL_CHECK_OUTPUT\nprint(2 * 3)"), "NBVAL_"),
    "shared link": (_set("## Story", "## Story\n\nSee ../shared/rules/island.md."), "../shared"),
    "test words": (_set("## Story", "## Story\n\nnbval pins this number."), "nbval"),
    "seat zero": (_set("## Story", "## Story\n\nPlayer 0 starts."), "numbered from 1"),
    # a comparison concluded from overlapping intervals (issue 38)
    "no difference from overlap": (
        _set("## Story", "## Story\n\nThe intervals overlap: there is no difference."),
        "we cannot tell"),
    "order is chance": (
        _set("## Story", "## Story\n\nThe order of the top two is chance."), "we cannot tell"),
    "evenly matched": (
        _set("## Story", "## Story\n\nBold and aggressive are evenly matched."),
        "we cannot tell"),
    "better only without overlap": (
        _set("## Story", "## Story\n\nSearch wins only where the intervals do not overlap."),
        "we cannot tell"),
    "exercise cell without answer = None": (
        _set("answer = None", 'answer = 6\nluckylab.check("04.1", answer)'), "answer = None"),
    "exercise cell checking another id": (
        _set("answer = None", 'answer = None\nluckylab.check("04.2", answer)'), '"04.1"'),
    "exercise cell away from its exercise": (_swap("**Exercise 1.**", "## Exercises"),
                                             "right under its"),
    "solution not under its exercise": (_swap("So a die", "## Recap"), "right under its exercise"),
    "exercise without solution": (lambda nb: [nb.cells.remove(c) for c in list(nb.cells)
                                              if "solution" in cell_tags(c)],
                                  "has no solution cell"),
    "exercises misnumbered": (_set("**Exercise 1.**", "**Exercise 2.** Faces?"), "numbered 1, 2"),
    "solution tag on the exercise text": (_retag("**Exercise 1.**", ["solution"]),
                                          "text of an exercise"),
    "solution check not correct": (_solution_output("not yet: count the faces."),
                                   "says 'correct' 0 time"),
    "solution check not run": (_solution_output(""), "says 'correct' 0 time"),
    "figure without caption": (_figure(None), "caption"),
    "figure with a plain caption": (_figure("The curve."), "caption"),
    "figure without alt text": (_figure("*Figure:* six faces.", alt=None), "alt text"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_checker_reports_each_departure(name):
    change, expected = BROKEN[name]
    nb = good()
    change(nb)
    found = problems(nb)
    assert any(expected in p for p in found), found


def test_a_figure_with_its_caption_passes():
    nb = good()
    _figure("*Figure:* six faces.")(nb)
    assert problems(nb) == []


def test_accepted_variants_of_the_house_style():
    nb = good()
    _figure("*Figure: six faces, the whole caption in italics.*")(nb)
    _set("## Recap", "## Recap\n\n- a\n- b\n- c\n\nNext: [5. Hands](05_hands.ipynb)")(nb)
    exercises = nb.cells.index(_cell(nb, "## Exercises"))
    nb.cells[exercises].source = "## Exercises\n\n**Exercise 1.** How many faces has a die?"
    del nb.cells[exercises + 1]  # the first exercise shares the heading's cell
    assert problems(nb) == []


def test_the_last_lesson_needs_no_next_link():
    nb = house_style_lesson("05", "Hands up")
    assert style_problems(nb, "05_hands.ipynb", TITLES) == []


def test_check_folder_checks_next_links_against_the_folder(tmp_path):
    nbformat.write(good(), tmp_path / "04_foil.ipynb")
    nbformat.write(house_style_lesson("05", "Hands up"), tmp_path / "05_hands.ipynb")
    assert check_folder(tmp_path) == {"04_foil.ipynb": [], "05_hands.ipynb": []}
    (tmp_path / "05_hands.ipynb").rename(tmp_path / "05_other.ipynb")
    assert any("not in the lessons folder" in p for p in check_folder(tmp_path)["04_foil.ipynb"])


def test_lesson_title():
    assert lesson_title(good()) == "4. Will my attack be foiled?"


# -- slides ---------------------------------------------------------------------------------


def test_slide_types_follow_headings_and_tags_and_are_idempotent():
    nb = good()
    assert slides.add_slide_metadata(nb) == len(nb.cells)
    kinds = {c.source.split("\n")[0][:16]: c.metadata["slideshow"]["slide_type"]
             for c in nb.cells}
    assert kinds["# 4. Will my att"] == "slide"
    assert kinds["## Story"] == "slide" and kinds["## Recap"] == "slide"
    assert kinds["answer = None   "] == "fragment"
    assert kinds["faces = len(\"SOL"] == "skip" and kinds["So a die has SOL"] == "skip"
    assert kinds["print(2 * 3)"] == "-" and kinds["**Exercise 1.** "] == "-"
    before = copy.deepcopy(nb)
    assert slides.add_slide_metadata(nb) == 0 and nb == before
    assert slides.slides_missing(nb) == []


def test_slides_command_writes_once_and_check_reports(tmp_path, capsys):
    nbformat.write(good(), tmp_path / "04_foil.ipynb")
    assert slides.main([str(tmp_path), "--check"]) == 1
    assert slides.main([str(tmp_path)]) == 0
    written = (tmp_path / "04_foil.ipynb").read_bytes()
    assert slides.main([str(tmp_path)]) == 0 and slides.main([str(tmp_path), "--check"]) == 0
    assert (tmp_path / "04_foil.ipynb").read_bytes() == written
    assert "set on 0 cell(s)" in capsys.readouterr().out


def test_a_subsection_is_a_subslide():
    nb = good()
    nb.cells.insert(5, new_markdown_cell("### By hand\n\nCount."))
    slides.add_slide_metadata(nb)
    assert nb.cells[5].metadata.slideshow.slide_type == "subslide"


# -- stats ------------------------------------------------------------------------------------


def test_stats_count_prose_and_teaching_code_cells_only():
    nb = good()
    row = stats.lesson_stats(nb, "04_foil.ipynb")
    assert (row.code_cells, row.exercise_cells, row.solution_cells) == (2, 1, 2)
    solution_words = stats.count_words("So a die has SOLUTION-PROSE-654321 six faces.")
    nb.cells[-2].source += " and more words"
    assert stats.lesson_stats(nb, "x").words == row.words  # solution prose is not counted
    assert solution_words == 7
    nb.cells.append(new_markdown_cell("one two three"))
    assert stats.lesson_stats(nb, "x").words == row.words + 3


def test_stats_limits():
    assert stats.LessonStats("x", 800, 8, 9, 9).within_limits
    assert not stats.LessonStats("x", 801, 8, 0, 0).within_limits
    assert not stats.LessonStats("x", 10, 9, 0, 0).within_limits
    nb = good()
    for _ in range(7):
        nb.cells.insert(5, new_code_cell("pass"))
    assert not stats.lesson_stats(nb, "x").within_limits


def test_lesson_stats_command(tmp_path, capsys):
    from luckylab.__main__ import main

    nbformat.write(good(), tmp_path / "04_foil.ipynb")
    assert main(["lesson-stats", str(tmp_path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "04_foil.ipynb" in out and "limits: 800 words" in out
    big = good()
    big.cells.insert(5, new_markdown_cell("word " * 900))
    nbformat.write(big, tmp_path / "05_big.ipynb")
    assert main(["lesson-stats", str(tmp_path), "--check"]) == 1
    assert main(["lesson-stats", str(tmp_path)]) == 0


# -- the lessons ----------------------------------------------------------------------------


def _titles():
    return {p.name: lesson_title(read_notebook(p)) for p in lesson_files()}


@pytest.mark.parametrize("path", lesson_params())
def test_lesson_follows_the_house_style(path):
    found = style_problems(read_notebook(path), path.name, _titles())
    assert not found, f"{path.name}:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("path", lesson_params(old_style="xfail-lax"))
def test_lesson_fits_one_class(path):
    row = stats.lesson_stats(read_notebook(path), path.name)
    assert row.within_limits, stats.format_table([row])


@pytest.mark.parametrize("path", lesson_params())
def test_lesson_has_slide_metadata(path):
    missing = slides.slides_missing(read_notebook(path))
    assert not missing, (f"{path.name}: cells {missing} need slide types; run "
                         f"python -m luckylab.lessons.slides {path}")


# -- where teachers find the lessons -------------------------------------------------------------


def test_readme_lists_every_lesson_and_the_teachers_kit():
    from lesson_support import REPO

    readme = (REPO / "README.md").read_text("utf-8")
    table = readme[readme.index("## The lessons"):readme.index("## For teachers")]
    missing = [p.stem for p in lesson_files() if f"(notebooks/{p.name})" not in table]
    assert not missing, f"README's lesson table does not link {missing}"
    teachers = readme[readme.index("## For teachers"):]
    for needle in ("student-copy", "luckylab.check", "docs/teaching.md", "docs/rules/",
                   "--to slides"):
        assert needle in teachers


def test_the_teachers_guide_has_its_frame():
    from lesson_support import REPO

    guide = (REPO / "docs" / "teaching.md").read_text("utf-8")
    for heading in ("## How the lessons are meant to be taught", "## Running a class",
                    "## The lessons"):
        assert f"\n{heading}\n" in guide
    for needle in ("100", "seed", 'load_board("my.toml")', "student-copy notebooks/ --out",
                   "luckylab.check", "--to slides"):
        assert needle in guide
