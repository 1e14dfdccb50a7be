/* The theme's "맨 위로" button (#pst-back-to-top), which the theme's bootstrap.js drove; the book
 * leaves that script off every page (book/_templates/layout.html), so this does its two jobs:
 * the button shows while the reader scrolls back up below the page header, and takes them to
 * the top.
 */
(function () {
  "use strict";
  function start() {
    const button = document.getElementById("pst-back-to-top");
    const header = document.querySelector(".bd-header");
    if (!button || !header) return;
    const below = header.getBoundingClientRect().bottom;
    let last = window.scrollY;
    button.addEventListener("click", () => {
      document.body.scrollTop = 0;
      document.documentElement.scrollTop = 0;
    });
    window.addEventListener("scroll", () => {
      const y = window.scrollY;
      button.style.display = last > y && y > below ? "block" : "none";
      last = y;
    }, {passive: true});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
