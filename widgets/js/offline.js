/* Offline after one visit: register the site's service worker (sw.js at the site root, written
 * by book/_ext/offline.py) once the page has loaded. Its address is relative to this script's
 * own (_static/offline.js), so the site works unchanged under a sub-path.
 *
 *   LiveOffline.registration   -> Promise of the ServiceWorkerRegistration, or null where the
 *                                 browser has none (file://, old browsers) or registration failed
 */
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : "";
  let resolve;
  const registration = new Promise((r) => { resolve = r; });

  function register() {
    if (!here || !("serviceWorker" in navigator) || !window.isSecureContext) {
      resolve(null);
      return;
    }
    const root = new URL("../", here);
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.href})
      .then(resolve, () => resolve(null));
  }

  window.LiveOffline = {registration};
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
