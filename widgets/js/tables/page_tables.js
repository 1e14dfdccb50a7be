/* A page's widget data, moved out of the page so that the page paints before it arrives.
 *
 * book/_ext/page_tables.py writes one copy of this file per page that has widgets, as
 * _static/tables/<page>-<digest>.js, preceded by one line of data:
 *   const TABLES = [[uid, ...], [Bokeh document, ...], [page table or null, ...]];
 * in the order the widgets stand on the page. The page loads it with `defer`, before its other
 * scripts: it runs once the page is parsed and gives each widget's element (id = uid) back its
 * two JSON scripts, as the page carried them inline before: `script.live-doc` (the Bokeh document
 * that live.js embeds) and `script.live-data` (the page table of first answers). live.js, share.js
 * and the tests read them there, from DOMContentLoaded on. With JavaScript off nothing is loaded:
 * the page's own text and tables are all a reader needs then.
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
