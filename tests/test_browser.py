"""Every lesson, opened in a real JupyterLab in Debian's Chromium, runs and renders.

For each ``notebooks/*.ipynb`` the test opens the notebook in JupyterLab (a server of its own,
on a temporary copy of the notebooks; one page of JupyterLab, loaded once, opens every notebook
in turn), clears it, runs all cells, waits for the kernel to go idle and then checks what a
student would see:

- no error output and no traceback on stderr, in any cell;
- every widget view the notebook displays rendered (``.jupyter-widgets`` in its place, no
  "Error displaying widget" / "model not found"), every image loaded;
- in lesson 03 (and wherever else it appears), clicking the TurnStepper's step button changes
  both the event log (text) and the figure (image bytes);
- in lesson 03b, two clicks on a space of the play table's map move Player 1's pawn there,
  and a click on Hint shows what the bots, the look-ahead bot included, would do.

A screenshot of each lesson goes to ``test-artifacts/browser/<notebook>.png``.

Without /usr/bin/chromium or playwright the test skips on a laptop, but fails when the ``CI``
environment variable is set: CI must really run it. ``LUCKYLAB_BROWSER_NOTEBOOKS=<dir>`` points
the test at another folder of notebooks (for trying the harness on notebooks of your own).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import time
import warnings
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    JS_BUSY_STATE,
    JS_CELLS,
    JS_CLOSE_ALL,
    JS_CONTENT_HEIGHT,
    JS_LOG_ENTRIES,
    JS_LOG_OUTPUTS,
    JS_NOTEBOOK_READY,
    JS_OPEN,
    JS_PLAY_SNAPSHOT,
    JS_RENDERED_OUTPUTS,
    JS_RUN_ALL,
    JS_SCROLL_TOP,
    JS_WIDGET_SNAPSHOT,
    STDERR_MIME,
    WIDGET_ERROR_TEXTS,
    LabServer,
    error_outputs,
    lab_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = Path(os.environ.get("LUCKYLAB_BROWSER_NOTEBOOKS", ROOT / "notebooks"))
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
ARTIFACTS = ROOT / "test-artifacts" / "browser"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")

# The TurnStepper's step button (luckylab/viz/turn_stepper.py); lesson 03 must have one.
STEP_BUTTON = re.compile(r"^\s*Step\b", re.IGNORECASE)
STEPPER_LESSON = "03_"

# The play table (luckylab/viz/play/) of lesson 03b: clicking a space twice moves the pawn.
PLAY_LESSON = "03b_"
PLAY_TABLE = 'PlayTable("island", players=4, you=1, seed=2026)'

OPEN_TIMEOUT_S = 120  # server start, kernel start, first render of JupyterLab
RUN_TIMEOUT_S = 900  # all cells of one lesson (simulations included) on a busy 2-core machine
CLICK_TIMEOUT_S = 60
LOST_CLICK_S = 10  # a click the page shows no sign of after this long (kernel idle) was lost
MOST_LOST_CLICKS = 2  # more lost clicks than this in the five games is a fault, not bad luck
POLL_MS = 100  # between two looks at the page while waiting for a state (was 250: idle time)


def test_the_lessons_include_the_play_lesson():
    """The browser runs every lesson; lesson 03b (the play table) must be among them."""
    if NOTEBOOK_DIR != ROOT / "notebooks":
        pytest.skip("LUCKYLAB_BROWSER_NOTEBOOKS points at other notebooks")
    assert any(p.name.startswith(PLAY_LESSON) for p in NOTEBOOKS)
    assert any(p.name.startswith(STEPPER_LESSON) for p in NOTEBOOKS)


def unavailable(reason: str) -> None:
    """Skip on a developer machine; fail under CI, where the browser test must really run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI is set, so the browser test must run)", pytrace=False)
    pytest.skip(reason)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Python playwright (never a downloaded browser)."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing: apt-get install chromium")
    if importlib.util.find_spec("jupyterlab") is None:
        unavailable("jupyterlab is not installed: pip install -e '.[test]'")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed: pip install -e '.[test]'")
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    """One JupyterLab for all lessons, on a temporary copy of the notebooks folder."""
    if not NOTEBOOKS:
        unavailable(f"no notebooks in {NOTEBOOK_DIR}")
    with lab_server(NOTEBOOK_DIR, tmp_path_factory.mktemp("jupyterlab")) as running:
        yield running


