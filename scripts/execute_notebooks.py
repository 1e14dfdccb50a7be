"""Re-run every notebook in book/ and store its outputs in place (what nbval later compares).

Widget state is not stored: the static site shows each widget's text/html, and a stored
widget state would make Jupyter Book load the ipywidgets manager from a CDN. A live widget's
output keeps only its static copy (``widgets.views.jupyter.pre_save``, the same as JupyterLab's
save in `dev.py lab`), so a notebook opened without running shows every widget's answer, and
opening and saving it changes nothing."""
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
        for cell in nb.cells:   # no run timestamps: re-running changes only what the reader sees
            cell.metadata.pop("execution", None)
        pre_save({"type": "notebook", "content": nb})   # the static copies, as JupyterLab saves
        nb.metadata.pop("widgets", None)
        nb.metadata["kernelspec"] = kernelspec()
        nbformat.write(nb, path)
        print("executed", path.name)


if __name__ == "__main__":
    main(sys.argv[1:])
