"""The themes' stylesheets cut to what the book uses, after the build.

pydata-sphinx-theme.css (with all of Bootstrap) is 397 KB, a stylesheet every page must fetch and
parse before its first paint. Once every page is written, each of its rules whose every selector
names a class that no page and no script of the site contains is left out: a class the pages never
carry and no script adds (Bootstrap's and the theme's scripts add theirs by name, which the site's
``.js`` files hold). What is never dropped: a rule with a selector naming no class (elements, ids,
attributes, ``html[data-theme=dark]``), classes inside ``:not()``/``:is()``/… or ``[…]``, a class
one of the site's words is a prefix of (``bs-tooltip-`` joined to a placement in a script), and
every at-rule but ``@media``/``@supports``/``@layer``, whose own rules are cut the same way.
Checked by the phone and desktop screenshots and the layout tests (tests/test_phone.py,
tests/test_site_nav.py).

Then the stylesheets every page links are joined, in the pages' order, into one file
(``_static/book-styles.css``, :func:`bundle`), so that a phone waits for three stylesheets before
the first paint, not ten (each a request of its own, a connection of its own over HTTP/1.x).
``widget.css`` stays its own file: widgets/js/a11y.js finds it by name to copy its rules into the
widgets' shadow roots; so the files before it and those after it are joined apart
(``book-styles-2.css``), and the cascade keeps its order.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

#: The themes' own stylesheets, as globs in the site (the book's are written for it and stay whole)
TRIMMED = ("_static/styles/pydata-sphinx-theme.css", "_static/styles/sphinx-book-theme.css",
           "_static/mystnb.*.css")
#: Files that add no class to a page's own elements: the engine, Font Awesome's script (no page
#: loads it, book/_templates/layout.html), BokehJS (draws inside its own shadow roots)
_NOT_SOURCES = ("_static/pyodide/", "_static/engine/", "_static/vendor/", "fontawesome", "_static/bokeh-")
_WORD = re.compile(r"[A-Za-z0-9_-]+")
_CLASS = re.compile(r"\.(-?[A-Za-z_][A-Za-z0-9_-]*)")
_GROUPING = ("@media", "@supports", "@layer")


def site_words(outdir: Path) -> tuple[set[str], tuple[str, ...]]:
    """The classes a page may carry: every word (letters, digits, ``-``, ``_``) in the site's
    pages and in the scripts they load; and the words of those scripts that end in ``-``, which
    a script may join to others to name a class (``bs-tooltip-`` + a placement).

    >>> import tempfile
    >>> site = Path(tempfile.mkdtemp())
    >>> _ = (site / "a.html").write_text('<p class="note wide">x</p>')
    >>> _ = (site / "b.js").write_text('el.classList.add("bs-tip-" + where, "shown")')
    >>> words, prefixes = site_words(site)
    >>> sorted(w for w in words if w in ("note", "wide", "shown", "gone")), prefixes
    (['note', 'shown', 'wide'], ('bs-tip-',))
    """
    words: set[str] = set()
    prefixes: set[str] = set()
    for path in outdir.rglob("*"):
        rel = path.relative_to(outdir).as_posix()
        if path.suffix not in (".html", ".js", ".mjs") or any(part in rel for part in _NOT_SOURCES):
            continue
        found = _WORD.findall(path.read_text(encoding="utf-8", errors="replace"))
        words.update(found)
        if path.suffix != ".html":
            prefixes.update(w for w in found if w.endswith("-") and len(w) > 2)
    return words, tuple(sorted(prefixes))


def _split(css: str) -> list[tuple[str, str | None]]:
    """Top-level statements of ``css``: (prelude, block body) or (statement, None) for one
    ending in ``;`` (or a comment). Comments and strings are kept as they are.

    >>> _split('a{b:c}@import "x;y";@media (x){p{q:r}}/* c */')
    [('a', 'b:c'), ('@import "x;y";', None), ('@media (x)', 'p{q:r}'), ('/* c */', None)]
    """
    out: list[tuple[str, str | None]] = []
    i, n, start = 0, len(css), 0
    depth, open_at = 0, -1
    while i < n:
        c = css[i]
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            end = n if end < 0 else end + 2
            if depth == 0 and not css[start:i].strip():
                out.append((css[i:end], None))
                start = end
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and css[j] != c:
                j += 2 if css[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append((css[start:open_at].strip(), css[open_at + 1:i]))
                start = i + 1
        elif c == ";" and depth == 0:
            out.append((css[start:i + 1].strip(), None))
            start = i + 1
        i += 1
    if css[start:].strip():
        out.append((css[start:].strip(), None))
    return out


def _outside_brackets(selector: str) -> str:
    """``selector`` without what stands inside ``(…)`` or ``[…]``.

    >>> _outside_brackets('.a:not(.b) > .c[class*="d"]')
    '.a:not() > .c[]'
    """
    out, depth = [], 0
    for c in selector:
        if c in "([":
            depth += 1
            if depth == 1:
                out.append(c)
        elif c in ")]":
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def _selectors(prelude: str) -> list[str]:
    """The selectors of a list, split at commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(prelude):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return parts


