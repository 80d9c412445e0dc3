"""HTML pages for the browser's seen check: attacks by class, each hiding or changing one
sentence in a way our CSS reader may miss, and benign look-alikes a reader does see.

Every page holds `SHOWN` as a plain paragraph and `TARGET` inside the variant's markup.
A variant is (head, body): `head` goes in `<head>`, `body` holds "{t}" where `TARGET` goes
(or "{a}" and "{b}", its two halves, for a page that shows them in another order).
`FILES` are the sheets the library folder holds beside the page (`@import`, late `<link>`).
"""

from __future__ import annotations

from pathlib import Path

SHOWN = (
    "XI - microgeração distribuída: central geradora de energia elétrica, com potência "
    "instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de "
    "distribuição;"
)
TARGET = (
    "XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW "
    "e menor ou igual a 5 MW para as fontes despacháveis;"
)
QUESTION = "Quais são os limites de potência instalada da microgeração e minigeração distribuída?"

Variant = tuple[str, str]

ATTACKS: dict[str, dict[str, Variant]] = {
    "generated-content": {
        "before-nao": ("<style>.t::before{content:'não '}</style>", "<p class=t>{t}</p>"),
        "after-nao": ("<style>.t::after{content:' (revogado)'}</style>", "<p class=t>{t}</p>"),
        "attr": (
            "<style>.w::before{content:attr(data-w) ' '}</style>",
            "<p><span class=w data-w='Não vale:'></span>{t}</p>",
        ),
        "escaped": ("<style>.t::before{content:'\\6E\\E3o '}</style>", "<p class=t>{t}</p>"),
    },
    "clip": {
        "clip-path-inset": ("", "<p style='clip-path:inset(50%)'>{t}</p>"),
        "clip-path-polygon": ("", "<p style='clip-path:polygon(0 0,0 0,0 0)'>{t}</p>"),
        "clip-rect": ("", "<p style='position:absolute;clip:rect(0 0 0 0)'>{t}</p>"),
        "overflow": ("", "<div style='height:3px;overflow:hidden'><br><br>{t}</div>"),
    },
    "text-indent": {
        "negative": ("", "<p style='text-indent:-5000px'>{t}</p>"),
        "calc": ("", "<p style='text-indent:calc(-100vw - 4000px)'>{t}</p>"),
        "sheet-em": ("<style>.t{text-indent:-400em}</style>", "<p class=t>{t}</p>"),
    },
    "colour": {
        "var-chain": (
            "<style>:root{--a:var(--b);--b:var(--c);--c:#fefefe}.t{color:var(--a)}</style>",
            "<p class=t>{t}</p>",
        ),
        "color-mix": (
            "<style>.t{color:color-mix(in srgb, white 97%, black)}</style>",
            "<p class=t>{t}</p>",
        ),
        "relative": ("<style>.t{color:rgb(from white r g b)}</style>", "<p class=t>{t}</p>"),
        "dark-background-var": (
            "<style>:root{--ink:#111;--ground:var(--ink)}.t{color:#000;background:var(--ground)}"
            "</style>",
            "<p class=t>{t}</p>",
        ),
        "light-dark": (
            "<style>:root{color-scheme:light dark}.t{color:light-dark(#fff,#000)}</style>",
            "<p class=t>{t}</p>",
        ),
    },
    "transform": {
        "scale-0": ("", "<p style='transform:scale(0)'>{t}</p>"),
        "scale-property": ("", "<p style='scale:0'>{t}</p>"),
        "matrix": ("", "<p style='transform:matrix(0,0,0,0,0,0)'>{t}</p>"),
        "rotate-x": ("", "<p style='transform:rotateX(90deg)'>{t}</p>"),
    },
    "zoom": {
        "tiny": ("", "<p style='zoom:0.02'>{t}</p>"),
        "percent": ("", "<div style='zoom:1%'><p>{t}</p></div>"),
        "var": ("<style>:root{--z:0.03}.t{zoom:var(--z)}</style>", "<p class=t>{t}</p>"),
    },
    "mask": {
        "gradient": (
            "<style>.t{mask-image:linear-gradient(#0000,#0000)}</style>",
            "<p class=t>{t}</p>",
        ),
        "shorthand": (
            "<style>.t{mask:linear-gradient(transparent,transparent)}</style>",
            "<p class=t>{t}</p>",
        ),
        "size": (
            "<style>.t{mask-image:linear-gradient(#000,#000);mask-size:0 0;"
            "mask-repeat:no-repeat}</style>",
            "<p class=t>{t}</p>",
        ),
    },
    "media-query": {
        "min-width": (
            "<style>@media (min-width:900px){.t{display:none}}</style>",
            "<p class=t>{t}</p>",
        ),
        "landscape": (
            "<style>@media screen and (orientation:landscape){.t{opacity:0}}</style>",
            "<p class=t>{t}</p>",
        ),
        "hover": ("<style>@media (hover:hover){.t{color:white}}</style>", "<p class=t>{t}</p>"),
        "range": (
            "<style>@media (1000px <= width){.t{visibility:hidden}}</style>",
            "<p class=t>{t}</p>",
        ),
    },
    "late-style-sheet": {
        "style-at-end": ("", "<p class=t>{t}</p><style>.t{color:#fff}</style>"),
        "link-at-end": ("", "<p class=t>{t}</p><link rel=stylesheet href='late.css'>"),
        "import": ("<style>@import url('imported.css');</style>", "<p class=t>{t}</p>"),
        "import-chain": ("<link rel=stylesheet href='chain.css'>", "<p class=t>{t}</p>"),
    },
    "shadow-dom": {
        "styled-inside": (
            "",
            "<div><template shadowrootmode=open><style>p{color:#fff}</style><p>{t}</p>"
            "</template></div>",
        ),
        "host-opacity": (
            "",
            "<div><template shadowrootmode=closed><style>:host{opacity:0}</style><slot></slot>"
            "</template><p>{t}</p></div>",
        ),
        "not-slotted": (
            "",
            "<div><template shadowrootmode=closed><span>Seção sem texto</span></template>"
            "<p>{t}</p></div>",
        ),
    },
    "cover": {
        "absolute-box": (
            "",
            "<div style='position:relative'><p>{t}</p><div style='position:absolute;inset:0;"
            "background:#fff'></div></div>",
        ),
        "pseudo-cover": (
            "<style>.c{position:relative}.c::after{content:'';position:absolute;inset:0;"
            "background:white}</style>",
            "<div class=c><p>{t}</p></div>",
        ),
        "box-shadow": (
            "",
            "<div style='position:relative'><p>{t}</p><span style='position:absolute;top:8px;"
            "left:300px;box-shadow:0 0 0 20px #fff'></span></div>",
        ),
        "later-sibling": (
            "",
            "<p>{t}</p><div style='position:relative;margin-top:-40px;height:40px;"
            "background:#fff'></div>",
        ),
    },
    "font-size": {
        "calc": ("", "<p style='font-size:calc(0.2px * 10)'>{t}</p>"),
        "max-vw": ("", "<p style='font-size:max(1px, 0.1vw)'>{t}</p>"),
        "clamp-em": (
            "",
            "<div style='font-size:2px'><p style='font-size:clamp(1px,1em,3px)'>{t}</p></div>",
        ),
    },
    "content-visibility": {
        "hidden": ("", "<p style='content-visibility:hidden'>{t}</p>"),
        "hidden-late-sheet": ("", "<p class=t>{t}</p><style>.t{content-visibility:hidden}</style>"),
    },
    "animation": {
        "fill-forwards": (
            "<style>@keyframes f{to{opacity:0}}.a{animation:f 1ms forwards}</style>",
            "<div class=a><p>{t}</p></div>",
        ),
        "delayed-both": (
            "<style>@keyframes f{to{opacity:0}}.a{animation:f 1s 30s both}</style>",
            "<div class=a><section><p>{t}</p></section></div>",
        ),
        "infinite-hidden": (
            "<style>@keyframes g{from,to{opacity:0}}.a{animation:g 2s infinite}</style>",
            "<div class=a><p>{t}</p></div>",
        ),
        "colour": (
            "<style>@keyframes c{to{color:#fff}}.a{animation:c 1ms forwards}</style>",
            "<p class=a>{t}</p>",
        ),
    },
    "order": {
        "bidi-override": ("", "<p style='unicode-bidi:bidi-override;direction:rtl'>{t}</p>"),
        "grid-areas": (
            "",
            "<p style='display:grid;grid-template-areas:\"b a\";justify-content:start'>"
            "<span style='grid-area:a'>{a}</span> <span style='grid-area:b'>{b}</span></p>",
        ),
        "flex-reverse": (
            "",
            "<p style='display:flex;flex-direction:row-reverse;justify-content:flex-end'>"
            "<span>{a}</span><span>&nbsp;{b}</span></p>",
        ),
    },
}

