/* The book's search: search.html?q=… and the header's search box on every page.
 *
 * Reads the Pagefind index that book/_ext/book_search.py builds into pagefind/ (same-origin files;
 * Pagefind fetches only the chunks and fragments a search needs) and lists, in this order:
 *   1. the sections book/glossary_sections.yml declares for a glossary term the query names,
 *   2. the sections whose tables rule an armour or weapon the query names by a name readers know
 *      (book/search_names.yml): first where the source's table has it, then, labelled 보충,
 *      where the name comes from the game's core rules,
 *   3. other chapter sections, 4. quick references, appendix, introduction, 5. glossary entries
 *      (each with its rule's link).
 * Each result links to its section's anchor, with a snippet from the matching passage.
 * Korean particles are stripped from the typed words (the list comes from the index's
 * book-terms.json, written from korean_search.PARTICLES), so 표식을 finds 표식.
 *
 * Results come as the reader types: from two characters on, after a pause (Pagefind's
 * debouncedSearch); Enter searches at once (one character too). On the search page the address
 * follows the query (a copied link opens the same results); in the header's search box of the
 * other pages (book_search_hook.js loads this file when the reader starts typing there) the
 * first results show under the box, with a link to all of them.
 * A results box (#search-results) says data-state = searching | done | failed and
 * data-query = the query its results answer.
 */
