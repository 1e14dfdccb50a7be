/* The book's search page: search.html?q=… (the theme's search box sends readers here).
 *
 * Reads the Pagefind index that book/_ext/book_search.py builds into pagefind/ (same-origin files;
 * Pagefind fetches only the chunks and fragments a search needs) and lists, in this order:
 *   1. the sections book/glossary_sections.yml declares for a glossary term the query names,
 *   2. other chapter sections, 3. quick references, appendix, introduction, 4. glossary entries
 *      (each with its rule's link).
 * Each result links to its section's anchor, with a snippet from the matching passage.
 * Korean particles are stripped from the typed words (the list comes from the index's
 * book-terms.json, written from korean_search.PARTICLES), so 표식을 finds 표식.
 * The page marks #search-results with data-state = searching | done | failed.
 */
(function () {
  "use strict";

  const TEXT = {
    title: "검색 결과",
    searching: "찾는 중…",
    found: (q, n) => `「${q}」: ${n}곳을 찾았습니다.`,
    none: (q) => `「${q}」에 맞는 곳을 찾지 못했습니다. 띄어쓰기를 바꾸거나 더 짧은 말로 찾아 보세요 (예: 표식, 대각선).`,
    empty: "찾을 말을 위의 칸에 적고 Enter를 누르세요. 예: 다중 공격 페널티, 유혈 표식, 대각선",
    failed: "검색 색인을 불러오지 못했습니다. 인터넷에 연결된 상태에서 이 페이지를 한 번 열어 두면, " +
      "그다음부터는 연결 없이도 찾을 수 있습니다.",
    more: (n) => `결과 ${n}개 더 보기`,
    rule: "규칙 보기 → ",
    widget: " · 계산기 → ",
    glossary: "용어집",
  };
  const PAGE = 10;                       // results whose snippet is fetched at once
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

  /** Pagefind's excerpt (text with <mark>) as DOM nodes, keeping nothing else of its markup. */
  function excerptNodes(excerpt) {
    const doc = new DOMParser().parseFromString(`<body>${excerpt}</body>`, "text/html");
    const out = [];
    for (const node of doc.body.childNodes) {
      if (node.nodeName === "MARK") {
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

  function item(data) {
    const m = data.meta || {};
    const li = document.createElement("li");
    const kind = (data.filters && data.filters.kind && data.filters.kind[0]) || "chapter";
    li.className = `book-result book-result--${kind}`;
    const head = li.appendChild(link(m.href, m.title || m.href, "book-result-title"));
    head.dataset.kind = kind;
    const where = li.appendChild(document.createElement("span"));
    where.className = "book-result-page";
    where.textContent = kind === "glossary" ? TEXT.glossary : (m.page || "");
    const p = li.appendChild(document.createElement("p"));
    p.className = "context";
    p.append(...withoutTitle(excerptNodes(data.excerpt || ""), m.title || ""));
    if (m.rule) {
      const rule = li.appendChild(document.createElement("p"));
      rule.className = "book-result-rule";
      rule.append(TEXT.rule, link(m.rule, m.rulelabel || m.rule));
      if (m.widget) rule.append(TEXT.widget, link(m.widget, m.widgetlabel || m.widget));
    }
    return li;
  }

  async function run(out, query) {
    out.dataset.state = "searching";
    const title = out.appendChild(document.createElement("h2"));
    title.textContent = TEXT.title;
    const status = out.appendChild(document.createElement("p"));
    status.className = "search-summary";
    status.setAttribute("role", "status");
    status.textContent = TEXT.searching;
    const list = out.appendChild(document.createElement("ul"));
    list.className = "search";

    const info = await (await fetch(root + "pagefind/book-terms.json")).json();
    const pagefind = await import(new URL(root + "pagefind/pagefind.js", location.href).href);
    await pagefind.options({excerptLength: 24, metaCacheTag: info.tag});
    const typed = words(query, info.particles).join(" ");
    const keys = namedTerms(termKey(query, info.particles), info.terms);
    const searches = [];
    if (keys.length) searches.push({explains: {any: keys}});
    for (const kind of ["chapter", "reference", "glossary"]) searches.push({kind});
    const seen = new Set();
    const results = [];
    for (const filters of searches) {
      const found = await pagefind.search(typed, {filters});
      for (const r of (found && found.results) || []) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          results.push(r);
        }
      }
    }
    status.textContent = results.length ? TEXT.found(query, results.length) : TEXT.none(query);

    let shown = 0;
    let more = null;
    async function showMore() {
      const next = results.slice(shown, shown + PAGE);
      shown += next.length;
      const data = await Promise.all(next.map((r) => r.data()));
      data.forEach((d) => list.appendChild(item(d)));
      const left = results.length - shown;
      if (left > 0) {
        if (!more) {
          more = out.appendChild(document.createElement("button"));
          more.type = "button";
          more.className = "book-search-more";
          more.addEventListener("click", () => {
            more.disabled = true;
            showMore().then(() => { more.disabled = false; });
          });
        }
        more.textContent = TEXT.more(Math.min(PAGE, left));
      } else if (more) {
        more.remove();
      }
    }
    await showMore();
    out.dataset.state = "done";
  }

  function start() {
    const out = document.getElementById("search-results");
    if (!out) return;
    const query = (new URLSearchParams(location.search).get("q") || "").trim();
    document.querySelectorAll('input[name="q"]').forEach((el) => { el.value = query; });
    if (!query) {
      const p = out.appendChild(document.createElement("p"));
      p.className = "search-summary";
      p.textContent = TEXT.empty;
      out.dataset.state = "done";
      return;
    }
    run(out, query).catch((err) => {
      console.error(err);
      const p = out.querySelector(".search-summary") || out.appendChild(document.createElement("p"));
      p.className = "search-summary";
      p.textContent = TEXT.failed;
      out.dataset.state = "failed";
    });
  }

  window.BookSearch = {stripParticle, termKey, words, namedTerms, withoutTitle};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
