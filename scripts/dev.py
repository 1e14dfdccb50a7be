#!/usr/bin/env python3
"""One entry point for the project; needs only Python 3 to start.

    python3 scripts/dev.py serve    # set up, build the book, serve it on http://127.0.0.1:8000
    python3 scripts/dev.py test     # set up, build the book, run every test
    python3 scripts/dev.py execute  # re-run the notebooks and store their outputs (after edits)
    python3 scripts/dev.py bench    # time control changes on the built site in headless Chromium

Set-up makes ``.venv`` in the repository, installs ``requirements.txt`` and the ``widgets``
library (editable), and for tests installs Debian's ``chromium`` when it is missing.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"
SITE = ROOT / "_build" / "html"
CHROMIUM = Path("/usr/bin/chromium")


def run(*cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)


def setup() -> None:
    stamp = VENV / ".installed"
    wanted = (ROOT / "requirements.txt").read_text() + (ROOT / "pyproject.toml").read_text()
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    if not stamp.exists() or stamp.read_text() != wanted:
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", "requirements.txt")
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "-e", ".")
        stamp.write_text(wanted)


def ensure_chromium() -> None:
    if CHROMIUM.exists():
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", "chromium", "fonts-nanum", env=env)
    else:
        sys.exit("Debian's chromium is needed for the browser tests: "
                 "sudo apt-get install -y chromium fonts-nanum")


def build() -> None:
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    run(VENV / "bin" / "jupyter-book", "build", ".", "-W", "-n", "--keep-going")


def serve(port: int) -> None:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SITE))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        print(f"\n책이 준비되었습니다 / The book is served at: http://127.0.0.1:{port}/\n"
              "(Ctrl+C to stop)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def execute() -> None:
    run(PY, ROOT / "scripts" / "execute_notebooks.py")


def test(extra: list[str]) -> int:
    ensure_chromium()
    build()
    cmd = [PY, "-m", "pytest", "tests", "widgets", "book", "--doctest-modules", "--nbval",
           "--nbval-sanitize-with", "tests/sanitize.cfg", "-q", *extra]
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("command", choices=["setup", "build", "serve", "test", "execute", "bench"])
    parser.add_argument("--port", type=int, default=8000)
    args, extra = parser.parse_known_args()
    setup()
    if args.command == "build":
        build()
    elif args.command == "serve":
        build()
        serve(args.port)
    elif args.command == "test":
        return test(extra)
    elif args.command == "execute":
        execute()
    elif args.command == "bench":
        ensure_chromium()
        if not (SITE / "index.html").exists():
            build()
        run(PY, ROOT / "scripts" / "bench.py", *extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
