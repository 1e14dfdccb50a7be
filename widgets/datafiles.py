"""Rules data shipped as data: CSV and JSON files under ``widgets/data/``, read once.

>>> read_csv("underface_armor.csv")[0]["name"]
'평상복'
"""
from __future__ import annotations

import csv
import json
import os
from functools import lru_cache

_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    # read through the loader that imported this module: a file beside it, or a member of the
    # zip the in-page engine imports the library from (book/_ext/vendor_assets.py engine_zip)
    path = os.path.join(_DIR, name)
    get_data = getattr(globals().get("__loader__"), "get_data", None)
    if get_data is None:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    return get_data(path).decode("utf-8").replace("\r\n", "\n")


def read_csv(name: str) -> list[dict[str, str]]:
    """Rows of a CSV data file as dicts of text (the caller converts the columns).

    >>> read_csv("underface_weapons.csv")[2]["damage"]
    '1D6+1+DB'
    """
    return list(csv.DictReader(_text(name).splitlines()))


def read_json(name: str) -> object:
    """The content of a JSON data file.

    >>> [scene["key"] for scene in read_json("bfrpg_scenes.json")][:2]
    ['tannen_move', 'doughbert_move']
    """
    return json.loads(_text(name))
