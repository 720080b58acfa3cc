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