VIEWPORT = {"width": 1280, "height": 900}


class LabPage:
    """One page of JupyterLab in Chromium, loaded once and reused: each notebook is opened in it
    through JupyterLab's own ``docmanager:open`` and closed after its checks, so a lesson costs
    its kernel and its cells, not a fresh load of JupyterLab. After a lesson that failed, or a
    page left in doubt, the page is thrown away and the next notebook gets a fresh one."""

    def __init__(self, browser, server: LabServer):
        self.browser, self.server = browser, server
        self.context = self.page = None
        self.console_errors: list[str] = []

    def _fresh(self) -> None:
        self.discard()
        self.context = self.browser.new_context(viewport=VIEWPORT)
        page = self.context.new_page()
        page.set_default_timeout(OPEN_TIMEOUT_S * 1000)
        page.on(
            "console",
            lambda m: m.type in ("error", "warning")
            and self.console_errors.append(f"{m.type}: {m.text}"),
        )
        page.on("pageerror", lambda e: self.console_errors.append(f"uncaught: {e}"))
        page.goto(self.server.url("lab/workspaces/luckylab-browser-test?reset"))
        page.wait_for_function("() => window.jupyterapp !== undefined")
        self.page = page

    def open(self, name: str):
        """The page with notebook ``name`` (relative to the server root) open, its kernel idle,
        no other document open and the console log empty."""
        if self.page is None or self.close_documents():
            self._fresh()
        page = self.page
        page.set_viewport_size(VIEWPORT)
        self.console_errors.clear()
        page.evaluate(JS_OPEN, name)
        deadline = time.monotonic() + OPEN_TIMEOUT_S
        state = None
        while time.monotonic() < deadline and state != "idle":
            accept_kernel_dialog(page)
            state = page.evaluate(JS_NOTEBOOK_READY, name)
            page.wait_for_timeout(POLL_MS)
        if state != "idle":
            pytest.fail(
                f"{name} did not open with an idle kernel: {state!r}\n" + self.server.log_tail(),
                pytrace=False,
            )
        return page

    def close_documents(self) -> int:
        """Close every open document (unsaved: nothing is written); how many stayed open."""
        if self.page is None:
            return 0
        try:
            return self.page.evaluate(JS_CLOSE_ALL)
        except Exception:  # noqa: BLE001 - a page in doubt is replaced, never reused
            self.discard()
            return 0

    def discard(self) -> None:
        if self.context is not None:
            self.context.close()
        self.context = self.page = None


@pytest.fixture(scope="module")
def lab_page(browser, server):
    """The JupyterLab page every notebook of this module is opened in (see LabPage)."""
    holder = LabPage(browser, server)
    try:
        yield holder
    finally:
        holder.discard()


def wait_for(
    page, script: str, wanted: str, timeout: float, what: str, server: LabServer, arg=None
) -> None:
    """Poll ``script`` in the page until it returns ``wanted``."""
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = page.evaluate(script, arg)
        if state == wanted:
            return
        page.wait_for_timeout(POLL_MS)
    pytest.fail(
        f"{what}: still {state!r} after {timeout:.0f}s\n--- jupyter lab log ---\n"
        + server.log_tail(),
        pytrace=False,
    )


def accept_kernel_dialog(page) -> None:
    """A notebook without kernel metadata asks which kernel to use: take the default."""
    dialog = page.locator(".jp-Dialog .jp-mod-accept")
    if dialog.count():
        dialog.first.click()


def rendering_problems(page) -> list[str]:
    """Errors, tracebacks and broken widget views visible in the notebook, model and DOM."""
    cells = page.evaluate(JS_CELLS)
    problems = error_outputs(cells)
    unexecuted = [
        c["index"] for c in cells
        if c["type"] == "code" and c["source"].strip() and c["executionCount"] is None
    ]  # fmt: skip
    if unexecuted:
        problems.append(f"cells never executed: {unexecuted}")

    rendered = page.evaluate(JS_RENDERED_OUTPUTS)
    for out in rendered:
        where = f"cell {out['cell']}" + (" (inside a widget)" if out["nested"] else "")
        text = out["text"]
        # Top-level errors were read from the cell model above; outputs captured by Output
        # widgets (for example in a button callback) exist only in the DOM.
        if out["nested"] and (
            out["mime"] == "application/vnd.jupyter.error"
            or (out["mime"] == STDERR_MIME and "Traceback" in text)
        ):
            problems.append(f"{where}: error output:\n{text[-1500:]}")
        for bad in WIDGET_ERROR_TEXTS:
            if bad in text:
                problems.append(f"{where}: widget failed to render: {text[:300]!r}")
                break
        if out["brokenImages"]:
            problems.append(f"{where}: {out['brokenImages']} image(s) failed to load")
        # Every widget view the kernel displayed must be rendered as a widget in its place.
        if out["isWidget"] and not out["hasWidget"]:
            problems.append(f"{where}: widget view not rendered: {text[:300]!r}")

    return problems


