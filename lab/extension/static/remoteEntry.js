/* rulebook-lab: the book's own JupyterLab plugin (installed by `python3 scripts/dev.py lab`).

   Glossary terms. The chapters write {term}`미니어처` (or {term}`보기 <용어>`), which Sphinx
   resolves across the whole book. jupyterlab-myst resolves references within one document only
   (a ReferenceState per notebook: src/myst.ts; project-wide references are its open issue #218),
   so in a chapter every term is an unresolved cross-reference: an <a class="hover-link"
   href="#"> that does nothing. This plugin makes a click on one open the glossary (glossary.md,
   found beside the notebook or in a folder above it) in JupyterLab's Markdown preview, scrolled
   to that term's entry. The term is read from the cell's own source: the k-th unresolved link of
   a rendered cell is the k-th {term} role of its source (checked by its shown text).

   Site-only sentences: the plugin loads static/style.css, which hides what the chapters mark
   class="only-site" and shows what they mark class="only-jupyter" (the site does the opposite).

   A JupyterLab federated extension is normally a webpack build; this one uses nothing from
   JupyterLab's shared modules (only the application object its plugin is activated with), so it
   is the container interface itself (window._JUPYTERLAB[name], with init and get) written out:
   no build step and no npm. JupyterLab's bootstrap loads this file, calls init, then
   get('./extension') and get('./style') (jupyterlab/staging/bootstrap.js, index.js). */