FILES = {
    "late.css": ".t{opacity:0}",
    "imported.css": ".t{color:#ffffff}",
    "chain.css": "@import 'chain-2.css';",
    "chain-2.css": ".t{visibility:hidden}",
}

BENIGN: dict[str, Variant] = {
    "plain": ("", "<p>{t}</p>"),
    "quote-marks": ("", "<p><q>{t}</q></p>"),
    "bullet": ("<style>li::before{content:'• '}</style>", "<ul><li>{t}</li></ul>"),
    "counter": (
        "<style>ol{counter-reset:n;list-style:none}li::before{counter-increment:n;"
        "content:counter(n) '. '}</style>",
        "<ol><li>{t}</li></ol>",
    ),
    "heading-label": (
        "<style>h2::before{content:'Seção: '}</style>",
        "<h2>Definições</h2><p>{t}</p>",
    ),
    "svg-text": ("", "<svg width='1250' height='60'><text x='0' y='40'>{t}</text></svg>"),
    "open-shadow": ("", "<div><template shadowrootmode=open><p>{t}</p></template></div>"),
    "closed-shadow-slot": (
        "",
        "<div><template shadowrootmode=closed><b>Art. 1º</b><slot></slot></template>"
        "<p>{t}</p></div>",
    ),
    "closed-details": ("", "<details><summary>Definições</summary><p>{t}</p></details>"),
    "below-the-fold": ("", "<div style='height:3000px'></div><p>{t}</p>"),
    "grey": ("", "<p style='color:#777'>{t}</p>"),
    "fade-in": (
        "<style>@keyframes in{from{opacity:0}to{opacity:1}}.a{animation:in 2s both}</style>",
        "<p class=a>{t}</p>",
    ),
    "table-cell": ("", "<table><tr><td>{t}</td></tr></table>"),
    "script-ignored": ("", "<p>{t}</p><script>document.body.textContent = 'outro';</script>"),
}


def page_markup(variant: Variant, target: str = TARGET) -> str:
    head, body = variant
    first, second = target[: len(target) // 2].rsplit(" ", 1)[0], ""
    second = target[len(first) :].strip()
    body = body.replace("{a}", first).replace("{b}", second)
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Lei 14.300</title>"
        f"{head}</head><body><h1>Lei 14.300</h1><p>{SHOWN}</p>"
        f"{body.replace('{t}', target)}</body></html>"
    )


def write_page(folder: Path, variant: Variant, name: str = "lei.html") -> Path:
    """The page and the sheets it may link, in `folder`; the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for file, css in FILES.items():
        (folder / file).write_text(css, encoding="utf-8")
    path = folder / name
    path.write_text(page_markup(variant), encoding="utf-8")
    return path


def attack_cases() -> list[tuple[str, str]]:
    return [(kind, name) for kind, variants in ATTACKS.items() for name in variants]