def check_stepper(page, name: str, server: LabServer) -> str | None:
    """Click the TurnStepper's step button; the event log and the figure must both change.

    Returns a description of the problem, or None.
    """
    # a play table's move buttons ("Step into the Hall", a Kill move) are not a stepper's
    button = page.locator(".jp-NotebookPanel .jupyter-widgets "
                          "button:not(.luckylab-play-table button)").filter(has_text=STEP_BUTTON)
    if not button.count():
        if name.startswith(STEPPER_LESSON):
            return f"no TurnStepper step button (text matching {STEP_BUTTON.pattern!r})"
        return None
    button = button.first
    button.scroll_into_view_if_needed()
    before = button.evaluate(JS_WIDGET_SNAPSHOT)
    if not before["logFound"]:
        return "the TurnStepper shows no event log (no 'what happened' box)"
    if not before["images"] and not before["svgs"]:
        return f"the TurnStepper shows no figure before the click: {before['log'][:300]!r}"
    button.click()
    deadline = time.monotonic() + CLICK_TIMEOUT_S
    after = before
    while time.monotonic() < deadline:
        page.wait_for_timeout(POLL_MS)
        after = button.evaluate(JS_WIDGET_SNAPSHOT)
        if after["log"] != before["log"] and (
            after["images"] != before["images"] or after["svgs"] != before["svgs"]
        ):
            break
    wait_for(page, JS_BUSY_STATE, "idle", CLICK_TIMEOUT_S, "kernel after the step click", server)
    after = button.evaluate(JS_WIDGET_SNAPSHOT)
    problems = []
    if after["log"] == before["log"]:
        problems.append(f"the event log did not change: {after['log'][-300:]!r}")
    if after["images"] == before["images"] and after["svgs"] == before["svgs"]:
        problems.append("the figure did not change")
    if problems:
        return "after clicking step, " + "; ".join(problems) + "\n" + server.log_tail(20)
    return None


def check_play_table(page, name: str, server: LabServer) -> str | None:
    """In lesson 03b, click a space Player 1 can move to, twice, on the map picture: the first
    click picks it, the second moves the pawn there (the players' table says so) and the
    picture changes. Returns a description of the problem, or None."""
    if not name.startswith(PLAY_LESSON):
        return None
    cells = json.loads((NOTEBOOK_DIR / name).read_text())["cells"]
    if not any(PLAY_TABLE in "".join(cell["source"]) for cell in cells):
        return f"{name} no longer makes {PLAY_TABLE}: update the browser test"
    import matplotlib

    matplotlib.use("Agg")
    from luckylab.viz.play import PlayTable

    twin = PlayTable("island", players=4, you=1, seed=2026)  # the same table, in this process
    target = twin.choices["Move"][0].space
    px, py = twin.clicks.pixel_of(target)
    natural_w, natural_h = twin.clicks.natural
    image = page.locator(".jp-NotebookPanel .luckylab-play-table img").first
    if not image.count():
        return "no play table map (img in .luckylab-play-table)"
    image.scroll_into_view_if_needed()
    table = page.locator(".jp-NotebookPanel .luckylab-play-table").first
    snapshot = JS_PLAY_SNAPSHOT

    def click_target() -> None:
        box = image.bounding_box()
        page.mouse.click(box["x"] + px * box["width"] / natural_w,
                         box["y"] + py * box["height"] / natural_h)

    before = table.evaluate(snapshot)
    if target in before["players"].split("Player 2")[0]:
        return f"Player 1 is already on {target} before the click: {before['players'][:200]!r}"
    click_target()
    deadline = time.monotonic() + CLICK_TIMEOUT_S
    picked = before
    while time.monotonic() < deadline and "Picked" not in picked["message"]:
        page.wait_for_timeout(POLL_MS)
        picked = table.evaluate(snapshot)
    if "Picked" not in picked["message"]:
        return (f"a click on {target} picked nothing: message {picked['message']!r}\n"
                + server.log_tail(20))
    click_target()
    after = picked
    while time.monotonic() < deadline:
        page.wait_for_timeout(POLL_MS)
        after = table.evaluate(snapshot)
        if target in after["players"].split("Player 2")[0] and after["image"] != before["image"]:
            break
    wait_for(page, JS_BUSY_STATE, "idle", CLICK_TIMEOUT_S, "kernel after the map click", server)
    after = table.evaluate(snapshot)
    problems = []
    if target not in after["players"].split("Player 2")[0]:
        problems.append(f"Player 1 did not move to {target}: {after['players'][:300]!r}")
    if after["image"] == before["image"]:
        problems.append("the map picture did not change")
    if problems:
        return "after clicking the map twice, " + "; ".join(problems) + "\n" + \
            server.log_tail(20)
    return check_hint(page, table, server)


