/* A page's widget data, moved out of the page so that the page paints before it arrives.
 *
 * book/_ext/page_tables.py writes one copy of this file per page that has widgets, as
 * _static/tables/<page>-<digest>.js, preceded by one line of data:
 *   const TABLES = [[uid, ...], [Bokeh document, ...], [page table or null, ...]];
 * in the order the widgets stand on the page. The page names it (<link rel="live-tables">) and
 * widgets/js/live.js loads it once the page is parsed: it gives each widget's element (id = uid)
 * back its two JSON scripts, as the page carried them inline before: `script.live-doc` (the
 * Bokeh document that live.js embeds) and `script.live-data` (the page table of first answers).
 * live.js, share.js and the tests read them there once it has run (LiveBook.tables), before the
 * page's load event. With JavaScript off nothing is loaded: the page's own text and tables are
 * all a reader needs then.
 */
(function () {
  "use strict";
  const [uids, docs, datas] = TABLES;

  function script(cls, value) {
    const el = document.createElement("script");
    el.type = "application/json";
    el.className = cls;
    el.textContent = JSON.stringify(value);
    return el;
  }

  uids.forEach((uid, i) => {
    const el = document.getElementById(uid);
    if (!el || el.querySelector("script.live-doc")) return;
    el.appendChild(script("live-doc", docs[i]));
    if (datas[i] !== null) el.appendChild(script("live-data", datas[i]));
  });
})();
