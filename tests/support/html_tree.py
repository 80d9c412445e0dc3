"""A small HTML tree for tests: what a browser would see as elements, attributes and text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID_ELEMENTS = frozenset({"meta", "link", "br", "hr", "img", "input", "source", "wbr"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return "".join(parts)

    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def iter(self) -> list[Element]:
        found = [self]
        for child in self.children:
            if isinstance(child, Element):
                found.extend(child.iter())
        return found

    def find_all(self, tag: str, class_name: str | None = None) -> list[Element]:
        return [
            e
            for e in self.iter()
            if e.tag == tag and (class_name is None or class_name in e.classes())
        ]


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self._open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self._open[-1].children.append(element)
        if tag not in VOID_ELEMENTS:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID_ELEMENTS:
            return
        while len(self._open) > 1:
            if self._open.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self._open[-1].children.append(data)


def parse_html(markup: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    return builder.root
