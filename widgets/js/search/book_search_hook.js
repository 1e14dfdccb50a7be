/* Search as you type in the header's search box (the theme's search dialog) of every page.
 *
 * A page loads nothing of the search until the reader types into that box: at the first
 * keystroke this loads the search page's own script and style (_static/book_search.js and .css,
 * which then fetch the Pagefind index), and the results come under the box as the reader types
 * (book_search.js BookSearch.attachBox). Enter still opens search.html?q=… with every result.
 * The search page itself runs book_search.js directly (its box answers in place).
 */
(function () {
  "use strict";
  const root = document.documentElement.dataset.content_root || "./";
  let loading = null;

  function load() {
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        const style = document.createElement("link");
        style.rel = "stylesheet";
        style.href = root + "_static/book_search.css";
        document.head.appendChild(style);
        const script = document.createElement("script");
        script.src = root + "_static/book_search.js";
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
      loading.catch(() => { loading = null; });    // offline and never loaded: try again later
    }
    return loading;
  }

  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.name !== "q" || !box.closest("#pst-search-dialog")) return;
    if (document.querySelector(".bd-search-container #search-results")) return;   // the search page
    if (box.bookSearch) return;                    // attached: book_search.js follows the box itself
    load().then(() => window.BookSearch.attachBox(box), () => {});
  });
})();