def used(selector_list: str, words: set[str], prefixes: tuple[str, ...]) -> bool:
    """Whether some selector of ``selector_list`` can match: every class it names (outside
    brackets) is one of ``words`` or starts with one of ``prefixes``.

    >>> words = {"btn", "show"}
    >>> used(".btn.show", words, ()), used(".modal .btn", words, ()), used(".modal, a", words, ())
    (True, False, True)
    >>> used(".btn:not(.disabled)", words, ()), used(".bs-tooltip-top", words, ("bs-tooltip-",))
    (True, True)
    """
    for selector in _selectors(selector_list):
        classes = _CLASS.findall(_outside_brackets(selector))
        if all(c in words or c.startswith(prefixes) for c in classes):
            return True
    return False


def trim(css: str, words: set[str], prefixes: tuple[str, ...] = ()) -> str:
    """``css`` without the rules no page can match (see the module's text); the source map's
    address is left out too (it describes the whole file).

    >>> trim("a{x:1}.gone{x:2}.kept,.gone{x:3}@media (y){.gone{x:4}.kept{x:5}}@keyframes k{0%{x:6}}"
    ...      "/*# sourceMappingURL=t.css.map */", {"kept"})
    'a{x:1}\\n.kept,.gone{x:3}\\n@media (y){.kept{x:5}}\\n@keyframes k{0%{x:6}}'
    """
    out = []
    for prelude, body in _split(css):
        if body is None:
            if "sourceMappingURL" not in prelude:
                out.append(prelude)
        elif prelude.startswith(_GROUPING):
            inner = trim(body, words, prefixes)
            if inner.strip():
                out.append(prelude + "{" + inner.replace("\n", "") + "}")
        elif prelude.startswith("@") or used(prelude, words, prefixes):
            out.append(prelude + "{" + body + "}")
    return "\n".join(out)


#: The joined stylesheet, in the site; a stylesheet that stays a file of its own
BUNDLE = "_static/book-styles.css"
_OWN_FILE = ("_static/widget.css",)
_LINK = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>')
_HREF = re.compile(r'\bhref="([^"?#]+)[^"]*"')
_URL = re.compile(r"""url\((['"]?)(?!data:|[a-z]+:|/|#)([^'")]+)\1\)""")


def rebase(css: str, source: str, target: str) -> str:
    """``css`` of the site file ``source`` with its relative ``url()``s pointing where they did,
    read from ``target``; and no ``@charset`` (the joined file says it once).

    >>> rebase('@charset "UTF-8";a{b:url(../vendor/f.woff2)}c{d:url("data:x")}', "_static/styles/t.css",
    ...        "_static/all.css")
    'a{b:url(vendor/f.woff2)}c{d:url("data:x")}'
    """
    def moved(m):
        path = os.path.normpath(os.path.join(os.path.dirname(source), m.group(2)))
        return f"url({m.group(1)}{os.path.relpath(path, os.path.dirname(target))}{m.group(1)})"
    return _URL.sub(moved, re.sub(r'@charset\s+"[^"]*";', "", css))


def _links(page_html: str, page: str) -> list[tuple[str, str]]:
    """The stylesheet links of a page's head: (tag, the file in the site)."""
    head = page_html.split("</head>", 1)[0]
    out = []
    for tag in _LINK.findall(head):
        href = _HREF.search(tag)
        if href:
            out.append((tag, os.path.normpath(os.path.join(os.path.dirname(page), href.group(1))).replace(os.sep, "/")))
    return out


