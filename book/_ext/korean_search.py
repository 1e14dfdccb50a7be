"""Korean search for the static site.

Sphinx has no Korean splitter: it splits on spaces only, so particles stay attached
(``명중굴림에``) and a 2-syllable word such as ``굴림`` finds nothing. This language indexes each
word without its trailing particle, plus the 2-syllable pieces of longer Hangul words, and the
page's JS stemmer strips the same particles from what the reader types.
"""
from __future__ import annotations

import re

from sphinx.search import SearchLanguage

# Longest first, so 에서는 is stripped before 는. Only from words of 3+ syllables, so that
# 2-syllable words (거리, 나이) keep their last syllable.
PARTICLES = ("에서는", "으로는", "에게서", "이라는", "에서", "에게", "으로", "까지", "부터", "보다",
             "처럼", "이나", "이란", "에는", "와는", "과는", "은", "는", "이", "가", "을", "를", "에",
             "의", "로", "와", "과", "도", "만")
_HANGUL = re.compile(r"^[\uac00-\ud7a3]+$")


def strip_particle(word: str) -> str:
    if len(word) >= 3 and _HANGUL.match(word):
        for particle in PARTICLES:
            if word.endswith(particle) and len(word) - len(particle) >= 2:
                return word[: -len(particle)]
    return word


class SearchKorean(SearchLanguage):
    lang = "ko"
    language_name = "Korean"
    js_stemmer_code = """
var Stemmer = function() {
  const particles = %s;
  const hangul = /^[\\uac00-\\ud7a3]+$/;
  this.stemWord = function(w) {
    if (w.length >= 3 && hangul.test(w)) {
      for (const p of particles) {
        if (w.endsWith(p) && w.length - p.length >= 2) return w.slice(0, -p.length);
      }
    }
    return w;
  };
};
""" % ("[" + ", ".join(f'"{p}"' for p in PARTICLES) + "]")

    def split(self, input: str) -> list[str]:
        words = super().split(input)
        pieces = []
        for word in words:
            stem = strip_particle(word)
            if len(stem) >= 3 and _HANGUL.match(stem):
                pieces += [stem[i:i + 2] for i in range(len(stem) - 1)]
        return words + pieces

    def stem(self, word: str) -> str:
        return strip_particle(word.lower())

    def word_filter(self, word: str) -> bool:
        return len(word) > 0


def setup(app):
    app.add_search_language(SearchKorean)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
