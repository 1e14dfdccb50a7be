/* Offline after one visit: register the site's service worker (sw.js at the site root, written
 * by book/_ext/offline.py) once the page has loaded. Its address is relative to this script's
 * own (_static/offline.js), so the site works unchanged under a sub-path.
 *
 * When a new build has been stored while a page of the old one is open, a small notice offers
 * to show the new one (the new worker takes over and the page reloads); otherwise the new build
 * takes over once every page of the old one is closed.
 *
 *   LiveOffline.registration   -> Promise of the ServiceWorkerRegistration, or null where the
 *                                 browser has none (file://, old browsers) or registration failed
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
  };
  let asked = false;

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
  window.LiveOffline = {registration};
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
