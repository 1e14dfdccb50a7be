"""Re-run every notebook in book/ and store its outputs in place (what nbval later compares).

Notebooks are stored as JupyterLab saves them in `dev.py lab`: through its pre-save hook
(``widgets.views.jupyter.pre_save``). Widget state is not stored (the static site shows each
widget's text/html, and a stored widget state would make Jupyter Book load the ipywidgets
manager from a CDN); a live widget's output keeps only its static copy, so a notebook opened
without running shows every widget's answer; execution counts and Bokeh ids are the hook's, so
a reader's save after any number of runs writes the stored bytes."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

from widgets.views.jupyter import pre_save

BOOK = Path(__file__).resolve().parent.parent / "book"


def kernelspec() -> dict:
    """The notebook's kernel as JupyterLab writes it on save (so saving changes nothing)."""
    spec = KernelSpecManager().get_kernel_spec("python3")
    return {"display_name": spec.display_name, "language": spec.language, "name": "python3"}


def main(paths: list[str]) -> None:
    notebooks = [Path(p) for p in paths] or sorted(
        p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=False,
                       record_timing=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        store(nb, path)
        print("executed", path.name)


def store(nb, path: Path) -> None:
    """Write an executed notebook as JupyterLab saves it (its pre-save hook, its kernelspec)."""
    pre_save({"type": "notebook", "content": nb})
    nb.metadata["kernelspec"] = kernelspec()
    nbformat.write(nb, path)


if __name__ == "__main__":
    main(sys.argv[1:])