(function () {
  "use strict";

  const TEXT = {
    title: "검색 결과",
    searching: "찾는 중…",
    found: (q, n) => `「${q}」: ${n}곳을 찾았습니다.`,
    none: (q) => `「${q}」에 맞는 곳을 찾지 못했습니다. 띄어쓰기를 바꾸거나 더 짧은 말로 찾아 보세요 (예: 표식, 대각선).`,
    empty: "찾을 말을 위의 칸에 적으세요. 두 글자부터 적는 대로 찾습니다. 예: 다중 공격 페널티, 유혈 표식, 대각선, 사슬 갑옷",
    short: "두 글자부터 적는 대로 찾습니다 (한 글자는 Enter로 찾습니다).",
    failed: "검색 색인을 불러오지 못했습니다. 인터넷에 연결된 상태에서 이 페이지를 한 번 열어 두면, " +
      "그다음부터는 연결 없이도 찾을 수 있습니다.",
    more: (n) => `결과 ${n}개 더 보기`,
    rule: "규칙 보기 → ",
    widget: " · 계산기 → ",
    glossary: "용어집",
    core: "보충",
    coreTitle: (source) => `보충 규칙: 이 이름은 원문이 아닌 ${source}에서 왔습니다`,
    all: (n) => `검색 결과 ${n}곳 모두 보기 →`,
  };
  const PAGE = 10;                       // results whose snippet is fetched at once
  const BOX_PAGE = 5;                    // results shown under the header's search box
  const MIN_CHARS = 2;                   // typed characters before results come by themselves
  const PAUSE_MS = 220;                  // the pause after a keystroke before searching
  const HANGUL = /^[\uac00-\ud7a3]+$/;
  const root = document.documentElement.dataset.content_root || "./";

  /** The same rule as korean_search.strip_particle (tests/test_korean_search.py compares them). */
  function stripParticle(word, particles) {
    if (word.length >= 3 && HANGUL.test(word)) {
      for (const p of particles) {
        if (word.endsWith(p) && word.length - p.length >= 2) return word.slice(0, -p.length);
      }
    }
    return word;
  }

  function words(query, particles) {
    return query.normalize("NFKC").trim().split(/\s+/).filter(Boolean)
      .map((w) => stripParticle(w, particles));
  }

  /** The same as book_search.term_key: what queries and glossary terms are compared by. */
  function termKey(text, particles) {
    const t = text.normalize("NFKC").toLowerCase().replace(/\s*\([^)]*\)\s*$/, "");
    return words(t, particles).join("");
  }

  /** Declared terms the query names: the same term, else terms that begin with it. */
  function namedTerms(key, terms) {
    if (!key) return [];
    const same = terms.filter((t) => t.k === key).map((t) => t.k);
    if (same.length || key.length < 2) return same;
    return terms.filter((t) => t.k.startsWith(key)).map((t) => t.k);
  }

  /** Pagefind's excerpt (text with <mark>) as DOM nodes, keeping nothing else of its markup.
   *  A mark stays only where the marked word holds a word of the query (``marks``): Pagefind
   *  also marks words it matched by a piece of them (a Korean particle, 도 of 충격(쉘쇼크)도),
   *  which would show the reader fragments instead of the word they asked for. */
  function excerptNodes(excerpt, marks) {
    const doc = new DOMParser().parseFromString(`<body>${excerpt}</body>`, "text/html");
    const wanted = (marks || []).map((w) => w.normalize("NFKC").toLowerCase()).filter(Boolean);
    const matches = (text) => {
      const t = text.normalize("NFKC").toLowerCase();
      return wanted.some((w) => t.includes(w));
    };
    const out = [];
    for (const node of doc.body.childNodes) {
      if (node.nodeName === "MARK" && marks !== undefined && !matches(node.textContent)) {
        out.push(document.createTextNode(node.textContent));
      } else if (node.nodeName === "MARK") {
        const m = document.createElement("mark");
        m.textContent = node.textContent;
        out.push(m);
      } else {
        out.push(document.createTextNode(node.textContent));
      }
    }
    return out;
  }

  /** Leave out the section's own heading where the snippet starts with it (the link shows it),
   *  unless a word of the query is marked only there. */
  function withoutTitle(nodes, title) {
    const text = nodes.map((n) => n.textContent).join("");
    const bare = title.replace(/^[\d.]+\s+/, "");
    const lead = [title, bare].find((t) => t && text.startsWith(t + ". "));
    if (!lead || text.length <= lead.length + 2) return nodes;
    let cut = lead.length + 2;
    const out = [];
    for (const n of nodes) {
      const len = n.textContent.length;
      if (cut >= len) { cut -= len; continue; }
      out.push(cut > 0 ? document.createTextNode(n.textContent.slice(cut)) : n);
      if (cut > 0 && n.nodeName === "MARK") {
        const m = document.createElement("mark");
        m.textContent = out.pop().textContent;
        out.push(m);
      }
      cut = 0;
    }
    // keep the heading when it holds a match the rest lacks (a word of the query seen only there)
    const marks = (ns) => ns.filter((n) => n.nodeName === "MARK").map((n) => n.textContent);
    const rest = marks(out);
    const inHeading = marks(nodes).slice(0, marks(nodes).length - rest.length);
    return inHeading.every((m) => rest.some((r) => r.startsWith(m))) ? out : nodes;
  }

  function link(href, text, cls) {
    const a = document.createElement("a");
    a.href = root + href;
    a.textContent = text;
    if (cls) a.className = cls;
    return a;
  }

  /** A name's line (what the section's table has for it) with the query's words marked. */
  function markedLine(text, marks) {
    const out = [];
    let rest = text;
    while (rest) {
      let at = -1;
      let word = "";
      for (const w of marks) {
        const i = rest.toLowerCase().indexOf(w.toLowerCase());
        if (w && i >= 0 && (at < 0 || i < at)) { at = i; word = w; }
      }
      if (at < 0) { out.push(document.createTextNode(rest)); break; }
      if (at) out.push(document.createTextNode(rest.slice(0, at)));
      const m = document.createElement("mark");
      m.textContent = rest.slice(at, at + word.length);
      out.push(m);
      rest = rest.slice(at + word.length);
    }
    return out;
  }

  function item(data, named, marks) {
    const m = data.meta || {};
    const li = document.createElement("li");
    const kind = (data.filters && data.filters.kind && data.filters.kind[0]) || "chapter";
    li.className = `book-result book-result--${kind}`;
    const head = li.appendChild(link(m.href, m.title || m.href, "book-result-title"));
    head.dataset.kind = kind;
    const where = li.appendChild(document.createElement("span"));
    where.className = "book-result-page";
    where.textContent = kind === "glossary" ? TEXT.glossary : (m.page || "");
    const lines = named.get(m.href) || [];
    const source = (lines.find(([s]) => s) || [""])[0];
    if (source) {                        // the name comes from the core rules, not the source
      const badge = document.createElement("span");
      badge.className = "book-result-badge";
      badge.textContent = TEXT.core;
      badge.title = TEXT.coreTitle(source);
      where.prepend(badge);
      li.dataset.label = TEXT.core;
    }
    const p = li.appendChild(document.createElement("p"));
    p.className = "context";
    if (lines.length) {                  // a name the query names: what this section's table has for it
      lines.forEach(([, text], i) => p.append(...(i ? [document.createTextNode(" ")] : []), ...markedLine(text, marks)));
    } else {
      p.append(...withoutTitle(excerptNodes(data.excerpt || "", marks), m.title || ""));
    }
    if (m.rule) {
      const rule = li.appendChild(document.createElement("p"));
      rule.className = "book-result-rule";
      rule.append(TEXT.rule, link(m.rule, m.rulelabel || m.rule));
      if (m.widget) rule.append(TEXT.widget, link(m.widget, m.widgetlabel || m.widget));
    }
    return li;
  }

  /** What the search did on this page (the benchmark and the tests read it): queries asked,
   *  searches that ran after the pause, queries answered. */
  const stats = {asked: 0, ran: 0, answered: 0};

  /** The index's term lists and Pagefind itself, loaded once (and again after a failure). */
  let engine = null;
  function load() {
    if (!engine) {
      engine = (async () => {
        const info = await (await fetch(root + "pagefind/book-terms.json")).json();
        const pagefind = await import(new URL(root + "pagefind/pagefind.js", location.href).href);
        await pagefind.options({excerptLength: 24, metaCacheTag: info.tag});
        return {info, pagefind};
      })();
      engine.catch(() => { engine = null; });
    }
    return engine;
  }

  /** Every result for a query, in the book's order, and the sections labelled 보충 for it
   *  (href → the core rules the name comes from); null when a newer query came during the pause. */
  async function find(query, pause) {
    const {info, pagefind} = await load();
    const typed = words(query, info.particles).join(" ");
    const key = termKey(query, info.particles);
    const keys = namedTerms(key, info.terms);
    const table = info.names || {keys: [], lines: []};
    const nameKeys = namedTerms(key, table.keys);
    const named = new Map();              // section href → [[core rule or "", line], …] for the query
    for (const entry of table.keys) {
      if (!nameKeys.includes(entry.k)) continue;
      for (const i of entry.t) {
        const [hrefs, source, text] = table.lines[i];
        for (const href of hrefs) {
          const have = named.get(href) || [];
          if (!have.some(([, t]) => t === text)) named.set(href, [...have, [source, text]]);
        }
      }
    }
    const searches = [];
    if (keys.length) searches.push({explains: {any: keys}});
    for (const group of ["names", "core"]) {
      if (nameKeys.length) for (const kind of ["chapter", "reference"]) searches.push({[group]: {any: nameKeys}, kind});
    }
    for (const kind of ["chapter", "reference", "glossary"]) searches.push({kind});
    const seen = new Set();
    const results = [];
    for (const [i, filters] of searches.entries()) {
      if (i === 0) stats.asked += 1;
      const found = i === 0 && pause ? await pagefind.debouncedSearch(typed, {filters}, pause)
        : await pagefind.search(typed, {filters});
      if (found === null) return null;
      if (i === 0) stats.ran += 1;
      for (const r of (found && found.results) || []) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          results.push(r);
        }
      }
    }
    return {results, named, marks: typed.split(" ").filter(Boolean)};
  }

  /** A results box that answers queries as they come: ``show(query, now)``; a later query
   *  replaces an earlier one still on its way. ``page``: the search page (a heading, "더 보기");
   *  otherwise the header's box (the first results and a link to all of them). */
  function resultsBox(out, page) {
    let current = 0;
    function say(text, state) {
      out.textContent = "";
      delete out.dataset.query;
      if (text) {
        const p = out.appendChild(document.createElement("p"));
        p.className = "search-summary";
        p.setAttribute("role", "status");
        p.textContent = text;
      }
      out.dataset.state = state;
    }
    async function show(raw, now) {
      const query = raw.trim();
      const run = ++current;
      if (!query || (!now && query.normalize("NFKC").length < MIN_CHARS)) {
        if (page) history.replaceState(history.state, "", location.pathname);   // no results, no q
        return say(query ? TEXT.short : (page ? TEXT.empty : ""), "done");
      }
      if (out.dataset.state !== "searching") {
        const summary = out.querySelector(".search-summary");
        if (summary) summary.textContent = TEXT.searching;   // the last results stay until the new ones
        else say(TEXT.searching, "searching");
        out.dataset.state = "searching";
      }
      let found;
      try {
        found = await find(query, now ? 0 : PAUSE_MS);
      } catch (err) {
        if (run === current) {
          console.error(err);
          say(TEXT.failed, "failed");
        }
        return;
      }
      if (found === null || run !== current) return;          // a newer query is on its way
      const {results, named, marks} = found;
      const step = page ? PAGE : BOX_PAGE;
      const data = await Promise.all(results.slice(0, step).map((r) => r.data()));
      if (run !== current) return;
      say("", "searching");
      if (page) out.appendChild(document.createElement("h2")).textContent = TEXT.title;
      const status = out.appendChild(document.createElement("p"));
      status.className = "search-summary";
      status.setAttribute("role", "status");
      status.textContent = results.length ? TEXT.found(query, results.length) : TEXT.none(query);
      const list = out.appendChild(document.createElement("ul"));
      list.className = "search";
      data.forEach((d) => list.appendChild(item(d, named, marks)));
      let shown = data.length;
      if (results.length > shown && !page) {
        out.appendChild(link(`search.html?q=${encodeURIComponent(query)}`, TEXT.all(results.length),
                             "book-search-all"));
      } else if (results.length > shown) {
        const more = out.appendChild(document.createElement("button"));
        more.type = "button";
        more.className = "book-search-more";
        more.textContent = TEXT.more(Math.min(PAGE, results.length - shown));
        let loading = false;                 // a second tap while the next ones load does nothing
        more.addEventListener("click", async () => {
          if (loading) return;
          loading = true;
          more.setAttribute("aria-busy", "true");
          const next = await Promise.all(results.slice(shown, shown + PAGE).map((r) => r.data()));
          loading = false;
          more.removeAttribute("aria-busy");
          if (run !== current) return;
          next.forEach((d) => list.appendChild(item(d, named, marks)));
          shown += next.length;
          if (shown >= results.length) more.remove();
          else more.textContent = TEXT.more(Math.min(PAGE, results.length - shown));
        });
      }
      out.dataset.query = query;
      out.dataset.state = "done";
      stats.answered += 1;
      if (page) history.replaceState(history.state, "", `?q=${encodeURIComponent(query)}`);
    }
    return {show};
  }

  /** Results as the reader types into ``box``; Enter searches at once (``page``: in place). */
  function follow(box, results, page) {
    box.addEventListener("input", () => results.show(box.value, false));
    if (page && box.form) {
      box.form.addEventListener("submit", (event) => {
        event.preventDefault();
        results.show(box.value, true);
      });
    }
  }

  /** The header's search box (in its dialog, on every page but the search page): results under
   *  the box as the reader types. Called by book_search_hook.js once this file has loaded. */
  function attachBox(box) {
    const dialog = box.closest("dialog");
    if (!box.bookSearch) {
      const out = document.createElement("div");
      out.id = "search-results";
      out.className = "book-search-live";
      out.setAttribute("aria-live", "polite");
      (box.form || box).after(out);
      box.bookSearch = resultsBox(out, false);
      follow(box, box.bookSearch, false);
      out.addEventListener("click", (event) => {     // a result on this same page: out of the way
        if (event.target.closest("a") && dialog && dialog.open) dialog.close();
      });
    }
    box.bookSearch.show(box.value, false);
  }

  function start() {
    const out = document.getElementById("search-results");
    if (!out) return;
    const query = (new URLSearchParams(location.search).get("q") || "").trim();
    document.querySelectorAll('input[name="q"]').forEach((el) => { el.value = query; });
    const results = resultsBox(out, true);
    const box = document.querySelector('.bd-search-container input[name="q"]');
    if (box) follow(box, results, true);
    results.show(query, true);
  }

  window.BookSearch = {stripParticle, termKey, words, namedTerms, withoutTitle, excerptNodes, attachBox, stats};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
