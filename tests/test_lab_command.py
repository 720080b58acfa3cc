"""``luckylab lab``: JupyterLab on the start lesson, from anywhere in the checkout, even as root."""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from luckylab.__main__ import main
from luckylab.cli import COMMANDS, lab
from luckylab.errors import LuckyLabError

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120


def test_lab_is_a_registered_command():
    assert "luckylab.cli.lab" in COMMANDS


def test_lab_finds_the_checkout_from_the_package_location():
    assert lab.find_checkout() == ROOT
    assert lab.find_checkout(cwd=Path("/")) == ROOT  # the folder it is run from does not matter


def test_lab_falls_back_to_the_folder_it_runs_in(tmp_path):
    """A non-editable install run inside a clone still finds the clone's lessons."""
    site = tmp_path / "site-packages" / "luckylab"
    site.mkdir(parents=True)
    assert lab.find_checkout(package_dir=site, cwd=ROOT / "luckylab" / "cli") == ROOT


def test_lab_from_a_wheel_without_notebooks_says_where_to_get_them(tmp_path):
    site = tmp_path / "site-packages" / "luckylab"
    site.mkdir(parents=True)
    with pytest.raises(LuckyLabError) as error:
        lab.find_checkout(package_dir=site, cwd=tmp_path)
    message = str(error.value)
    assert "notebooks/00_start_here.ipynb" in message
    assert "git clone" in message and 'pip install -e ".[lab]"' in message


def test_lab_adds_allow_root_only_as_root_with_a_note():
    argv, notes = lab.lab_command([], ROOT, as_root=False)
    assert argv[:3] == [sys.executable, "-m", "jupyterlab"]
    assert "notebooks/00_start_here.ipynb" in argv
    assert f"--ServerApp.root_dir={ROOT}" in argv
    assert "--allow-root" not in argv and notes == []
    argv, notes = lab.lab_command([], ROOT, as_root=True)
    assert argv.count("--allow-root") == 1
    assert len(notes) == 1 and "root" in notes[0] and "\n" not in notes[0]


def test_lab_forwards_jupyterlab_options_unchanged_and_never_doubles_allow_root():
    argv, notes = lab.lab_command(["--", "--port", "8899", "--no-browser"], ROOT, as_root=False)
    assert argv[-3:] == ["--port", "8899", "--no-browser"]
    argv, notes = lab.lab_command(["--", "--allow-root", "--port", "1"], ROOT, as_root=True)
    assert argv.count("--allow-root") == 1 and notes == []


def test_lab_without_jupyterlab_is_a_clear_error(monkeypatch, capsys):
    real = lab.importlib.util.find_spec
    def find_spec(name, *args):
        return None if name == "jupyterlab" else real(name, *args)

    monkeypatch.setattr(lab.importlib.util, "find_spec", find_spec)
    assert main(["lab"]) == 2
    err = capsys.readouterr().err
    assert "JupyterLab is not installed" in err and '".[lab]"' in err


def test_lab_help_names_the_forwarding(capsys):
    parser = argparse.ArgumentParser(prog="luckylab")
    lab.add_parser(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit):
        parser.parse_args(["lab", "--help"])
    assert "--port 8899 --no-browser" in capsys.readouterr().out


