/* Offline after one visit: register the site's service worker (sw.js at the site root, written
 * by book/_ext/offline.py from widgets/js/offline/sw.js) once the page has loaded, and tell it
 * what to keep. Its address is relative to this script's own (_static/offline.js), so the site
 * works unchanged under a sub-path.
 *
 * - Once the worker is active, ask it to keep every page and what pages load (not the engine),
 *   in the background, unless the reader's browser asks to save data (navigator.connection
 *   .saveData; the worker also honours a "Save-Data: on" request header). Asked on every page
 *   load: a save cut short by closing the page goes on at the next one.
 * - On the search page, once a search has shown results, ask the worker to keep the whole search
 *   index (group "s"), so that search works offline afterwards.
 * - Once the reader has changed any widget on this page (its "live:answer" or "live:error" event),
 *   ask the worker to keep the in-page engine's files in the background (from the browser's cache
 *   where the engine already loaded them, else downloaded), unless the browser asks to save data:
 *   values no table holds then work offline too.
 * - The footer's control (book/_templates/save-book.html): what is kept on this device, and a
 *   button that keeps the whole book, engine included, with progress and a result message.
 * - When a new build has been stored while a page of the old one is open, a small notice offers
 *   to show the new one (the new worker takes over and the page reloads); otherwise the new build
 *   takes over once every page of the old one is closed.
 *
 *   LiveOffline.registration   -> Promise of the ServiceWorkerRegistration, or null where the
 *                                 browser has none (file://, old browsers) or registration failed
 *   LiveOffline.status()       -> Promise of what is kept, per group ({p: [kept, total, bytes
 *                                 kept, bytes], a: …, e: …, o: …}; sw.js), or null
 *   LiveOffline.saveAll()      -> Promise: keep the whole book (what the footer's button does);
 *                                 resolves with the number of files that could not be kept
 */
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : "";
  let resolve;
  const registration = new Promise((r) => { resolve = r; });

  const TEXT = {
    ready: "이 책의 새 판을 받아 두었습니다.",
    show: "새 판으로 보기",
    later: "나중에",
    unsupported: "이 브라우저나 주소에서는 책을 기기에 저장할 수 없습니다. 보안 연결(자물쇠 표시) 주소로 열면 " +
      "인터넷 없이도 볼 수 있게 저장됩니다.",
    saving: (done, total, bytes, all) => `저장하는 중… ${done} / ${total} (${mb(bytes)} / ${mb(all)} MB)`,
    saved: "책 전체를 이 기기에 저장했습니다. 이제 인터넷 없이도 모든 장과 계산기를 쓸 수 있습니다.",
    failed: (n) => `${n}개를 저장하지 못했습니다. 인터넷 연결을 확인한 뒤 다시 눌러 주세요.`,
    stateAll: "이 기기에 책 전체가 저장되어 있습니다. 인터넷 없이도 모든 장과 계산기를 쓸 수 있습니다.",
    statePages: "이 기기에 모든 장이 저장되어 있어 인터넷 없이도 볼 수 있습니다. " +
      "표에 없는 값을 계산하는 엔진은 한 번 쓰거나 아래 단추를 누르면 저장됩니다.",
    stateSome: "인터넷 없이 볼 수 있게 저장 중이거나, 데이터 절약 설정 때문에 연 장만 저장되어 있습니다.",
    button: (all) => `책 전체를 기기에 저장 (약 ${mb(all)} MB)`,
  };
  let asked = false;

  function mb(bytes) {
    return (bytes / 1e6).toFixed(1);
  }

  function saveData() {
    return !!(navigator.connection && navigator.connection.saveData);
  }

  // --- talking to the worker ----------------------------------------------------------------
  const listeners = new Set();

  function post(msg) {
    return navigator.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage(msg);
    });
  }

  function status() {
    return registration.then((reg) => {
      if (!reg) return null;
      return new Promise((done) => {
        const on = (m) => {
          if (m.type !== "status") return;
          listeners.delete(on);
          done(m.status);
        };
        listeners.add(on);
        post({type: "status"});
      });
    });
  }

  function saveAll(progress) {
    return registration.then((reg) => {
      if (!reg) return null;
      return new Promise((done) => {
        const on = (m) => {
          if (m.type === "progress" && progress) progress(m);
          if (m.type === "saved" && m.groups.includes("e")) {
            listeners.delete(on);
            done(m.failed);
          }
        };
        listeners.add(on);
        post({type: "save", what: "all"});
      });
    });
  }

  // Once the reader has changed any widget (an answer shown, from the page's table or the
  // engine), ask the worker to keep the engine's files in the background: the first value no
  // table holds then works offline too. Not when the browser asks to save data.
  function keepEngineOnceUsed() {
    const keep = () => {
      document.removeEventListener("live:answer", keep);
      document.removeEventListener("live:error", keep);
      if (!saveData()) post({type: "save", what: "engine"});
    };
    document.addEventListener("live:answer", keep);
    document.addEventListener("live:error", keep);
  }

  // While this page's engine boots (a reader waits for a value no table holds), the worker's
  // background downloads wait: the engine's own download comes first (live.js's "live:engine").
  function engineFirst() {
    document.addEventListener("live:engine", (e) => {
      post({type: e.detail.state === "booting" ? "hold" : "go"});
    });
  }

  // The search page (search.html, #search-results): once a search has shown its results, ask the
  // worker to keep the whole index (each query reads other pieces of it), so search works offline.
  function keepSearchOnceUsed() {
    const out = document.getElementById("search-results");
    if (!out) return;
    const check = () => {
      if (out.dataset.state !== "done") return false;
      post({type: "save", what: "search"});
      return true;
    };
    if (check()) return;
    const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
    watch.observe(out, {attributes: true, attributeFilter: ["data-state"]});
  }

  // --- the footer's control -------------------------------------------------------------------
  // every save control of the page: the footer's and the one under a chapter's 「이 장의 계산기」
  function footer() {
    document.querySelectorAll(".save-book").forEach(control);
  }

  function control(box) {
    const state = box.querySelector(".save-book__state");
    const button = box.querySelector(".save-book__button");
    const bar = box.querySelector(".save-book__progress");
    const note = box.querySelector(".save-book__status");
    box.hidden = false;
    registration.then((reg) => {
      if (!reg) {
        state.textContent = TEXT.unsupported;
        button.hidden = true;
        return;
      }
      listeners.add((m) => { if (m.type === "status") show(m.status); });   // e.g. a save finished
      status();
    });

    function show(s) {
      const all = Object.values(s).reduce((n, g) => n + g[3], 0);
      const full = (g) => !g || g[0] === g[1];
      button.textContent = TEXT.button(all);
      if (full(s.a) && full(s.p) && full(s.e) && full(s.s) && full(s.o)) state.textContent = TEXT.stateAll;
      else if (full(s.a) && full(s.p)) state.textContent = TEXT.statePages;
      else state.textContent = TEXT.stateSome;
    }

    button.addEventListener("click", () => {
      button.disabled = true;
      bar.hidden = false;
      bar.value = 0;
      note.textContent = "";
      saveAll((m) => {
        bar.max = m.totalBytes || 1;
        bar.value = m.bytes;
        note.textContent = TEXT.saving(m.done, m.total, m.bytes, m.totalBytes);
      }).then((failed) => {
        button.disabled = false;
        bar.hidden = true;
        note.textContent = failed ? TEXT.failed(failed) : TEXT.saved;
      });
    });
  }

  // --- a new build ----------------------------------------------------------------------------
  function offer(worker) {
    if (!worker || !navigator.serviceWorker.controller || document.querySelector(".live-update")) return;
    const bar = document.createElement("div");
    bar.className = "live-update";
    bar.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = TEXT.ready;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = TEXT.show;
    button.addEventListener("click", () => {
      asked = true;
      button.disabled = true;
      worker.postMessage("skip-waiting");
    });
    const later = document.createElement("button");
    later.type = "button";
    later.textContent = TEXT.later;
    later.addEventListener("click", () => bar.remove());   // the new build waits for the next visit
    bar.append(text, button, later);
    document.body.appendChild(bar);
  }

  function watch(reg) {
    if (!reg) return;
    if (reg.waiting) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(worker); });
    });
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (asked) location.reload();
    });
    navigator.serviceWorker.addEventListener("message", (e) => {
      if (e.data && typeof e.data === "object") listeners.forEach((on) => on(e.data));
    });
    navigator.serviceWorker.startMessages();
    if (!saveData()) post({type: "save", what: "pages"});
    keepEngineOnceUsed();
    keepSearchOnceUsed();
    engineFirst();
  }

  function register() {
    if (!here || !("serviceWorker" in navigator) || !window.isSecureContext) {
      resolve(null);
      return;
    }
    const root = new URL("../", here);
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.href})
      .then(resolve, () => resolve(null));
  }

  registration.then(watch);
  window.LiveOffline = {registration, status, saveAll: () => saveAll(null)};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", footer);
  else footer();
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