def check_hint(page, table, server: LabServer) -> str | None:
    """Click the play table's Hint: the hint names the bots' choices, the look-ahead bot's
    (it imagines games, or says it did not need to) and the odds of an attack."""
    button = table.locator("button", has_text=re.compile(r"^\s*Hint\s*$")).first
    if not button.count():
        return "no Hint button in the play table"
    button.click()
    deadline = time.monotonic() + CLICK_TIMEOUT_S
    hint = ""
    while time.monotonic() < deadline and "look-ahead bot would" not in hint:
        page.wait_for_timeout(POLL_MS)
        hint = table.evaluate(JS_PLAY_SNAPSHOT)["hint"]
    wait_for(page, JS_BUSY_STATE, "idle", CLICK_TIMEOUT_S, "kernel after the Hint click", server)
    if "look-ahead bot would" not in hint:
        return f"the Hint shows no look-ahead bot: {hint[:300]!r}\n" + server.log_tail(20)
    if "imagined" not in hint and "did not look ahead" not in hint:
        return f"the Hint does not say what the look-ahead bot imagined: {hint[:400]!r}"
    if "P(the others can foil it)" not in hint:
        return f"the Hint shows no odds: {hint[:400]!r}"
    return None


def log_console_problems(page) -> list[str]:
    """Tracebacks from widget callbacks, which JupyterLab sends to its log console."""
    if not page.evaluate(JS_LOG_ENTRIES):
        return []
    return [
        f"log console (a widget callback failed):\n{entry['text'][-1500:]}"
        for entry in page.evaluate(JS_LOG_OUTPUTS)
        if entry["mime"] == "application/vnd.jupyter.error" or "Traceback" in entry["text"]
    ]