def _runs(links: list[tuple[str, str]], common: set[str]) -> list[list[str]]:
    """The runs of ``common`` files among a page's links (split by any other)."""
    runs = [[]]
    for _, f in links:
        if f in common:
            runs[-1].append(f)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def bundle(outdir: Path, pages: list[str]) -> list[str]:
    r"""Join the stylesheets that every page of ``pages`` links (not :data:`_OWN_FILE`), each
    run of them in the pages' order, into one file per run (:data:`BUNDLE`, then
    ``book-styles-2.css``, …), linked instead; return the joined files (none when the pages
    link the stylesheets in different orders).

    >>> import tempfile
    >>> site = Path(tempfile.mkdtemp()); (site / "_static" / "s").mkdir(parents=True); (site / "b").mkdir()
    >>> for name, css in [("a.css", "p{x:1}"), ("s/b.css", "q{y:url(../i.png)}"), ("widget.css", "w{}"),
    ...                   ("c.css", "c{}"), ("d.css", "d{}")]:
    ...     _ = (site / "_static" / name).write_text(css)
    >>> links = "".join(f'<link rel="stylesheet" href="../_static/{name}" />'
    ...                 for name in ("a.css?v=1", "s/b.css", "widget.css", "c.css", "d.css"))
    >>> _ = (site / "b" / "p.html").write_text(f"<head>{links}</head><p>x</p>")
    >>> bundle(site, ["b/p.html"])
    ['_static/book-styles.css', '_static/book-styles-2.css']
    >>> print((site / "b" / "p.html").read_text())  # doctest: +ELLIPSIS
    <head><link rel="stylesheet" href="../_static/book-styles.css?v=..." /><link rel="stylesheet" href="../_static/widget.css" /><link rel="stylesheet" href="../_static/book-styles-2.css?v=..." /></head><p>x</p>
    >>> (site / BUNDLE).read_text()
    '@charset "UTF-8";\np{x:1}\nq{y:url(i.png)}\n'
    """
    listed = {page: _links((outdir / page).read_text(encoding="utf-8"), page) for page in pages}
    listed = {page: links for page, links in listed.items() if links}
    if not listed:
        return []
    common = set.intersection(*({f for _, f in links} for links in listed.values())) - set(_OWN_FILE)
    runs = _runs(next(iter(listed.values())), common)
    if any(_runs(links, common) != runs for links in listed.values()):
        return []
    names, hrefs = [], {}
    for i, run in enumerate(runs):
        name = BUNDLE if i == 0 else BUNDLE.replace(".css", f"-{i + 1}.css")
        if len(run) == 1:
            continue
        text = '@charset "UTF-8";\n' + "".join(
            rebase((outdir / f).read_text(encoding="utf-8"), f, name).strip() + "\n" for f in run)
        (outdir / name).write_text(text, encoding="utf-8")
        names.append(name)
        hrefs[run[0]] = (name, hashlib.sha256(text.encode()).hexdigest()[:10])
        hrefs.update({f: None for f in run[1:]})
    for page, links in listed.items():
        page_html = (outdir / page).read_text(encoding="utf-8")
        head, body = page_html.split("</head>", 1)
        for tag, f in links:
            if f not in hrefs:
                continue
            joined = hrefs[f]
            if joined:
                href = os.path.relpath(outdir / joined[0], (outdir / page).parent).replace(os.sep, "/")
                head = head.replace(tag, f'<link rel="stylesheet" href="{href}?v={joined[1]}" />', 1)
            else:
                head = head.replace(tag, "", 1)
        (outdir / page).write_text(head + "</head>" + body, encoding="utf-8")
    return names


def _trim_theme(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    words, prefixes = site_words(outdir)
    for path in (p for pattern in TRIMMED for p in outdir.glob(pattern)):
        if path.is_file():
            path.write_text(trim(path.read_text(encoding="utf-8"), words, prefixes), encoding="utf-8")
    pages = [p.relative_to(outdir).as_posix() for p in sorted(outdir.rglob("*.html"))]
    bundle(outdir, [p for p in pages if not p.startswith("_static/")])


def setup(app):
    # after myst-nb writes its stylesheet (priority 500), before the offline cache lists the
    # site's files and their contents (offline.py, priority 990)
    app.connect("build-finished", _trim_theme, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
