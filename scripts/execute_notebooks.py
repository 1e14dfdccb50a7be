"""Re-run every notebook in book/ and store its outputs in place (what nbval later compares).

Widget state is not stored: the static site shows each widget's text/html, and a stored
widget state would make Jupyter Book load the ipywidgets manager from a CDN."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parent.parent / "book"


def main(paths: list[str]) -> None:
    notebooks = [Path(p) for p in paths] or sorted(
        p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        nb.metadata.pop("widgets", None)
        nbformat.write(nb, path)
        print("executed", path.name)


if __name__ == "__main__":
    main(sys.argv[1:])
