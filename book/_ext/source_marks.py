"""Source notes out of the way: a short mark in the sentence, its source in a side note.

A chapter marks a rule the source text leaves out like this (the mark is a glossary link, the
footnote holds the source; both are plain MyST, so JupyterLab shows them too):

    부상 굴림의 합계는 부상 판정표로 읽습니다.{term}`보충 <보충 규칙>`[^tc-injury]

    [^tc-injury]: 트렌치 크루세이드 공식 규칙 v1.x, 부상 판정표(Injury Chart).

    이 책은 미니어처의 주인이 표식을 쓴다고 봅니다.{term}`가정`[^tc-blessing]

    [^tc-blessing]: 요약본은 누가 쓰는지 적지 않습니다.

On the site the theme turns each footnote into a side note (``use_sidenotes``): in the margin
on a wide screen, and on a phone one tap on its number opens it under the line. This extension
gives a glossary link to 보충 규칙 or to 가정 that a footnote follows at once the classes ``source-mark`` and
``source-mark--supplement`` / ``source-mark--assumption``, which ``book.css`` draws as a small
〔보충〕 / 〔가정〕 tag. A link to those entries in running prose (no footnote after it) stays a
plain glossary link.
"""
from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The glossary entry a mark links to → the class of its tag.
MARKS = {"보충 규칙": "source-mark--supplement", "가정": "source-mark--assumption"}


def mark_class(target: str) -> str | None:
    """The tag class of a ``{term}`` link to ``target`` (None for any other term).

    >>> mark_class("보충 규칙"), mark_class("가정"), mark_class("유혈 표식")
    ('source-mark--supplement', 'source-mark--assumption', None)
    """
    return MARKS.get(" ".join(target.split()))


def _tag_marks(app, doctree) -> None:
    for ref in doctree.findall(addnodes.pending_xref):
        if ref.get("reftype") != "term":
            continue
        kind = mark_class(ref.get("reftarget", ""))
        if kind is None or not isinstance(ref.next_node(siblings=True, descend=False),
                                          nodes.footnote_reference):
            continue
        for inline in ref.findall(nodes.inline):
            inline["classes"] += ["source-mark", kind]
            break


def _is_side_note(node) -> bool:
    """A side or margin note the theme placed as an inline (see :class:`SideNotesInsideLists`).

    >>> _is_side_note(nodes.inline(classes=["sidenote"])), _is_side_note(nodes.list_item())
    (True, False)
    """
    return isinstance(node, nodes.inline) and bool({"sidenote", "marginnote"} & set(node["classes"]))


class SideNotesInsideLists(SphinxPostTransform):
    """The theme places a side note whose footnote sits in a list item (or a table cell) twice:
    once just before that item, which makes a ``<span>`` a child of ``<ol>``/``<ul>``/``<tr>``
    (invalid HTML; axe: "list element has direct children that are not allowed"), and once,
    hidden on a wide screen (``d-n``), beside its number. A list item does not clip a float,
    so keep only the copy beside its number and show it as the theme shows any other side note
    (in the margin on a wide screen, under the line on a phone, under the line in print)."""

    default_priority = 2          # after sphinx-book-theme's HandleFootnoteTransform (1)
    formats = ("html",)

    def run(self, **kwargs) -> None:
        for note in list(self.document.findall(nodes.inline)):
            kinds = {"sidenote", "marginnote"} & set(note["classes"])
            parent = note.parent
            if not kinds or not isinstance(parent, (nodes.bullet_list, nodes.enumerated_list, nodes.row)):
                continue
            # two notes in one item stand side by side before it: the item is the next sibling
            # that is not itself such a note (else one note would be put inside the other)
            after = parent.index(note) + 1
            while _is_side_note(parent[after]):
                after += 1
            item = parent[after]
            twins = [n for n in item.findall(nodes.inline) if "d-n" in n["classes"]
                     and kinds & set(n["classes"]) and n.astext() == note.astext()]
            parent.remove(note)
            if twins:
                twins[0]["classes"].remove("d-n")
            else:                  # no twin found: keep the note, inside the item
                item.insert(0, note)


def setup(app):
    app.connect("doctree-read", _tag_marks)
    app.add_post_transform(SideNotesInsideLists)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