def save_screenshot(page, name: str) -> Path:
    """Screenshot of the whole lesson: the viewport grows to the notebook's height."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = min(page.evaluate(JS_CONTENT_HEIGHT) + 160, 15000)
    page.set_viewport_size({"width": 1280, "height": max(900, height)})
    page.wait_for_timeout(500)  # JupyterLab lays out again for the new size
    page.evaluate(JS_SCROLL_TOP)
    page.wait_for_timeout(300)
    target = ARTIFACTS / f"{Path(name).stem}.png"
    page.screenshot(path=str(target))
    return target


@pytest.mark.parametrize(
    "notebook",
    NOTEBOOKS or [pytest.param(None, id="no-notebooks")],
    ids=lambda p: p.name if isinstance(p, Path) else str(p),
)
def test_lesson_runs_and_renders_in_jupyterlab(notebook, server, lab_page):
    """Run all cells in JupyterLab: no errors, every widget renders, the stepper steps."""
    name = notebook.name
    original = sha256(notebook)
    console_errors = lab_page.console_errors
    shot = None
    problems: list[str] = []
    done = False
    try:
        page = lab_page.open(name)
        page.evaluate(JS_RUN_ALL)
        wait_for(page, JS_BUSY_STATE, "idle", RUN_TIMEOUT_S, f"running {name}", server)
        page.wait_for_timeout(1000)  # let late widget views and images settle

        problems = rendering_problems(page)
        if not problems:
            stepper_problem = check_stepper(page, name, server)
            if stepper_problem:
                problems.append(stepper_problem)
            play_problem = check_play_table(page, name, server)
            if play_problem:
                problems.append(play_problem)
            problems += rendering_problems(page)  # the click must not break anything either
        shot = save_screenshot(page, name)
        problems += log_console_problems(page)
        problems += [
            f"browser console: {e}"
            for e in console_errors
            if e.startswith(("error", "uncaught")) and "widget" in e.lower()
        ]
        done = True
    finally:
        if shot is None and lab_page.page is not None:
            try:
                shot = save_screenshot(lab_page.page, name)
            except Exception as exc:  # a screenshot must never hide the real failure
                shot = f"(no screenshot: {exc})"
        if done and not problems:
            lab_page.close_documents()
        else:
            lab_page.discard()  # the next lesson starts on a fresh page
        server.shutdown_kernels_for(name)
        # Everything the browser complained about, next to the screenshot, for a human to read.
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"{notebook.stem}.console.txt").write_text("\n".join(console_errors) + "\n")
    assert sha256(notebook) == original, f"{name} was modified on disk by the browser run"
    problems = list(dict.fromkeys(problems))  # a nested failure also shows in its parent
    assert not problems, f"{name} (screenshot {shot}):\n" + "\n".join(problems)


# -- every game at the play table, played by clicks ----------------------------------------------

EVERY_GAME = (
    # (game, the table's arguments, decisions to click: None plays to the end)
    ("island", {"players": 4, "you": 1, "seed": 2026, "turn_cap": 10}, None),
    ("kill", {"players": 3, "you": 1, "seed": 4, "turn_cap": 10}, None),
    ("save", {"players": 4, "you": 1, "seed": 2, "turn_cap": 10}, None),
    ("panic", {"players": 2, "you": [1, 2], "seed": 1, "time": {"budget": 30}}, None),
    ("doctorwho", {"players": 3, "you": 1, "seed": 2, "turn_cap": 3}, None),
)
"""The five games at one ``PlayTable`` each, every one played by clicks to its end: Island,
Kill and Save stopped by a turn cap of 10 (four decisions of Player 1 each), Panic Island! (a
hot seat of two, a short hourglass) and Doctor Who (a turn cap of 3). After every click the
table's message, title and log must equal its twin's."""

EVERY_GAME_NOTEBOOK = "zz_every_game_at_the_table.ipynb"


def _every_game_notebook() -> str:
    cells = ["import matplotlib\nmatplotlib.use('Agg')\nfrom luckylab.viz.play import PlayTable"]
    cells += [f"PlayTable({game!r}, " + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"
              for game, args, _ in EVERY_GAME]
    return json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{k}",
                   "metadata": {}, "outputs": [], "source": source}
                  for k, source in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5})


def _as_shown(twin) -> dict[str, object]:
    """What the browser's table must show when it is in step with ``twin``."""
    import html as html_

    from luckylab.viz.play import LOG_LINES

    return {"message": html_.unescape(twin.message).strip(),
            "title": html_.unescape(re.sub(r"<[^>]+>", "", twin.title_html.value)).strip(),
            "log": [line.strip() for line in twin.lines[-LOG_LINES:]]}


def _shown(table) -> dict[str, object]:
    snap = table.evaluate(JS_PLAY_SNAPSHOT)
    log = [line.strip() for line in snap["log"].splitlines() if line.strip()]
    return {"message": snap["message"].strip(), "title": snap["title"].strip(),
            "log": log[1:] if log and log[0] == "What happened" else log}


