#!/usr/bin/env python3
"""One entry point for the project; needs only Python 3 to start.

    python3 scripts/dev.py serve    # set up, build the book, serve it on http://127.0.0.1:8000
    python3 scripts/dev.py test     # set up, build the book, run every test
    python3 scripts/dev.py execute  # re-run the notebooks and store their outputs (after edits)
    python3 scripts/dev.py bench    # time control changes on the built site in headless Chromium;
                                    # the engine's download; Lighthouse mobile scores of every chapter
    python3 scripts/dev.py bench-odds   # exact dice odds: the library against icepool, side by side
    python3 scripts/dev.py build --out DIR   # build, then copy the site into DIR (to publish it)
    python3 scripts/dev.py lab      # set up, then open the book's notebooks in JupyterLab

Set-up makes ``.venv`` in the repository, installs ``requirements.txt`` and the ``widgets``
library (editable), and for tests installs Debian's ``chromium`` when it is missing.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
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
    setup_python()
    setup_engine()


def setup_python() -> None:
    """The venv with ``requirements.txt`` and the ``widgets`` library (editable)."""
    stamp = VENV / ".installed"
    wanted = (ROOT / "requirements.txt").read_text() + (ROOT / "pyproject.toml").read_text()
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    if not stamp.exists() or stamp.read_text() != wanted:
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", "requirements.txt")
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "-e", ".")
        stamp.write_text(wanted)


def setup_engine() -> None:
    """Install the in-page engine (npm package ``pyodide``, pinned in package-lock.json) with the
    ordinary npm client; install Debian's nodejs/npm first when missing and we are root. Without
    npm the book still builds: table answers work and the page says free values need this."""
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".installed"
    if stamp.exists() and stamp.read_text() == lock.read_text():
        return
    if not shutil.which("npm") and shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        try:
            run("apt-get", "update", "-qq", env=env)
            run("apt-get", "install", "-y", "-qq", "nodejs", "npm", env=env)
        except subprocess.CalledProcessError:
            pass
    if not shutil.which("npm"):
        print("npm not found: the book builds without the in-page engine "
              "(free values need `apt-get install nodejs npm`, then set up again)", flush=True)
        return
    try:
        run("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
    except subprocess.CalledProcessError:
        print("npm ci failed: the book builds without the in-page engine", flush=True)
        return
    stamp.write_text(lock.read_text())


LAB_CONFIG = VENV / "etc" / "jupyter" / "jupyter_server_config.json"
LAB_SETTINGS = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
#: The book's own JupyterLab plugin (glossary terms open their entry; site-only sentences hidden).
LAB_EXTENSION = ROOT / "lab" / "extension"
LAB_EXTENSIONS = VENV / "share" / "jupyter" / "labextensions"


def setup_lab() -> None:
    """What reading the notebooks in Jupyter needs, and nothing of the site's build: the venv
    with ``requirements-lab.txt`` (JupyterLab, jupyterlab-myst and the widgets' front end,
    pinned to fit each other, and what the notebooks import, at ``requirements.txt``'s pins)
    and the library (editable), the book's plugin
    (``lab/extension``, copied into the venv's labextensions), and the server setting that
    keeps saved notebooks readable: a notebook saved after running shows each widget's static
    copy when reopened without its live model, and saving a notebook one only opened changes
    nothing, nor does saving after any number of runs (``widgets.views.jupyter.pre_save``).
    pytest and nbval come too, so a reader can check a notebook as the tests do. No npm: the
    in-page engine is the site's."""
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    stamp = VENV / ".lab-installed"
    wanted = "".join((ROOT / name).read_text()
                     for name in ("requirements-lab.txt", "requirements.txt", "pyproject.toml"))
    if not stamp.exists() or stamp.read_text() != wanted:
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-c",
            "requirements.txt", "-r", "requirements-lab.txt")
        run(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "-e", ".")
        stamp.write_text(wanted)
    installed = LAB_EXTENSIONS / json.loads((LAB_EXTENSION / "package.json").read_text())["name"]
    shutil.rmtree(installed, ignore_errors=True)
    shutil.copytree(LAB_EXTENSION, installed)
    LAB_CONFIG.parent.mkdir(parents=True, exist_ok=True)
    config = json.loads(LAB_CONFIG.read_text()) if LAB_CONFIG.exists() else {}
    config.setdefault("ContentsManager", {})["pre_save_hook"] = "widgets.views.jupyter.pre_save"
    LAB_CONFIG.write_text(json.dumps(config, indent=1) + "\n")
    # no news or update checks: the book is read offline, and they would ask other hosts
    LAB_SETTINGS.parent.mkdir(parents=True, exist_ok=True)
    LAB_SETTINGS.write_text(json.dumps({"@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false", "checkForUpdates": False}}, indent=1) + "\n")


