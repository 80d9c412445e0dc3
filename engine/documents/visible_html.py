"""An HTML page reduced to what a browser shows, so that only shown text can be verified.

A reader who opens a cited page must see the excerpt we verified: hidden text must never reach
the snapshot, or a hostile author could plant invisible "facts" that would then be verified.

Dropped with their content (the text after them stays): `<script>`, `<style>`, `<template>`,
`<noscript>`, `<noembed>`, `<noframes>`, `<iframe>` fallback text, a `<dialog>` without `open`,
elements with `hidden` (not `hidden="until-found"`: find-in-page shows it, as a click shows a
closed `<details>`; both count as shown), and what the page's CSS (inline `style`, `<style>`
sheets) hides: `display:none`, `content-visibility:hidden`, `opacity` <= 0.05, a clip to
nothing (`clip: rect(0,0,0,0)`, `clip-path: inset(50%)`), a box at most 1px wide or high (no
padding) with `overflow: hidden|clip`, a positioned box 999px or more off screen
(`left`/`top`/`right`, `bottom` when fixed), a margin <= -999px, a `transform`, `translate` or
`scale` moving it 999px off or flattening it. Text silenced, children still judged (they may
show themselves again): `visibility: hidden|collapse`, a font under 4px (`font: 0/0 a` too),
`text-indent` <= -999px, a colour (`color`, `-webkit-text-fill-color`) that, blended over its
background, is within 8 of it on every channel. That background is the element's or nearest
ancestor's `background-color`, white by default; over an image it is unknown and only (nearly)
transparent text is silenced. `aria-hidden` is no reason: sighted readers see that text.

Cascade: sheets in document order, rules by specificity then order, inline above sheets,
`!important` above both; `inherit`, `var()`, `em`, `rem`, `%`, `pt`... resolved. Media rules
apply as on a 1280x800 screen: never `print`/`speech`, `min-`/`max-width|height` against that
size, other features hold; `@supports`, `@layer`, `@container` apply. External sheets, nested
CSS rules and pseudo-elements are ignored. The output (lxml, serialised back to HTML) keeps no
`style`, `hidden`, `aria-hidden`: trafilatura would drop shown text for them ("hidden" in any
style). Broken CSS is skipped rule by rule, HTML lxml cannot read is returned as it came; at
most 5,000 rules count, selector tests stop after a budget (inline styles still apply).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import cssselect2
import lxml.html
import tinycss2
import tinycss2.color4

MAX_RULES = 5_000
MATCH_BUDGET = 5_000_000  # selector tests over the whole page, some 3 s
_VIEWPORT = {"width": 1280.0, "height": 800.0}
_FAR = -999.0  # px: this far left or up is off screen
_MIN_FONT_PX = 4.0
_MAX_OPACITY = 0.05
_SAME_CHANNEL = 8 / 255
_NEVER_SHOWN = frozenset("script style template noscript noembed noframes iframe".split())
_TRACKED = frozenset(
    "display content-visibility visibility opacity font font-size color -webkit-text-fill-color"
    " background background-color background-image text-indent position left top right bottom"
    " inset margin margin-left margin-top transform translate scale width height max-width"
    " max-height overflow overflow-x overflow-y clip clip-path padding padding-top"
    " padding-right padding-bottom padding-left".split()
)
_FONT_KEYWORDS = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0}
_FONT_KEYWORDS |= {"large": 18.0, "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0}
_UNITS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4}
_UNITS |= {"q": 96 / 101.6, "vw": 12.8, "vh": 8.0, "vmin": 8.0, "vmax": 12.8}
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,([^()]*))?\)")
_MEDIA_FEATURE = re.compile(r"\(\s*(min-|max-)?(width|height)\s*:\s*(-?[\d.]+)\s*(px|r?em)?\s*\)")
_FONT_SIZE = re.compile(r"0|[\d.]+(%|[a-z]+)|(xx?-|xxx-)?(small|large)|medium|smaller|larger")
_IMAGE = re.compile(r"url|image|cross-fade|element|.*gradient$")
_GROUPING = ("media", "supports", "layer", "container")
_SIDES = ("top", "right", "bottom", "left")
_NO_SCREEN = frozenset({"print", "speech", "aural", "braille", "embossed", "tty", "tv"})

RGB = tuple[float, float, float]
RGBA = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Inherited:
    color: RGBA = (0.0, 0.0, 0.0, 1.0)
    fill: RGBA | None = None  # -webkit-text-fill-color
    background: RGB | None = (1.0, 1.0, 1.0)  # None: an image, colour unknown
    font_px: float = 16.0
    root_px: float = 16.0
    invisible: bool = False  # visibility: hidden | collapse
    indent_px: float = 0.0
    custom: Any = None  # dict[str, str] of custom properties, shared until one is declared
    silent: bool = False  # text here is unseen (visibility, size, indent or colour)


def visible_markup(markup: str) -> str:
    """`markup` without what a browser would not show; `markup` itself if lxml cannot read it."""
    try:
        parser = lxml.html.HTMLParser(encoding="utf-8")
        root = lxml.html.document_fromstring(markup.encode("utf-8", "replace"), parser=parser)
        drops = _walk(root, _page_matcher(root))
    except Exception:
        return markup
    if any(element is root for element in drops):
        return ""
    for element in drops:
        element.drop_tree()
    for element in root.iter():
        for name in ("style", "hidden", "aria-hidden"):  # judged here already
            element.attrib.pop(name, None)
    return str(lxml.html.tostring(root, encoding="unicode", method="html"))


def _page_matcher(root: Any) -> cssselect2.Matcher | None:
    matcher, count = cssselect2.Matcher(), 0
    for style in root.iter("style"):
        kind = (style.get("type") or "text/css").strip().lower()
        if kind == "text/css" and _media_applies(style.get("media") or ""):
            for rule in _style_rules(tinycss2.parse_stylesheet(style.text_content())):
                with contextlib.suppress(Exception):  # a selector cssselect2 lacks: this rule
                    declarations = _declarations(tinycss2.parse_blocks_contents(rule.content))
                    for selector in cssselect2.compile_selector_list(rule.prelude):
                        matcher.add_selector(selector, declarations)
                    count += bool(declarations)
                if count >= MAX_RULES:
                    return matcher
    return matcher if count else None


def _style_rules(rules: Iterable[Any]) -> Iterator[Any]:  # also inside @media if on screen
    stack = [iter(rules)]
    while stack:
        rule = next(stack[-1], None)
        if rule is None:
            stack.pop()
        elif rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule" and rule.content is not None:
            keyword, query = rule.lower_at_keyword, tinycss2.serialize(rule.prelude)
            if keyword in _GROUPING and _media_applies(query if keyword == "media" else ""):
                stack.append(iter(tinycss2.parse_rule_list(rule.content)))


def _media_applies(query_list: str) -> bool:
    """Whether a media query list holds on a 1280x800 screen (unknown features hold)."""
    for query in query_list.lower().split(","):
        query, negated = query.strip().removeprefix("not "), query.strip().startswith("not ")
        media_type = re.match(r"[a-z-]+", query.removeprefix("only ").strip())
        holds = media_type is None or media_type.group() not in _NO_SCREEN
        for bound, feature, number, unit in _MEDIA_FEATURE.findall(query):
            limit, size = float(number) * (16.0 if "em" in unit else 1.0), _VIEWPORT[feature]
            holds &= {"min-": size >= limit, "max-": size <= limit}.get(bound, size == limit)
        if holds != negated:
            return True
    return False


def _declarations(nodes: Iterable[Any]) -> tuple[tuple[str, str, bool], ...]:  # lowercased
    return tuple(
        (node.lower_name, tinycss2.serialize(node.value).strip().lower(), bool(node.important))
        for node in nodes
        if node.type == "declaration"
        and (node.lower_name in _TRACKED or node.lower_name.startswith("--"))
    )


def _walk(root: Any, matcher: cssselect2.Matcher | None) -> list[Any]:
    """One pass over the tree, parents first: silences unseen text, returns what to drop."""
    drops: list[Any] = []
    budget = MATCH_BUDGET
    stack = [(cssselect2.ElementWrapper.from_html_root(root), _Inherited(custom={}))]
    while stack:
        wrapper, inherited = stack.pop()
        element, is_root, state = wrapper.etree_element, wrapper.parent is None, inherited
        tag, hidden = element.tag.lower(), element.get("hidden", "until-found").strip().lower()
        closed = tag == "dialog" and element.get("open") is None
        if tag in _NEVER_SHOWN or hidden != "until-found" or closed:
            drops.append(element)
            continue
        if matcher is not None:
            budget -= _cost(matcher, wrapper)
            matcher = matcher if budget >= 0 else None
        with contextlib.suppress(Exception):  # a value this module cannot read: as the parent
            declared, custom = _declared(wrapper, matcher, inherited.custom)
            if declared or custom is not inherited.custom or is_root:
                dropped, state = _apply(declared, inherited, custom, is_root)
                if dropped:
                    drops.append(element)
                    continue
        if state.silent:  # the element's own text, and the text after each of its children
            element.text = None
            for child in element:
                child.tail = None
        stack.extend((child, state) for child in reversed(list(wrapper.iter_children())))
    return drops


def _cost(matcher: cssselect2.Matcher, wrapper: Any) -> int:
    buckets = [matcher.id_selectors.get(wrapper.id, ())]
    buckets += [matcher.lower_local_name_selectors.get(wrapper.local_name.lower(), ())]
    buckets += [matcher.class_selectors.get(name, ()) for name in wrapper.classes]
    return len(matcher.other_selectors) + sum(map(len, buckets))


def _declared(wrapper: Any, matcher: Any, inherited_custom: Any) -> tuple[dict[str, str], Any]:
    """The cascaded values of the tracked properties, and the custom properties in force."""
    entries: list[tuple[tuple[Any, ...], str, str]] = []
    for specificity, order, pseudo, rule in matcher.match(wrapper) if matcher else ():
        for index, (name, value, important) in enumerate(rule if pseudo is None else ()):
            entries.append(((important, 0, specificity, order, index), name, value))
    inline = wrapper.etree_element.get("style")
    parsed = _declarations(tinycss2.parse_blocks_contents(inline)) if inline else ()
    for index, (name, value, important) in enumerate(parsed):
        entries.append(((important, 1, (0, 0, 0), 0, index), name, value))
    entries.sort(key=lambda entry: entry[0])
    custom = {name: value for _, name, value in entries if name.startswith("--")}
    custom = {**inherited_custom, **custom} if custom else inherited_custom
    declared: dict[str, str] = {}
    for _, name, value in entries:
        for _ in range(4 if "var(" in value else 0):  # var(--name, fallback), nested up to 4
            value = _VAR.sub(lambda match: custom.get(match.group(1), match.group(2) or ""), value)
        declared.update(_expand(name, value) if not name.startswith("--") else ())
    return declared, custom


@functools.lru_cache(maxsize=4096)
def _tokens(value: str) -> tuple[Any, ...]:  # the significant component values, no commas
    return tuple(
        token
        for token in tinycss2.parse_component_value_list(value)
        if token.type not in ("whitespace", "comment")
        and not (token.type == "literal" and token.value == ",")
    )


def _expand(name: str, value: str) -> list[tuple[str, str]]:
    """Shorthands as the longhands this module reads."""
    tokens = _tokens(value)
    if name == "font" and value not in ("inherit", "initial", "unset"):
        sizes = [w for w in value.split("/")[0].split() if _FONT_SIZE.fullmatch(w)]
        return [("font-size", sizes[0] if sizes else "medium")]
    if name == "background":
        colors = ["transparent"] + [t.serialize() for t in tokens if _color(t.serialize())]
        image = any(t.type == "url" or _IMAGE.match(getattr(t, "lower_name", "")) for t in tokens)
        return [("background-color", colors[-1]), ("background-image", "url" if image else "none")]
    if name in ("margin", "padding", "inset"):
        parts = [token.serialize() for token in tokens][:4] or [""]
        parts = [*parts, parts[1]] if len(parts) == 3 else (parts * 4)[:4]
        prefix = "" if name == "inset" else name + "-"
        return [(prefix + side, part) for side, part in zip(_SIDES, parts, strict=True)]
    if name == "overflow":
        parts = value.split() or [""]
        return [("overflow-x", parts[0]), ("overflow-y", parts[-1])]
    return [("font-size" if name == "font" else name, value)]


def _length(value: str | None, font_px: float = 16.0, root_px: float = 16.0) -> float | None:
    """A CSS length in px, or None (percentages, `auto`, calc()...)."""
    tokens = _tokens(value) if value else ()
    token = tokens[0] if len(tokens) == 1 else None
    if token is None or token.type not in ("number", "dimension"):
        return None
    if token.type == "number":
        return 0.0 if token.value == 0 else None
    relative = {"em": font_px, "rem": root_px, "ex": font_px / 2, "ch": font_px / 2}
    scale = relative.get(token.lower_unit, _UNITS.get(token.lower_unit))
    return None if scale is None else float(token.value) * scale


@functools.lru_cache(maxsize=1024)
def _color(value: str) -> RGBA | str | None:
    """RGBA in 0..1, "currentcolor", or None if unreadable."""
    parsed = tinycss2.color4.parse_color(value)
    if parsed is None or isinstance(parsed, str):
        return parsed
    with contextlib.suppress(Exception):  # other spaces taken as RGB (display-p3...)
        coordinates = parsed.coordinates
        if parsed.space in ("lab", "lch", "oklab", "oklch"):  # a grey of the same lightness
            coordinates = [coordinates[0] / (1 if parsed.space.startswith("ok") else 100)] * 3
        elif parsed.space in ("hsl", "hwb"):
            coordinates = parsed.to("srgb").coordinates
        red, green, blue = (min(1.0, max(0.0, float(c))) for c in coordinates)
        return (red, green, blue, float(parsed.alpha))
    return None


def _colour(value: str | None, inherited: RGBA, current: RGBA | None = None) -> RGBA:
    parsed = _color(value) if value else None
    current = current if parsed == "currentcolor" else None
    return parsed if isinstance(parsed, tuple) else current or inherited


def _over(color: RGBA, background: RGB) -> RGB:
    a = color[3]
    red, green, blue = (c * a + b * (1 - a) for c, b in zip(color[:3], background, strict=True))
    return (red, green, blue)


def _apply(
    declared: dict[str, str], parent: _Inherited, custom: Any, is_root: bool
) -> tuple[bool, _Inherited]:
    """(drop the element?, what it and its children inherit; `silent` is for its own text)"""
    get = declared.get
    font_px = _font_px(get("font-size"), parent)
    root_px = font_px if is_root else parent.root_px

    def px(name: str) -> float | None:
        return _length(get(name), font_px, root_px)

    if _hides_box(declared, px):
        return True, parent
    color, fill, background = _colour(get("color"), parent.color), parent.fill, parent.background
    if get("-webkit-text-fill-color") is not None:  # currentcolor: back to `color`
        fill = _colour(get("-webkit-text-fill-color"), (0.0, 0.0, 0.0, -1.0))
        fill = None if fill[3] < 0 else fill
    own = _colour(get("background-color"), (0.0, 0.0, 0.0, 0.0), color)
    if get("background-image") not in (None, "none", "initial", "unset", "inherit"):
        background = None  # an image: the colour under the text is unknown
    elif own[3] >= 1 or (own[3] > 0 and background is not None):
        background = _over(own, background or (0.0, 0.0, 0.0))
    seen_as = get("visibility")
    invisible = seen_as in ("hidden", "collapse") or (parent.invisible and seen_as != "visible")
    indent, indent_tokens = px("text-indent"), _tokens(get("text-indent") or "")
    if len(indent_tokens) == 1 and indent_tokens[0].type == "percentage":
        indent = _FAR if indent_tokens[0].value <= -100 else 0.0
    indent = parent.indent_px if indent is None else indent
    ink = fill if fill is not None else color
    unseen_ink = ink[3] <= _MAX_OPACITY
    if background is not None:
        seen = zip(_over(ink, background), background, strict=True)
        unseen_ink = all(abs(a - b) <= _SAME_CHANNEL for a, b in seen)
    silent = invisible or font_px < _MIN_FONT_PX or indent <= _FAR or unseen_ink
    state = _Inherited(color, fill, background, font_px, root_px, invisible, indent, custom, silent)
    return False, state


def _font_px(value: str | None, parent: _Inherited) -> float:
    tokens, size = _tokens(value or ""), _length(value, parent.font_px, parent.root_px)
    keyword = tokens[0].lower_value if len(tokens) == 1 and tokens[0].type == "ident" else ""
    relative = {"smaller": parent.font_px / 1.2, "larger": parent.font_px * 1.2}
    size = _FONT_KEYWORDS.get(keyword, relative.get(keyword, size))
    if len(tokens) == 1 and tokens[0].type == "percentage":
        size = parent.font_px * float(tokens[0].value) / 100
    return parent.font_px if size is None else size


def _hides_box(declared: dict[str, str], px: Callable[[str], float | None]) -> bool:
    get = declared.get
    if (get("display") or "").split()[:1] == ["none"] or get("content-visibility") == "hidden":
        return True
    opacity = _number(_tokens(get("opacity") or "1"))
    sides = ["margin-left", "margin-top"]
    if get("position") in ("absolute", "fixed", "relative"):
        sides += ["left", "top", "right"] + (["bottom"] if get("position") == "fixed" else [])
    far = any(_at_most(px(side), _FAR) for side in sides)
    shapes = [get(name) for name in ("transform", "translate", "scale", "clip", "clip-path")]
    if (opacity is not None and opacity <= _MAX_OPACITY) or far or _shape_hides(*shapes):
        return True

    def flat(size: str, max_size: str, padding: tuple[str, str]) -> bool:
        small = any(_at_most(px(name), 1.0) for name in (size, max_size))
        padded = any(get(pad) and not _at_most(px(pad), 1.0) for pad in padding)
        return small and not padded

    return bool({get("overflow-x"), get("overflow-y")} & {"hidden", "clip"}) and (
        flat("width", "max-width", ("padding-left", "padding-right"))
        or flat("height", "max-height", ("padding-top", "padding-bottom"))
    )


def _shape_hides(*values: str | None) -> bool:
    """Whether transform, translate, scale, clip or clip-path leave nothing to see."""
    transform, translate, scale, clip, clip_path = (value or "" for value in values)
    calls = [*_calls(f"{transform} {clip}"), ("translate", _tokens(translate))]
    calls += [("scale", _tokens(scale))] + [("clip-" + n, a) for n, a in _calls(clip_path)]
    for name, args in calls:
        lengths = [_length(arg.serialize()) for arg in args]
        numbers = [n for n in (_number((arg,)) for arg in args) if n is not None]
        edges = [n or 0.0 for n in lengths]
        scaled = name in ("scale", "scalex", "scaley", "scale3d") and numbers[:1] != []
        rect = name == "rect" and len(edges) == 4 and None not in lengths
        inset = name == "clip-inset" and args[:1] != () and args[0].type == "percentage"
        if (
            (name.startswith("translate") and any(n is not None and n <= _FAR for n in lengths))
            or (scaled and any(abs(n) <= _MAX_OPACITY for n in numbers[:2]))
            or (rect and (edges[2] - edges[0] <= 1 or edges[1] - edges[3] <= 1))
            or (inset and numbers[0] >= 0.5)
            or (name == "clip-circle" and lengths[:1] == [0.0])
        ):
            return True
    return False


def _at_most(length: float | None, limit: float) -> bool:
    return length is not None and length <= limit


def _number(tokens: tuple[Any, ...]) -> float | None:  # a percentage as a fraction
    if len(tokens) != 1 or tokens[0].type not in ("number", "percentage"):
        return None
    return float(tokens[0].value) / (100 if tokens[0].type == "percentage" else 1)


def _calls(value: str) -> list[tuple[str, tuple[Any, ...]]]:
    functions = [token for token in _tokens(value) if token.type == "function"]
    return [(f.lower_name, _tokens(tinycss2.serialize(f.arguments))) for f in functions]