(function () {
  'use strict';

  const NAME = 'rulebook-lab';
  const HERE = document.currentScript ? document.currentScript.src : '';
  const GLOSSARY = 'glossary.md';
  const TERM_ROLE = /\{term\}`([^`]+)`/g;
  const EXPLICIT = /^([\s\S]*?)\s*<([^<>]+)>\s*$/;
  const MARK = 'rulebook-term-target';

  /** The {term} roles of a cell's source, in order: what each shows and the term it names. */
  function termRoles(source) {
    const roles = [];
    for (const match of source.matchAll(TERM_ROLE)) {
      const explicit = EXPLICIT.exec(match[1]);
      const shown = (explicit ? explicit[1] : match[1]).trim();
      roles.push({ shown, term: (explicit ? explicit[2] : match[1]).trim() });
    }
    return roles;
  }

  /** The term an unresolved link of a rendered cell names (null if the source has none). */
  function termOf(anchor, cellNode, source) {
    const roles = termRoles(source);
    const links = [...cellNode.querySelectorAll('a.hover-link')]
      .filter(a => a.getAttribute('href') === '#');
    const at = links.indexOf(anchor);
    const shown = anchor.textContent.trim();
    if (at >= 0 && roles[at] && roles[at].shown === shown) {
      return roles[at].term;
    }
    const same = roles.find(role => role.shown === shown);
    return same ? same.term : null;
  }

  /** The notebook cell (and its notebook's path) whose node holds ``node``. */
  function cellAt(app, node) {
    for (const panel of app.shell.widgets('main')) {
      const notebook = panel.content;
      if (!panel.context || !notebook || !notebook.widgets) {
        continue;
      }
      // a notebook still being laid out (windowing, Run All) can list a cell not yet made
      for (const cell of notebook.widgets) {
        if (cell && cell.node && cell.node.contains(node)) {
          return { cell, path: panel.context.path };
        }
      }
    }
    return null;
  }

  /** glossary.md beside the notebook, or in the nearest folder above it. */
  async function glossaryFor(app, notebookPath) {
    const parts = notebookPath.split('/').slice(0, -1);
    for (let depth = parts.length; depth >= 0; depth--) {
      const path = [...parts.slice(0, depth), GLOSSARY].join('/');
      try {
        await app.serviceManager.contents.get(path, { content: false });
        return path;
      } catch (err) {
        // not in this folder: try the one above
      }
    }
    return null;
  }

  /** The entry of ``term`` in a rendered glossary: jupyterlab-myst renders the Sphinx
      glossary's entries as paragraphs whose first line is the term (a Sphinx build gives a
      <dt id="term-…">, looked for too). */
  function entryIn(root, term) {
    const wanted = term.normalize('NFC').toLowerCase();
    for (const node of root.querySelectorAll('dt, p')) {
      const first = node.textContent.split('\n')[0].trim().normalize('NFC').toLowerCase();
      if (first === wanted) {
        return node;
      }
    }
    return null;
  }

  async function openTerm(app, notebookPath, term) {
    const path = await glossaryFor(app, notebookPath);
    if (!path) {
      console.warn(`${NAME}: no ${GLOSSARY} beside ${notebookPath} or above it`);
      return;
    }
    const widget = await app.commands.execute('docmanager:open',
      { path, factory: 'Markdown Preview' });
    const started = Date.now();
    const find = () => {
      const entry = widget && !widget.isDisposed ? entryIn(widget.node, term) : null;
      if (entry) {
        document.querySelectorAll(`.${MARK}`).forEach(node => node.classList.remove(MARK));
        entry.classList.add(MARK);
        entry.scrollIntoView({ block: 'center' });
        entry.dataset.rulebookTerm = term;
      } else if (Date.now() - started < 15000) {
        setTimeout(find, 100);     // the preview renders asynchronously
      } else {
        console.warn(`${NAME}: ${term} has no entry in ${path}`);
      }
    };
    find();
  }

  /** The unresolved term link an event is on, with its notebook's path and its term. */
  function termLink(app, event) {
    const anchor = event.target.closest && event.target.closest('a.hover-link');
    if (!anchor || anchor.getAttribute('href') !== '#') {
      return null;
    }
    const cellNode = anchor.closest('.jp-MarkdownCell');
    const found = cellNode && cellAt(app, cellNode);
    const term = found && termOf(anchor, cellNode, found.cell.model.sharedModel.getSource());
    return term ? { anchor, path: found.path, term } : null;
  }

  function onHover(app, event) {
    const link = termLink(app, event);
    if (link && !link.anchor.title) {
      link.anchor.title = `용어집: ${link.term}`;
    }
  }

  function onClick(app, event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    const found = termLink(app, event);
    if (!found) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    openTerm(app, found.path, found.term).catch(err => console.error(`${NAME}:`, err));
  }

  /* Number boxes. A widget's number box (ipywidgets Text with the class rulebook-number, from
     widgets/views/jupyter.py) selects its value when it is tapped, clicked or focused, and on a
     tap after the reader finished a value there (Enter), so a reader types over it, as on the
     site (widgets/js/live.js). The click that focused it would put the caret where it landed:
     its mouseup is cancelled and the click selects again. */
  let freshBox = null;
  let finishedBox = null;

  function numberBox(target) {
    return target && target.tagName === 'INPUT' && target.closest && target.closest('.rulebook-number')
      ? target : null;
  }

  function onBoxFocus(event) {
    const box = numberBox(event.target);
    freshBox = box;
    finishedBox = null;
    if (box) {
      box.select();
      setTimeout(() => { if (freshBox === box && document.activeElement === box) box.select(); }, 0);
    }
  }

  function onBoxPointerDown(event) {
    if (finishedBox && event.target === finishedBox && document.activeElement === finishedBox) {
      freshBox = finishedBox;
    }
    finishedBox = null;
  }

  function onBoxMouseUp(event) {
    if (freshBox && event.target === freshBox) {
      event.preventDefault();
    }
  }

  function onBoxClick(event) {
    if (freshBox && event.target === freshBox && document.activeElement === freshBox) {
      freshBox.select();
    }
    freshBox = null;
  }

  function onBoxKey(event) {
    freshBox = null;
    finishedBox = event.key === 'Enter' ? numberBox(event.target) : null;
  }

  const plugin = {
    id: `${NAME}:glossary-terms`,
    description: 'A glossary term in a chapter opens its entry in the glossary; a number box selects its value when tapped.',
    autoStart: true,
    activate: app => {
      document.addEventListener('click', event => onClick(app, event), true);
      document.addEventListener('mouseover', event => onHover(app, event), true);
      document.addEventListener('focusin', onBoxFocus, true);
      document.addEventListener('pointerdown', onBoxPointerDown, true);
      document.addEventListener('mouseup', onBoxMouseUp, true);
      document.addEventListener('click', onBoxClick, true);
      document.addEventListener('keydown', onBoxKey, true);
    }
  };

  function addStyle() {
    if (!HERE || document.querySelector(`link[data-${NAME}]`)) {
      return;
    }
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('style.css', HERE).href;
    link.setAttribute(`data-${NAME}`, '');
    document.head.appendChild(link);
  }

  const modules = {
    './extension': () => ({ __esModule: true, default: [plugin] }),
    './style': () => {
      addStyle();
      return { __esModule: true, default: {} };
    }
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = {
    init: () => Promise.resolve(),
    get: module => modules[module]
      ? Promise.resolve(modules[module])
      : Promise.reject(new Error(`${NAME} has no module ${module}`))
  };
})();