def test_lab_help_says_it_adds_allow_root_as_root():
    result = subprocess.run([sys.executable, "-m", "luckylab", "lab", "--help"], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Run as root" in text and "it adds --allow-root" in text


def test_version_names_the_version_python_and_folder():
    import luckylab

    result = subprocess.run([sys.executable, "-m", "luckylab", "--version"], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    python = ".".join(str(part) for part in sys.version_info[:3])
    assert result.stdout.strip() == (
        f"luckylab {luckylab.__version__} (Python {python}, {ROOT / 'luckylab'})"
    )


NEWS_PLUGIN = "@jupyterlab/apputils-extension:notification"


def test_shipped_settings_switch_the_news_off_and_fit_the_installed_jupyterlab_schema():
    """Issue 26: no "Would you like to get notified about official Jupyter news?" pop-up. The
    setting is checked against the schema of the JupyterLab installed here (JupyterLab 4)."""
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("jupyterlab")
    from jupyterlab.commands import get_app_dir

    overrides = lab.settings_overrides()
    assert overrides[NEWS_PLUGIN]["fetchNews"] == "false"
    assert overrides[NEWS_PLUGIN]["checkForUpdates"] is False
    package, plugin = NEWS_PLUGIN.split(":")
    schema_file = Path(get_app_dir()) / "schemas" / package / f"{plugin}.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    never = [c for c in schema["properties"]["fetchNews"]["oneOf"] if c["title"] == "Never"]
    assert [c["const"] for c in never] == ["false"]  # "false" means Never, not Ask
    for plugin_id, settings in overrides.items():
        package, plugin = plugin_id.split(":")
        schema = json.loads((Path(get_app_dir()) / "schemas" / package / f"{plugin}.json")
                            .read_text(encoding="utf-8"))
        jsonschema.validate(settings, schema)


def test_jupyterlab_started_by_the_lab_command_reads_the_shipped_settings(tmp_path):
    """JupyterLab's own settings code, in the environment ``luckylab lab`` gives it, finds the
    shipped defaults; without that environment it does not (so the test can fail)."""
    pytest.importorskip("jupyterlab_server")
    code = ("import json, sys; from jupyterlab_server.settings_utils import _get_overrides; "
            "print(json.dumps(_get_overrides(sys.argv[1])[0]))")
    base = {k: v for k, v in os.environ.items() if k != "JUPYTER_CONFIG_PATH"}
    base["JUPYTER_CONFIG_DIR"] = str(tmp_path)  # no user config of this machine
    found = {}
    for name, env in (("lab", lab.lab_environment(base)), ("plain", base)):
        done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "app-settings")],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        found[name] = json.loads(done.stdout)
    assert found["lab"][NEWS_PLUGIN] == lab.settings_overrides()[NEWS_PLUGIN]
    assert NEWS_PLUGIN not in found["plain"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str, timeout: float = 10) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (loopback)
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.mark.slow
def test_lab_serves_the_start_lesson_from_a_subfolder(tmp_path):
    """``python -m luckylab lab -- --port P --no-browser`` run from docs/: the server answers
    and serves notebooks/00_start_here.ipynb; the server is stopped with its process group."""
    pytest.importorskip("jupyterlab")
    port, token = free_port(), "luckylab-test-token"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
        (tmp_path / name).mkdir()
        env[name] = str(tmp_path / name)
    log = tmp_path / "lab.log"
    command = [sys.executable, "-m", "luckylab", "lab", "--", "--no-browser",
               "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}"]  # fmt: skip
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=ROOT / "docs", env=env, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        status = None
        while time.monotonic() < deadline:
            assert server.poll() is None, f"luckylab lab exited:\n{log.read_text()[-3000:]}"
            try:
                status, _ = get(f"{base}/api/status?token={token}", timeout=5)
            except OSError:
                status = None
            if status == 200:
                break
            time.sleep(0.5)
        assert status == 200, f"no answer in {START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}"

        status, body = get(f"{base}/api/contents/notebooks/00_start_here.ipynb?token={token}")
        assert status == 200
        lesson = json.loads(body)
        assert lesson["type"] == "notebook"
        on_disk = json.loads((ROOT / lab.START_LESSON).read_text(encoding="utf-8"))
        served = [("".join(c["source"]), c["cell_type"]) for c in lesson["content"]["cells"]]
        assert served == [("".join(c["source"]), c["cell_type"]) for c in on_disk["cells"]]

        status, page = get(f"{base}/lab/tree/notebooks/00_start_here.ipynb?token={token}")
        assert status == 200 and b"JupyterLab" in page

        status, body = get(f"{base}/lab/api/settings/{NEWS_PLUGIN}?token={token}")
        assert status == 200
        news = json.loads(body)["schema"]["properties"]["fetchNews"]
        assert news["default"] == "false"  # JupyterLab never asks about its news feed

        status, _ = get(f"{base}/api/contents/notebooks/00_start_here.ipynb")  # no token
        assert status == 403
        text = log.read_text()
        if lab.running_as_root():
            assert "luckylab: running as root" in text and "--allow-root" in text
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=30)
