"""Show a lesson figure with alt text: a short description a screen reader reads out.

JupyterLab (and JupyterLite, VS Code, nbconvert's HTML) draw a ``text/html`` output before an
``image/png`` one, and JupyterLab's image renderer has no place for alt text. So :func:`show`
displays a figure as one ``<img>`` tag with an ``alt`` attribute (the PNG inside it as a data
URL), with the same description as the output's ``text/plain`` and in its metadata under
``"alt"``. The description should hold the numbers a sighted student reads from the figure
("the bars rise from 2 to 9 pairs ..."), built from the same data the figure draws, so the
words cannot drift from the picture.

The figure is closed after it is shown, so the notebook's inline backend does not draw it a
second time.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> from luckylab.viz.figures import figure_bundle
>>> fig, ax = plt.subplots(figsize=(2, 1))
>>> _ = ax.plot([0, 1], [0, 1])
>>> data, metadata = figure_bundle(fig, "A line rising from 0 to 1.")
>>> data["text/html"][:60]
'<img alt="A line rising from 0 to 1." src="data:image/png;ba'
>>> data["text/plain"], metadata
('Figure: A line rising from 0 to 1.', {'alt': 'A line rising from 0 to 1.'})
>>> plt.close(fig)
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from ..errors import OptionError

__all__ = ["MAX_ALT", "figure_bundle", "show"]

#: The longest alt text accepted (screen readers read it in one breath; longer belongs in text).
MAX_ALT = 600


def _check_alt(alt: Any) -> str:
    if not isinstance(alt, str):
        raise OptionError(f"alt must be a str describing the figure, not {type(alt).__name__}")
    text = " ".join(alt.split())
    if not text:
        raise OptionError("alt must describe the figure in words (it is empty)")
    if len(text) > MAX_ALT:
        raise OptionError(f"alt is {len(text)} characters; at most {MAX_ALT} are allowed "
                          "(put the rest in the caption or the text)")
    return text


def figure_bundle(fig: Any, alt: str, *, dpi: int | None = None) -> tuple[dict, dict]:
    """The display bundle (data, metadata) for ``fig`` with the description ``alt``.

    Raises :class:`~luckylab.errors.OptionError` when ``fig`` is not a matplotlib figure or
    ``alt`` is not a non-empty str of at most :data:`MAX_ALT` characters.
    """
    text = _check_alt(alt)
    if not hasattr(fig, "savefig"):
        raise OptionError(f"fig must be a matplotlib Figure, not {type(fig).__name__}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=dpi)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    tag = (f'<img alt="{html.escape(text, quote=True)}" '
           f'src="data:image/png;base64,{encoded}" style="max-width: 100%"/>')
    return {"text/html": tag, "text/plain": f"Figure: {text}"}, {"alt": text}


def show(fig: Any, alt: str, *, dpi: int | None = None) -> None:
    """Display ``fig`` with the alt text ``alt`` in a notebook, then close it.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> show(fig, "")
    Traceback (most recent call last):
    ...
    luckylab.errors.OptionError: alt must describe the figure in words (it is empty)
    >>> plt.close(fig)
    """
    data, metadata = figure_bundle(fig, alt, dpi=dpi)
    from IPython.display import display

    display(data, raw=True, metadata=metadata)
    import matplotlib.pyplot as plt

    plt.close(fig)