def play_by_clicks(page, table, twin, decisions, server: LabServer,
                   lost_clicks: list[str]) -> str | None:
    """Play ``decisions`` decisions (None: to the end) at a table in the page by clicking: two
    clicks on the picture at the first choice that has a place on it (a space, a card of the
    grid, a card of the hand), else the "Do it" button. ``twin``, the same table in this
    process, gets the same clicks; after each one the page must show what the twin shows
    (message, title, event log). Returns a description of the problem, or None; a click the
    page lost (see ``click_at``) is added to ``lost_clicks``."""
    image = table.locator("img").first
    image.scroll_into_view_if_needed()
    do_it = table.locator("button", has_text=re.compile(r"^\s*Do it\s*$")).first

    def in_step(what: str, timeout: float | None = None) -> str | None:
        wanted = _as_shown(twin)
        deadline = time.monotonic() + (timeout or CLICK_TIMEOUT_S)
        shown = _shown(table)
        while time.monotonic() < deadline and shown != wanted:
            page.wait_for_timeout(POLL_MS)
            shown = _shown(table)
        if shown != wanted:
            return (f"{twin.game_name}: after {what} the page shows {shown!r}, not {wanted!r}\n"
                    + server.log_tail(20))
        return None

    def click_at(key: str, what: str) -> str | None:
        """Click ``key`` in the page and in the twin, then check they agree. The page is
        settled first (kernel idle, picture loaded); a click the page shows no sign of (its
        table unchanged, the kernel idle again) is made once more, and said so."""
        wait_for(page, JS_BUSY_STATE, "idle", CLICK_TIMEOUT_S, f"kernel before {what}", server)
        image.evaluate("(img, ms) => img.complete && img.naturalWidth > 0 ? null"
                       " : new Promise(done => { img.addEventListener('load', done, {once: true});"
                       " setTimeout(done, ms); })", CLICK_TIMEOUT_S * 1000)
        x, y = twin.clicks.pixel_of(key)
        natural_w, natural_h = twin.clicks.natural
        before = _shown(table)
        for attempt in (1, 2):
            box = image.bounding_box()
            # The locator's click scrolls the picture into view and waits until it is visible,
            # stable and the topmost thing at that point.
            image.click(position={"x": x * box["width"] / natural_w,
                                  "y": y * box["height"] / natural_h},
                        timeout=CLICK_TIMEOUT_S * 1000)
            if attempt == 1:
                twin.click({"dataX": x, "dataY": y})
            problem = in_step(f"{what} click on {key}", LOST_CLICK_S)
            if problem is None:
                return None
            if attempt == 1 and _shown(table) == before \
                    and page.evaluate(JS_BUSY_STATE) == "idle":
                lost_clicks.append(f"{twin.game_name}: {what} click on {key} at {box}")
                continue
            return in_step(f"{what} click on {key}")
        return None  # pragma: no cover - the loop returns

    made = 0
    while not twin.game.is_over and (decisions is None or made < decisions):
        keyed = [c for cs in twin.choices.values() for c in cs if c.space is not None]
        if keyed:
            key = keyed[0].space
            for click in ("a first", "a second"):
                problem = click_at(key, click)
                if problem:
                    return problem
        else:
            do_it.click()
            twin.do_it()
            problem = in_step("pressing Do it")
            if problem:
                return problem
        made += 1
    wait_for(page, JS_BUSY_STATE, "idle", CLICK_TIMEOUT_S, "kernel after the clicks", server)
    if decisions is None and not twin.game.is_over:  # pragma: no cover - the loop ends it
        return f"{twin.game_name}: the game did not end"
    return None


def test_play_table_plays_every_game_by_clicking(server, lab_page):
    """One PlayTable per game in a notebook of the test's own: each is played by clicks on its
    picture (and its Do it button), in step with the same table in this process."""
    import matplotlib

    matplotlib.use("Agg")
    from luckylab.viz.play import PlayTable

    (server.root / EVERY_GAME_NOTEBOOK).write_text(_every_game_notebook())
    problems: list[str] = []
    lost_clicks: list[str] = []
    try:
        page = lab_page.open(EVERY_GAME_NOTEBOOK)
        page.evaluate(JS_RUN_ALL)
        wait_for(page, JS_BUSY_STATE, "idle", RUN_TIMEOUT_S, "running the five tables", server)
        page.wait_for_timeout(1000)
        problems += rendering_problems(page)
        tables = page.locator(".jp-NotebookPanel .luckylab-play-table")
        assert tables.count() == len(EVERY_GAME), f"{tables.count()} play tables rendered"
        for k, (game, args, decisions) in enumerate(EVERY_GAME):
            twin = PlayTable(game, **args)
            try:
                problem = play_by_clicks(page, tables.nth(k), twin, decisions, server,
                                         lost_clicks)
            finally:
                twin.close()
            if problem:
                problems.append(problem)
        problems += log_console_problems(page)
        save_screenshot(page, Path(EVERY_GAME_NOTEBOOK).name)
    finally:
        lab_page.discard()  # the last user of the page: nothing to keep it for
        server.shutdown_kernels_for(EVERY_GAME_NOTEBOOK)
    assert not problems, "\n".join(problems)
    # A click the browser dropped now and then (it happened twice in about ten full runs, each
    # time right after a click at the same spot) is clicked again; many would be a fault.
    assert len(lost_clicks) <= MOST_LOST_CLICKS, "\n".join(lost_clicks)
    if lost_clicks:
        warnings.warn("clicked again after a lost click: " + "; ".join(lost_clicks), stacklevel=1)
