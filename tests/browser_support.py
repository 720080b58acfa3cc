"""Helpers for tests/test_browser.py: a throwaway JupyterLab server and a notebook page driver.

Kept out of ``conftest.py`` on purpose: only the browser test imports this module, so the rest of
the suite never pays for (or depends on) JupyterLab and playwright.

The server runs on a temporary *copy* of the notebooks, with its own settings, workspaces,
runtime and IPython directories, so a run can neither modify a lesson on disk nor be disturbed
by a teacher's personal JupyterLab configuration. It lives in its own process group and is shut
down (REST, then SIGTERM, then SIGKILL) whatever happens.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# Flags checked on this machine kind (ECOSYSTEM-NOTES.md): without the background-networking
# ones Chromium keeps dialling Google through a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Debian's launcher means to add this when /dev/shm is small, but its check breaks when
    # /dev/shm has two mounts ("[: unexpected operator"); tall screenshots need the room.
    "--disable-dev-shm-usage",
]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STDERR_MIME = "application/vnd.jupyter.stderr"
WIDGET_ERROR_TEXTS = ("Error displaying widget", "model not found")

# JupyterLab user settings for the test server: render every cell (no windowing, so widgets in
# cells below the fold exist in the DOM), never autosave, never fetch news or updates.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False,
        "fetchNews": "false",
    },
}


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc); kernels run in sessions of their own."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Field 4 is the parent pid; the command name (field 2) may contain spaces.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


@dataclass
class LabServer:
    """A running ``jupyter lab`` serving ``root`` on ``port`` with ``token``."""

    process: subprocess.Popen
    port: int
    token: str
    root: Path
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        """Address of ``path`` on the server, token included."""
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}/{path.lstrip('/')}{sep}token={self.token}"

    def api(self, method: str, path: str, timeout: float = 10) -> Any:
        """Call the Jupyter Server REST API; returns the decoded JSON (or None)."""
        request = urllib.request.Request(
            f"{self.base_url}/api/{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
            data=b"" if method in ("POST", "PATCH") else None,
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the server's (and its kernels') output, for failure messages."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def shutdown_kernels_for(self, path: str) -> None:
        """Stop the kernel of the notebook at ``path`` (relative to the server root)."""
        with contextlib.suppress(OSError, urllib.error.URLError):
            for session in self.api("GET", "sessions"):
                if session.get("path") == path:
                    self.api("DELETE", f"sessions/{session['id']}")


def _write_settings(settings_dir: Path) -> None:
    for relative, values in LAB_SETTINGS.items():
        target = settings_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))


@contextlib.contextmanager
def lab_server(notebooks: Path, workdir: Path, startup_timeout: float = 90) -> Iterator[LabServer]:
    """Run JupyterLab on a copy of ``notebooks`` (copied to ``workdir/notebooks``).

    The server is stopped when the block ends, whatever happens: first politely through
    ``POST /api/shutdown`` (which also stops its kernels), then SIGTERM and SIGKILL to its
    process group, then SIGKILL to any kernel it left behind.
    """
    root = workdir / "notebooks"
    shutil.copytree(notebooks, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for name in ("settings", "workspaces", "config", "runtime", "ipython"):
        (workdir / name).mkdir()
    _write_settings(workdir / "settings")
    log_path = workdir / "jupyter-lab.log"

    port = free_port()
    token = secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ServerApp.open_browser=False",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={workdir / 'settings'}",
        f"--LabApp.workspaces_dir={workdir / 'workspaces'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI runs as root; jupyter refuses root without it
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(workdir / "config"),
        JUPYTER_RUNTIME_DIR=str(workdir / "runtime"),
        IPYTHONDIR=str(workdir / "ipython"),
    )
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, killed as a whole below
        )
    server = LabServer(process, port, token, root, log_path)
    kernels: set[int] = set()
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"jupyter lab exited with {process.returncode} before it was ready:\n"
                    + server.log_tail()
                )
            try:
                server.api("GET", "status", timeout=2)
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"jupyter lab did not answer within {startup_timeout}s:\n"
                        + server.log_tail()
                    ) from None
                time.sleep(0.25)
        yield server
    finally:
        kernels.update(_children(process.pid))
        with contextlib.suppress(OSError, urllib.error.URLError):
            server.api("POST", "shutdown", timeout=5)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if process.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        for pid in kernels:  # kernels start their own sessions, outside the group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


# ---------------------------------------------------------------------------------------------
# Page side. JupyterLab is started with expose_app_in_browser, so window.jupyterapp is the app.

JS_NOTEBOOK_READY = """
async (path) => {
  const app = window.jupyterapp;
  if (!app) return 'no app';
  await app.restored;
  const panel = app.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path || !panel.content) return 'opening';
  await panel.context.ready;
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel) return 'no kernel';
  return kernel.status;
}
"""

# Open a notebook in the JupyterLab already loaded in the page (no new page load per lesson).
JS_OPEN = """
async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  return true;
}
"""

# Close every document and panel of the main area without the "save your work?" dialog (a run
# makes a notebook dirty; nothing is ever saved); returns how many documents are still open
# (JupyterLab puts a Launcher in the emptied main area: that one is not counted).
JS_CLOSE_ALL = """
async () => {
  const app = window.jupyterapp;
  const documents = () => Array.from(app.shell.widgets('main')).filter(w => w.context);
  for (const widget of Array.from(app.shell.widgets('main'))) {
    if (widget.context && widget.context.model) widget.context.model.dirty = false;
    widget.close();
  }
  for (let k = 0; k < 100 && documents().length; k++) {
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return documents().length;
}
"""

JS_RUN_ALL = """
async () => {
  const app = window.jupyterapp;
  app.shell.collapseLeft();
  await app.commands.execute('notebook:clear-all-cell-outputs');
  await app.commands.execute('notebook:run-all-cells');
  return true;
}
"""

# 'idle' only when the kernel is idle and no cell is queued or running.
JS_BUSY_STATE = """
() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel) return 'no kernel';
  if (kernel.status !== 'idle') return kernel.status;
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== 'code') continue;
    if (cell.model.executionState === 'running') return 'cell running';
    const prompt = cell.node.querySelector('.jp-InputPrompt');
    if (prompt && prompt.textContent.includes('*')) return 'cell queued';
  }
  if (document.querySelector('.jp-OutputArea-output')
      && [...document.querySelectorAll('.jp-OutputArea-output')]
           .some(n => n.textContent.includes('Loading widget'))) return 'widget loading';
  return 'idle';
}
"""

JS_CELLS = """
() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.content.widgets.map((cell, index) => ({
    index,
    type: cell.model.type,
    source: cell.model.sharedModel.getSource(),
    executionCount: cell.model.type === 'code' ? cell.model.executionCount : null,
    outputs: cell.model.type === 'code' ? cell.model.outputs.toJSON() : [],
  }));
}
"""

# Every rendered output in the notebook, as a reader sees it. Top-level outputs are paired with
# their model (the output area's children follow the model's outputs one to one); outputs nested
# in widget views (Output widgets render output areas of their own) exist only in the DOM.
JS_RENDERED_OUTPUTS = """
() => {
  const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';
  const describe = (node) => ({
    mime: node.getAttribute('data-mime-type'),
    hasWidget: node.querySelector('.jupyter-widgets') !== null
               || node.classList.contains('jupyter-widgets'),
    text: node.innerText.slice(0, 3000),
    brokenImages: [...node.querySelectorAll('img')]
                    .filter(img => !img.complete || img.naturalWidth === 0).length,
  });
  const result = [];
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    cell.outputArea.widgets.forEach((child, position) => {
      const node = child.node.querySelector('.jp-OutputArea-output');
      const model = cell.model.outputs.get(position);
      const data = model ? model.toJSON().data || {} : {};
      if (node) result.push({cell: index, nested: false,
                             isWidget: WIDGET_MIME in data, ...describe(node)});
    });
    for (const node of cell.node.querySelectorAll('.jupyter-widgets .jp-OutputArea-output')) {
      result.push({cell: index, nested: true, isWidget: false, ...describe(node)});
    }
  });
  return result;
}
"""

# What the TurnStepper shows, from the widget view that holds the step button: its event log
# (an element with class luckylab-event-log if there is one, else the box under the heading
# "what happened", luckylab/viz/turn_stepper.py) and its figure (image sources, i.e. the PNG bytes).
JS_WIDGET_SNAPSHOT = """
(button) => {
  const view = button.closest('.jp-OutputArea-output') || button.closest('.jupyter-widgets');
  let log = view.querySelector('.luckylab-event-log');
  if (!log) {
    const heading = [...view.querySelectorAll('.widget-html')]
      .find(node => node.innerText.trim().toLowerCase() === 'what happened');
    log = heading ? heading.parentElement : null;
  }
  return {
    logFound: log !== null,
    log: (log || view).innerText,
    images: [...view.querySelectorAll('img')].map(img => img.src),
    svgs: [...view.querySelectorAll('svg')].map(svg => svg.outerHTML.length),
  };
}
"""

# The play table's state as a student sees it: where the players stand, the message line, the
# map picture (its data URL).
JS_PLAY_SNAPSHOT = """
(table) => ({
  players: (table.querySelector('.luckylab-play-players') || table).innerText,
  message: (table.querySelector('.luckylab-play-message') || table).innerText,
  hint: (table.querySelector('.luckylab-play-hint') || {innerText: ''}).innerText,
  image: (table.querySelector('img') || {src: ''}).src,
  title: (table.querySelector('h3') || {innerText: ''}).innerText,
  log: (table.querySelector('.luckylab-event-log') || {innerText: ''}).innerText,
})
"""

# Output of widget callbacks that no Output widget captures (an exception in a button handler,
# say) goes to JupyterLab's log console, not to the notebook: count its entries, then open it.
JS_LOG_ENTRIES = """
() => {
  const item = document.querySelector('.jp-LogConsoleStatusItem [title]');
  const match = item && item.title.match(/(\\d+) log entr/);
  return match ? Number(match[1]) : 0;
}
"""

JS_LOG_OUTPUTS = """
async () => {
  await window.jupyterapp.commands.execute('logconsole:open', {insertMode: 'split-bottom'});
  await new Promise(resolve => setTimeout(resolve, 500));
  return [...document.querySelectorAll('.jp-LogConsolePanel .jp-OutputArea-output')]
    .map(node => ({mime: node.getAttribute('data-mime-type'), text: node.innerText}));
}
"""

JS_CONTENT_HEIGHT = """
() => {
  const notebook = window.jupyterapp.shell.currentWidget.content.node;
  const inner = notebook.querySelector('.jp-WindowedPanel-inner');
  return (inner || notebook).scrollHeight;
}
"""

# The notebook scrolls inside its own element (the windowed panel's outer node), not the page.
JS_SCROLL_TOP = """
() => {
  const notebook = window.jupyterapp.shell.currentWidget.content.node;
  for (const node of [notebook, ...notebook.querySelectorAll('.jp-WindowedPanel-outer')]) {
    node.scrollTop = 0;
  }
}
"""


def error_outputs(cells: list[dict]) -> list[str]:
    """Readable descriptions of error outputs and stderr tracebacks in the cell models."""
    problems = []
    for cell in cells:
        for output in cell["outputs"]:
            kind = output.get("output_type")
            if kind == "error":
                problems.append(
                    f"cell {cell['index']}: {output.get('ename')}: {output.get('evalue')}"
                )
            elif kind == "stream" and output.get("name") == "stderr":
                text = output.get("text", "")
                text = "".join(text) if isinstance(text, list) else text
                if "Traceback" in text or "Error" in text.split(":", 1)[0]:
                    problems.append(f"cell {cell['index']}: stderr traceback:\n{text[-1500:]}")
    return problems
