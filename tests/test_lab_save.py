"""Reading a notebook never changes a file: what JupyterLab's save writes through the book's
pre-save hook (``widgets.views.jupyter.pre_save``, set by `dev.py lab`) after any number of runs
is byte for byte the stored notebook (issue 33).

- a chapter run twice in one kernel (execution counts past 20, every Bokeh id moved), saved;
- a kernel restarted and one widget cell run again (its Bokeh ids start again from the counter's
  start, the same numbers as the stored cells above it hold), saved: ids stay unique and the
  file is the stored one;
- every stored notebook is already in the form the hook writes (opening and saving changes
  nothing), from the raw file's JSON as from nbformat's reading.

The same in a real JupyterLab: tests/test_jupyterlab.py."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from execute_notebooks import store
from widgets.views.jupyter import pre_save
from widgets.views.static_page import BOKEH_ID

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
NOTEBOOKS = sorted(p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _run(nb, path: Path, rounds: int = 1, only=None) -> None:
    """Run the notebook's code cells (or those whose index is in ``only``) ``rounds`` times,
    all in one kernel, as a reader does with Run All (and Run All again)."""
    client = NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=False,
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel():
        for _ in range(rounds):
            for i, cell in enumerate(nb.cells):
                if cell.cell_type == "code" and (only is None or i in only):
                    client.execute_cell(cell, i)


def _documents(nb, cells=None) -> list[set[str]]:
    """The Bokeh model ids of each static copy's document (in ``cells`` if given), in order."""
    return [set(BOKEH_ID.findall(output.get("data", {}).get("text/html", "")))
            for cell in (nb.cells if cells is None else cells)
            for output in cell.get("outputs", [])
            if BOKEH_ID.search(output.get("data", {}).get("text/html", ""))]


def _ids(nb, cells=None) -> list[str]:
    """Every Bokeh model id of the static copies (in ``cells`` if given)."""
    return sorted(set().union(*_documents(nb, cells)))


@pytest.mark.parametrize("name", ["underface.ipynb", "bfrpg.ipynb"])
def test_a_chapter_run_twice_in_one_kernel_saves_as_it_is_stored(name, tmp_path):
    path = BOOK / name
    nb = nbformat.read(path, as_version=4)
    stored_ids = _ids(nb)
    _run(nb, path, rounds=2)
    counts = [c.execution_count for c in nb.cells if c.cell_type == "code"]
    assert counts[0] > len(counts)                      # the kernel's count moved on
    assert _ids(nb) != stored_ids                       # and so did Bokeh's ids
    saved = tmp_path / name
    store(nb, saved)
    assert saved.read_bytes() == path.read_bytes()


def test_a_restarted_kernel_running_one_cell_again_saves_as_it_is_stored(tmp_path):
    path = BOOK / "underface.ipynb"
    nb = nbformat.read(path, as_version=4)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    widget_cells = [i for i in code if any('class="live-widget"' in o.get("data", {}).get("text/html", "")
                                           for o in nb.cells[i].outputs)]
    last = widget_cells[-1]
    _run(nb, path, only={code[0], last})                # the imports, then the last widget
    # its ids are the counter's first numbers again, which the stored cells above it hold
    above = _ids(nb, nb.cells[:last])
    assert set(_ids(nb, [nb.cells[last]])) & set(above)
    saved = tmp_path / "underface.ipynb"
    store(nb, saved)
    documents = _documents(nbformat.read(saved, as_version=4))
    assert sum(map(len, documents)) == len(set().union(*documents))   # no id in two documents
    assert saved.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(BOOK)))
def test_every_stored_notebook_is_what_the_hook_saves(path, tmp_path):
    """JupyterLab's save sends the notebook as JSON (multi-line strings as lists when read from
    the file, as strings when edited): either way the hook leaves the stored bytes."""
    raw = json.loads(path.read_text())
    for content in (copy.deepcopy(raw), nbformat.reads(path.read_text(), as_version=4)):
        pre_save({"type": "notebook", "content": content})
        saved = tmp_path / path.name
        nbformat.write(nbformat.from_dict(content), saved)
        assert saved.read_bytes() == path.read_bytes()


def test_a_reader_with_another_python_saves_the_stored_python_version(tmp_path):
    """JupyterLab writes the kernel's Python version into the notebook; a reader's Python may
    differ from the one that stored the book: the hook keeps the stored one."""
    contents = pytest.importorskip("jupyter_server.services.contents.filemanager")
    manager = contents.FileContentsManager(root_dir=str(tmp_path))
    manager.pre_save_hook = pre_save
    shutil.copy(BOOK / "intro.ipynb", tmp_path / "intro.ipynb")
    model = manager.get("intro.ipynb", content=True, type="notebook")
    model["content"]["metadata"]["language_info"]["version"] = "3.99.1"
    manager.save(model, "intro.ipynb")
    assert (tmp_path / "intro.ipynb").read_bytes() == (BOOK / "intro.ipynb").read_bytes()
