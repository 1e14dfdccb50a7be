"""A real JupyterLab, as a reader uses it (`python3 scripts/dev.py lab`): started on a free port
with the kernel of the project's venv, on a copy of the book, and stopped at the end.

- MyST markup is rendered (no raw ``{term}`` roles; jupyterlab-myst);
- Run All makes every widget live; a value beyond the slider typed into a widget's box gives
  the library's exact answer; a bad value gives the same Korean message as the site, and the
  last good answer stays;
- a notebook saved after running reopens showing each widget's answer (its static copy), never
  "Error displaying widget: model not found";
- a notebook opened and saved without running changes nothing on disk.

No request goes to another host, and no script fails.
"""
from __future__ import annotations

import html
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
import pytest

from conftest import OfflinePage

from widgets import underface as uf
from widgets.views import format as fmt

ROOT = Path(__file__).resolve().parent.parent
JUPYTER = Path(sys.executable).parent / "jupyter"
TOKEN = "rulebook-test"
HIT_TITLE = "명중 판정: 공격 대 막기·회피"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a copy of book/ (saving must not touch the repository)."""
    if subprocess.run([str(JUPYTER), "lab", "--version"], capture_output=True).returncode != 0:
        pytest.fail("JupyterLab is missing: `python3 scripts/dev.py test` installs requirements-lab.txt")
    folder = tmp_path_factory.mktemp("lab") / "book"
    shutil.copytree(ROOT / "book", folder, ignore=shutil.ignore_patterns("_ext", ".ipynb_checkpoints"))
    port = _free_port()
    cmd = [str(JUPYTER), "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.token={TOKEN}", f"--notebook-dir={folder}"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(folder.parent / "lab.log", "w")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(folder.parent / "config"))
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("JupyterLab did not start:\n" + (folder.parent / "lab.log").read_text())
                time.sleep(0.25)
        yield base, folder
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


class LabPage(OfflinePage):
    """A JupyterLab tab (requests to any other host are aborted and recorded, as on the site)."""

    def __init__(self, browser, base: str):
        super().__init__(browser, base, viewport={"width": 1280, "height": 900})
        self.page.set_default_timeout(60000)

    def open(self, notebook: str):
        self.page.goto(f"{self.base.geturl()}/lab/tree/{notebook}?token={TOKEN}&reset")
        try:
            self.page.wait_for_selector(".jp-Notebook .jp-Cell")
        except Exception:
            self.page.screenshot(path="/tmp/lab-open-failed.png")
            raise
        self.page.wait_for_function("() => document.body.innerText.includes('| Idle')")
        return self.page

    def run_all(self):
        self.page.get_by_text("Run", exact=True).first.click()
        self.page.get_by_text("Run All Cells", exact=True).click()
        self.page.wait_for_function(
            "() => { const p = [...document.querySelectorAll('.jp-InputPrompt')]"
            ".map(e => e.textContent); return p.length && p.every(t => !t.includes('*')) "
            "&& p.filter(t => /\\[\\d+\\]/.test(t)).length > 3; }")

    def save(self):
        self.page.keyboard.press("Control+s")
        self.page.wait_for_function(
            "() => !document.querySelector('.jp-mod-current .jp-mod-dirty, .lm-TabBar-tab.jp-mod-dirty')")
        self.page.wait_for_timeout(500)

    def widget(self, title: str):
        """The live ipywidget whose title is ``title``."""
        return self.page.locator(".widget-vbox", has=self.page.locator(f"b:text-is('{title}')")).first


@pytest.fixture
def lab_page(browser, lab):
    page = LabPage(browser, lab[0])
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    assert page.errors == []
    page.close()


def _type(widget, label: str, text: str):
    box = widget.locator(".widget-text", has=widget.page.locator(f"label:text-is('{label}')")).locator("input")
    box.scroll_into_view_if_needed()
    box.fill(text)
    box.press("Tab")


def test_run_all_makes_every_widget_live_and_answers_like_the_library(lab_page):
    page = lab_page.open("underface.ipynb")
    # MyST renders every markdown cell (a cell may show its plain text for a moment first)
    page.wait_for_function("() => !document.querySelector('.jp-Notebook').innerText.includes('{term}')",
                           timeout=30000)
    assert page.locator(".jp-MarkdownCell a", has_text="대항 판정").count() >= 1   # a term is a link
    lab_page.run_all()
    hit = lab_page.widget(HIT_TITLE)
    hit.scroll_into_view_if_needed()
    _type(hit, "공격 기능 (%)", "65")        # beyond the slider's steps (40…80 by 10)
    _type(hit, "방어 기능 (%)", "35")        # below the slider
    odds = uf.opposed_odds(65, 35, defense_penalty="평상복")
    page.wait_for_function("(t) => document.body.innerText.includes(t)",
                           arg=fmt.prob(odds["attacker_wins"]))
    shown = hit.inner_text()
    assert all(fmt.prob(p) in shown for p in odds.values()), shown
    _type(hit, "공격 기능 (%)", "일곱")
    page.wait_for_function("(t) => document.body.innerText.includes(t)",
                           arg="공격 기능 (%): 숫자만 넣어 주세요")
    shown = hit.inner_text()
    assert all(fmt.prob(p) in shown for p in odds.values())   # the last good answer stays
    _type(hit, "공격 기능 (%)", "1e9")                          # never read as 19
    page.wait_for_function("(t) => document.body.innerText.includes(t)",
                           arg="입력값: '1e9'")
    assert "Error displaying widget" not in page.evaluate("() => document.body.innerText")


def test_a_saved_notebook_reopens_with_every_widget_shown(lab_page, lab):
    page = lab_page.open("trench_crusade.ipynb")
    lab_page.run_all()
    lab_page.save()
    page.reload()
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    page.wait_for_timeout(3000)
    text = page.evaluate("() => document.querySelector('.jp-Notebook').innerText")
    import json as _j
    saved = _j.loads((lab[1] / "trench_crusade.ipynb").read_text())
    print("MIMES", [sorted(o.get("data", {})) for c in saved["cells"] for o in c.get("outputs", [])][:4])
    page.screenshot(path="/tmp/lab-saved.png")
    assert "model not found" not in text and "Error displaying widget" not in text
    assert page.locator(".jp-OutputArea-output .live-widget").count() >= 10   # the static copies


def test_opening_and_saving_changes_nothing_on_disk(lab_page, lab):
    path = lab[1] / "intro.ipynb"
    before = path.read_bytes()
    lab_page.open("intro.ipynb")
    lab_page.page.wait_for_timeout(1500)
    dirty = lab_page.page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count()
    lab_page.save()
    assert dirty == 0 and path.read_bytes() == before