def lab(port: int) -> int:
    """Open JupyterLab on the book (as root, as in most containers, with --allow-root)."""
    setup_lab()
    cmd = [VENV / "bin" / "jupyter", "lab", "--notebook-dir", ROOT / "book", "--port", str(port),
           "--no-browser", "--ServerApp.ip=127.0.0.1"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    print(f"\nJupyterLab: http://127.0.0.1:{port}/lab (the address with its token is printed "
          "below; Ctrl+C to stop)\n", flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode


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


def build(out: str | None = None) -> None:
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    run(VENV / "bin" / "jupyter-book", "build", ".", "-W", "-n", "--keep-going")
    if out:
        publish(Path(out))


def publish(dest: Path) -> None:
    """Copy the built site into ``dest`` (e.g. the folder a web server or GitHub Pages serves).
    The site uses relative addresses only, so it works under any sub-path. A folder that already
    holds something other than an earlier build is left alone."""
    dest = dest.resolve()
    if dest in (ROOT, *ROOT.parents) or SITE.resolve() in (dest, *dest.parents):
        sys.exit(f"--out {dest}: choose a folder outside the repository's root and _build/html")
    if dest.exists() and any(dest.iterdir()) and not (dest / ".buildinfo").exists():
        sys.exit(f"--out {dest}: the folder is not empty and holds no earlier build; not replacing it")
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(SITE, dest)
    print(f"+ site copied to {dest}", flush=True)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types the in-page engine needs (module scripts, WebAssembly)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}


def serve(port: int) -> None:
    handler = functools.partial(SiteHandler, directory=str(SITE))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        print(f"\n책이 준비되었습니다 / The book is served at: http://127.0.0.1:{port}/\n"
              "(Ctrl+C to stop)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def execute() -> None:
    run(PY, ROOT / "scripts" / "execute_notebooks.py")


def ensure_test_tools() -> None:
    """axe-core for the accessibility tests (tests/node/package-lock.json; test-only, never part
    of the site). Without npm, tests/test_a11y.py fails saying so."""
    folder = ROOT / "tests" / "node"
    lock, stamp = folder / "package-lock.json", folder / "node_modules" / ".installed"
    if stamp.exists() and stamp.read_text() == lock.read_text():
        return
    if not shutil.which("npm"):
        print("npm not found: the accessibility tests need axe-core (apt-get install nodejs npm)", flush=True)
        return
    cmd = ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]
    print("+ (tests/node)", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=folder)
    stamp.write_text(lock.read_text())


def test(extra: list[str]) -> int:
    ensure_chromium()
    ensure_test_tools()
    setup_lab()   # the JupyterLab browser test (tests/test_jupyterlab.py)
    build()
    # two workers (pytest-xdist), a test file each at a time: most of a browser test is waiting
    # (a page, an engine's boot), so two files at once take about two thirds of the time of one
    # after another (30 min → 20 min on this 2-core machine); a file stays whole on its worker,
    # which keeps a notebook's cells in order (nbval) and a file's fixtures shared
    cmd = [PY, "-m", "pytest", "tests", "widgets", "book", "--doctest-modules", "--nbval",
           "--nbval-sanitize-with", "tests/sanitize.cfg", "-q", "-n", "2", "--dist", "loadfile",
           *extra]
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("command", choices=["setup", "build", "serve", "test", "execute", "bench",
                                            "bench-odds", "lab"])
    parser.add_argument("--port", type=int, default=None,
                        help="serve: 8000, lab: 8888 unless given")
    parser.add_argument("--out", metavar="DIR", help="build: also copy the built site into DIR")
    args, extra = parser.parse_known_args()
    if args.command == "lab":        # Jupyter needs none of the site's engine (npm)
        return lab(args.port or 8888)
    setup()
    if args.command == "build":
        build(args.out)
    elif args.command == "serve":
        build()
        serve(args.port or 8000)
    elif args.command == "test":
        return test(extra)
    elif args.command == "execute":
        execute()
    elif args.command == "bench":
        ensure_chromium()
        if not (SITE / "index.html").exists():
            build()
        run(PY, ROOT / "scripts" / "bench.py", *extra)
        run(PY, ROOT / "scripts" / "bench_engine.py")
        # Lighthouse mobile on every chapter, served gzip (installs its pinned copy into .bench-tools/)
        subprocess.run([str(PY), str(ROOT / "scripts" / "bench_lighthouse.py")], cwd=ROOT)
    elif args.command == "bench-odds":
        run(PY, "-m", "pip", "install", "-q", "-r", ROOT / "requirements-bench.txt")
        run(PY, ROOT / "scripts" / "bench_odds.py", *extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
