"""Figures shown with alt text (issue 26): the bundle, its escaping and its refusals."""

from __future__ import annotations

import base64

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from luckylab.errors import OptionError  # noqa: E402
from luckylab.lessons.figures import alt_text, is_figure  # noqa: E402
from luckylab.viz.figures import MAX_ALT, figure_bundle, show  # noqa: E402


@pytest.fixture
def fig():
    figure, ax = plt.subplots(figsize=(2, 1))
    ax.bar([1, 2], [3, 5])
    yield figure
    plt.close(figure)


def test_the_bundle_is_an_img_with_its_alt_text_and_a_real_png(fig):
    data, metadata = figure_bundle(fig, 'Two bars, 3 and 5 "pairs" high <tall>.')
    html = data["text/html"]
    assert html.startswith('<img alt="Two bars, 3 and 5 &quot;pairs&quot; high &lt;tall&gt;."')
    encoded = html.split("base64,", 1)[1].split('"', 1)[0]
    assert base64.b64decode(encoded).startswith(b"\x89PNG")
    assert data["text/plain"] == 'Figure: Two bars, 3 and 5 "pairs" high <tall>.'
    assert metadata == {"alt": 'Two bars, 3 and 5 "pairs" high <tall>.'}
    output = {"output_type": "display_data", "data": data, "metadata": metadata}
    assert is_figure(output) and alt_text(output) == 'Two bars, 3 and 5 "pairs" high <tall>.'
    del output["metadata"]  # the <img alt> alone is enough
    assert alt_text(output) == 'Two bars, 3 and 5 "pairs" high <tall>.'
    assert alt_text({"data": {"image/png": "AA"}}) is None


@pytest.mark.parametrize("alt, message", [
    ("", "empty"), ("   \n", "empty"), (None, "not NoneType"), (3, "not int"),
    ("x" * (MAX_ALT + 1), f"at most {MAX_ALT}"),
])
def test_bad_alt_text_is_refused_before_anything_is_drawn(fig, alt, message):
    with pytest.raises(OptionError, match=message):
        show(fig, alt)
    assert plt.fignum_exists(fig.number)  # nothing shown, nothing closed


def test_something_that_is_not_a_figure_is_refused():
    with pytest.raises(OptionError, match="matplotlib Figure, not list"):
        figure_bundle([1, 2], "a list")


def test_show_closes_the_figure(fig, capsys):
    show(fig, "Two bars.")
    assert not plt.fignum_exists(fig.number)


def test_every_lesson_figure_has_alt_text_and_the_guide_lists_them_all():
    from pathlib import Path

    from luckylab.lessons.figures import describe_figures, guide_section

    root = Path(__file__).resolve().parents[1]
    described = describe_figures(root / "notebooks")
    assert "(none)" not in described
    guide = guide_section((root / "docs" / "teaching.md").read_text(encoding="utf-8"))
    assert guide is not None, "docs/teaching.md has no figure descriptions section"
    assert guide.strip() == described.strip(), (
        "the guide's figure descriptions are stale: python -m luckylab.lessons.figures "
        "notebooks/ --guide docs/teaching.md")


def test_update_guide_writes_between_the_markers_and_only_there(tmp_path):
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    from luckylab.errors import LessonError
    from luckylab.lessons.figures import END, START, update_guide

    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    nbformat.write(new_notebook(cells=[
        new_code_cell("show()", outputs=[new_output("display_data", {"text/html": "<img/>"},
                                                    metadata={"alt": "Two bars."})]),
        new_markdown_cell("*Figure:* the bars.")]), lessons / "01_bars.ipynb")
    guide = tmp_path / "guide.md"
    guide.write_text(f"# Guide\n\n{START}\nold\n{END}\n\nAfter.\n", encoding="utf-8")
    assert update_guide(lessons, guide) is True
    text = guide.read_text(encoding="utf-8")
    assert "1. the bars. *Alt text:* Two bars." in text and "old" not in text
    assert text.startswith("# Guide\n\n") and text.endswith(f"{END}\n\nAfter.\n")
    assert update_guide(lessons, guide) is False
    guide.write_text("no markers", encoding="utf-8")
    with pytest.raises(LessonError, match="no figure descriptions section"):
        update_guide(lessons, guide)
