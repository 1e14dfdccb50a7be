/* rulebook-lab: the book's own JupyterLab plugin (installed by `python3 scripts/dev.py lab`).

   Glossary terms. The chapters write {term}`미니어처` (or {term}`보기 <용어>`), which Sphinx
   resolves across the whole book. jupyterlab-myst resolves references within one document only
   (a ReferenceState per notebook: src/myst.ts; project-wide references are its open issue #218),
   so in a chapter every term is an unresolved cross-reference: an <a class="hover-link"
   href="#"> that does nothing. This plugin makes a click on one open the glossary (glossary.md,
   found beside the notebook or in a folder above it) in JupyterLab's Markdown preview, scrolled
   to that term's entry. The term is read from the cell's own source: the k-th unresolved link of
   a rendered cell is the k-th {term} role of its source (checked by its shown text).

   Quick references are named in their tabs by their titles (nameTab), and jupyterlab-myst's
   console lines for the glossary terms this plugin resolves are left out (quietResolvedTerms).

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

  /** The entry the reader last opened: the preview may draw itself again (JupyterLab renders
      a Markdown preview again when it is shown, and when its file changes), which drops the
      mark; it is put back on the new drawing of the same entry. */
  let marked = null;

  /** Mark ``term``'s entry in the preview ``widget`` (and only it), scrolled to if asked. */
  function markEntry(widget, term, scroll) {
    const entry = entryIn(widget.node, term);
    if (!entry) {
      return false;
    }
    document.querySelectorAll(`.${MARK}`).forEach(node => {
      if (node !== entry) {
        node.classList.remove(MARK);
        delete node.dataset.rulebookTerm;
      }
    });
    entry.classList.add(MARK);
    entry.dataset.rulebookTerm = term;
    if (scroll) {
      entry.scrollIntoView({ block: 'center' });
    }
    return true;
  }

  /** Keep the mark on the entry opened last in ``widget`` whenever the preview redraws. */
  function keepMark(widget) {
    if (widget.rulebookMarks) {
      return;
    }
    widget.rulebookMarks = new MutationObserver(() => {
      if (marked && marked.widget === widget && !widget.node.querySelector(`.${MARK}`)) {
        markEntry(widget, marked.term, Date.now() < marked.scrollUntil);
      }
    });
    widget.rulebookMarks.observe(widget.node, { childList: true, subtree: true });
    widget.disposed.connect(() => widget.rulebookMarks.disconnect());
  }

  async function openTerm(app, notebookPath, term) {
    const path = await glossaryFor(app, notebookPath);
    if (!path) {
      console.warn(`${NAME}: no ${GLOSSARY} beside ${notebookPath} or above it`);
      return;
    }
    const widget = await app.commands.execute('docmanager:open',
      { path, factory: 'Markdown Preview' });
    if (!widget || widget.isDisposed) {
      return;
    }
    marked = { widget, term, scrollUntil: Date.now() + 3000 };
    keepMark(widget);
    const started = Date.now();
    const find = () => {
      if (widget.isDisposed || (marked && marked.term !== term)) {
        return;                    // closed, or another term clicked since
      }
      if (!markEntry(widget, term, true)) {
        if (Date.now() - started < 15000) {
          setTimeout(find, 100);   // the preview renders asynchronously
        } else {
          console.warn(`${NAME}: ${term} has no entry in ${path}`);
        }
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

  /** A notebook in a folder (the quick references: quickref/pf2e.ipynb beside the chapter
      pf2e.ipynb) shows its title, its first cell's heading, in its tab, so two tabs never read
      the same; the tab's tooltip keeps the path. Not through the tab's label: JupyterLab takes
      a new label as a new file name and renames the file (DocumentWidget._onTitleChanged). The
      tab gets a class of its own (the title's className, which the tab bar keeps) and a rule
      that shows the title in place of the file name (style.css, .rulebook-titled). */
  const HEADING = /^#\s+(.+)$/m;
  let titled = 0;

  function nameTab(panel) {
    const context = panel.context;
    if (!context || panel.rulebookNamed || !/\/[^/]+\.ipynb$/.test(context.path)) {
      return;
    }
    panel.rulebookNamed = true;
    context.ready.then(() => {
      const cells = context.model.sharedModel.cells;
      const match = cells.length ? HEADING.exec(cells[0].getSource()) : null;
      if (!match || panel.isDisposed) {
        return;
      }
      const mark = `rulebook-tab-${++titled}`;
      const rule = document.createElement('style');
      rule.textContent = `.lm-TabBar-tab.${mark}::after { content: ${JSON.stringify(match[1].trim())}; }`;
      document.head.appendChild(rule);
      panel.title.className = `${panel.title.className} rulebook-titled ${mark}`.trim();
      panel.disposed.connect(() => rule.remove());
    });
  }

  function nameTabs(app) {
    for (const widget of app.shell.widgets('main')) {
      nameTab(widget);
    }
  }

  /** jupyterlab-myst resolves references within one notebook only (one ReferenceState per
      notebook, src/myst.ts; project-wide references are its open issue #218) and logs every
      reference it cannot resolve with console.error each time it renders a notebook: in a
      chapter, each glossary term (a {term} role, id term-…), 17–19 a notebook. This plugin
      resolves those itself (a click opens the glossary entry, above), so those lines are not
      errors here; they are left out of the message, and every other line passes as it was. */
  const UNRESOLVED_TERM = /^Cross reference target was not found: term-/;

  function quietResolvedTerms() {
    const error = console.error;
    if (error.rulebookTerms) {
      return;
    }
    const filtered = function (...args) {
      if (args.length === 1 && typeof args[0] === 'string' && args[0].includes('term-')) {
        const lines = args[0].split('\n');
        const rest = lines.filter(line => !UNRESOLVED_TERM.test(line));
        if (rest.length < lines.length) {
          if (rest.length) {
            error.call(console, rest.join('\n'));
          }
          return;
        }
      }
      return error.apply(console, args);
    };
    filtered.rulebookTerms = true;
    console.error = filtered;
  }

  /** A live widget whose kernel is gone (restarted, stopped): the widgets' front end marks its
      view .jupyter-widgets-disconnected; style.css hides its answer, greys its controls and
      shows its note (run the cell again). Its controls are made inert too: no focus, no
      typing, so nothing the reader does can seem to answer (and the front end does not throw
      "Cannot send" for a change it can no longer send to the kernel). */
  function inertWhenKernelGone() {
    const update = root => {
      const gone = root.classList.contains('jupyter-widgets-disconnected');
      for (const child of root.children) {
        if (!child.classList.contains('rulebook-stale')) {
          child.inert = gone;
        }
      }
    };
    new MutationObserver(records => {
      for (const record of records) {
        const node = record.target;
        if (node.classList && node.classList.contains('rulebook-live')) {
          update(node);
        }
      }
    }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true });
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
    description: 'A glossary term in a chapter opens its entry in the glossary; quick references are named by their titles; a number box selects its value when tapped.',
    autoStart: true,
    activate: app => {
      quietResolvedTerms();
      inertWhenKernelGone();
      document.addEventListener('click', event => onClick(app, event), true);
      document.addEventListener('mouseover', event => onHover(app, event), true);
      const shell = app.shell;
      if (shell.layoutModified) {
        shell.layoutModified.connect(() => nameTabs(app));
      }
      if (shell.currentChanged) {
        shell.currentChanged.connect(() => nameTabs(app));
      }
      if (app.restored) {
        app.restored.then(() => nameTabs(app));
      }
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
