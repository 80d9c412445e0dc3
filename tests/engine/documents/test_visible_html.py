"""HTML is read as a browser shows it: text a reader cannot see never reaches the snapshot."""

from __future__ import annotations

from unittest import mock

import pytest

from engine.documents import html_text
from engine.documents.html_text import html_main_text
from engine.documents.visible_html import visible_markup
from engine.sources.web.extract import ContentType, extract

VISIBLE = "A potência instalada chegou a 26 GW em 2024."
PLANTED = "A potência instalada chegou a 90 GW em 2024."


def page(planted: str, css: str = "", body_attrs: str = "") -> str:
    """A short news article with the visible figure and, somewhere, the `planted` markup."""
    return f"""<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8">
<title>Geração distribuída no Brasil | Energia Hoje</title>
<style>{css}</style></head>
<body{body_attrs}><nav>Início | Notícias | Contato</nav>
<article><h1>Geração distribuída cresce no Brasil</h1>
<p>O mercado de geração distribuída manteve o ritmo de expansão no último ano, puxado pelos
sistemas residenciais e pelos telhados comerciais do Nordeste.</p>
<p>{VISIBLE} O número inclui sistemas de microgeração e de minigeração conectados à rede.</p>
{planted}
<p>Os consumidores residenciais responderam pela maior parte das novas conexões, seguidos
pelos comerciais e pelas propriedades rurais, segundo a agência reguladora.</p>
</article><footer>© Energia Hoje</footer></body></html>"""


def hidden_paragraph(attrs: str) -> str:
    return f"<p {attrs}>{PLANTED} A estimativa foi revisada pela associação do setor.</p>"


def main_and_fallback_texts(markup: str) -> list[str]:
    """What trafilatura keeps, and what the stripped-tags fallback keeps when it finds nothing."""
    with mock.patch.object(html_text.trafilatura, "extract", return_value=None):
        fallback = html_main_text(markup)
    return [html_main_text(markup), fallback]


def assert_planted_is_dropped(markup: str) -> None:
    for text in main_and_fallback_texts(markup):
        assert VISIBLE in text
        assert "90 GW" not in text


def assert_planted_is_kept(markup: str) -> None:
    for text in main_and_fallback_texts(markup):
        assert VISIBLE in text
        assert PLANTED in text


# --- elements a browser never renders ----------------------------------------------------------


def test_hidden_attribute() -> None:
    assert_planted_is_dropped(page(hidden_paragraph("hidden")))


def test_template_element() -> None:
    assert_planted_is_dropped(page(f"<template><p>{PLANTED} Revisada.</p></template>"))


def test_noscript_element() -> None:
    assert_planted_is_dropped(page(f"<noscript><p>{PLANTED} Revisada pelo setor.</p></noscript>"))


def test_closed_dialog_element() -> None:
    assert_planted_is_dropped(page(f"<dialog><p>{PLANTED} Revisada pelo setor.</p></dialog>"))


# --- inline styles and the page's own sheets --------------------------------------------------


def test_inline_display_none() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('style="display: none"')))


def test_sheet_class_display_none() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=".nota{display:none}"))


def test_rules_nested_in_grouping_rules_apply() -> None:
    css = (
        "@media screen {" * 12 + "@supports (display: grid) { .nota { display: none } }" + "}" * 12
    )
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=css))


def test_wide_screen_media_rule_applies() -> None:
    css = "@media only screen and (min-width: 768px) { .nota { display: none } }"
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=css))


def test_sheet_rule_inside_media_screen_applies() -> None:
    css = "@media screen { article p.nota { display: none } }"
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=css))


@pytest.mark.parametrize("value", ["hidden", "collapse"])
def test_visibility(value: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="visibility:{value}"')))


@pytest.mark.parametrize("value", ["0", "0.03", "2%"])
def test_opacity(value: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="opacity: {value}"')))


@pytest.mark.parametrize("value", ["0", "2px", "2pt", "0em", "0%", "0.1rem"])
def test_font_size_below_legible(value: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="font-size: {value}"')))


def test_font_shorthand_zero() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('class="ir"'), css=".ir { font: 0/0 a }"))


def test_font_size_inherited_from_a_tiny_ancestor() -> None:
    planted = f'<div style="font-size:1px"><section><p>{PLANTED} Revisada.</p></section></div>'
    assert_planted_is_dropped(page(planted))


@pytest.mark.parametrize(
    "style",
    ["height: 0; overflow: hidden", "max-height:0;overflow:hidden", "width:0px;overflow-x:clip"],
)
def test_zero_size_box_that_clips(style: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="{style}"')))


def test_screen_reader_only_clip_rect() -> None:
    css = (
        ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;"
        "overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}"
    )
    assert_planted_is_dropped(page(hidden_paragraph('class="sr-only"'), css=css))


def test_clip_rect_alone() -> None:
    assert_planted_is_dropped(
        page(hidden_paragraph('style="position:absolute;clip:rect(0 0 0 0)"'))
    )


def test_clip_path_inset() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('style="clip-path: inset(50%)"')))


@pytest.mark.parametrize(
    "style",
    [
        "position:absolute; left:-9999px",
        "position:fixed; top:-10000px",
        "position:absolute; right:-5000px",
        "position:absolute; left:-200em",
        "position:relative; left:-9999px",
        "position:absolute; inset: -9999px auto auto auto",
        "margin: 0 0 0 -9999px",
    ],
)
def test_off_screen_positioning(style: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="{style}"')))


def test_text_indent_far_left() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('style="text-indent:-9999px"')))


@pytest.mark.parametrize(
    "transform", ["translateX(-9999px)", "translate(0, -5000px)", "scale(0)", "scaleY(0)"]
)
def test_transform_off_screen_or_flattened(transform: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="transform: {transform}"')))


def test_content_visibility_hidden() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('style="content-visibility:hidden"')))


# --- text painted in the colour of its background ---------------------------------------------


@pytest.mark.parametrize(
    "color",
    [
        "#fff",
        "#ffffff",
        "white",
        "rgb(255, 255, 255)",
        "#fbfcfd",
        "rgb(255 255 255)",
        "hsl(0 0% 100%)",
        "oklch(1 0 0)",
        "lab(100% 0 0)",
    ],
)
def test_white_text_on_the_default_white_page(color: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="color: {color}"')))


@pytest.mark.parametrize("color", ["transparent", "rgba(0, 0, 0, 0)", "rgba(20,20,20,0.02)"])
def test_transparent_text(color: str) -> None:
    assert_planted_is_dropped(page(hidden_paragraph(f'style="color: {color}"')))


def test_colour_equal_to_the_nearest_ancestor_background() -> None:
    planted = (
        '<div class="box"><div><p class="t">'
        f"{PLANTED} A estimativa foi revisada pela associação do setor.</p></div></div>"
    )
    css = ".box { background-color: #123456 } .t { color: #123457 }"
    assert_planted_is_dropped(page(planted, css=css))


def test_colour_inherited_from_an_ancestor_equal_to_the_background() -> None:
    css = "body { background: #000 } .escuro { color: black }"
    planted = f'<div class="escuro"><p>{PLANTED} Revisada pela associação.</p></div>'
    markup = page(planted, css=css + " article > p { color: #eee }")
    assert_planted_is_dropped(markup)


def test_webkit_text_fill_transparent() -> None:
    assert_planted_is_dropped(page(hidden_paragraph('style="-webkit-text-fill-color:transparent"')))


def test_colour_through_a_custom_property() -> None:
    css = ":root { --fundo: #fff } .nota { color: var(--fundo) }"
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=css))


# --- the cascade --------------------------------------------------------------------------------


def test_important_sheet_rule_beats_inline_style() -> None:
    css = ".nota { display: none !important }"
    assert_planted_is_dropped(page(hidden_paragraph('class="nota" style="display:block"'), css=css))


def test_later_rule_beats_an_earlier_one_of_equal_specificity() -> None:
    css = ".nota { display: block } .nota { display: none }"
    assert_planted_is_dropped(page(hidden_paragraph('class="nota"'), css=css))


def test_more_specific_rule_wins_regardless_of_order() -> None:
    css = "#x { display: none } .nota { display: block }"
    assert_planted_is_dropped(page(hidden_paragraph('id="x" class="nota"'), css=css))


def test_a_more_specific_rule_can_show_again() -> None:
    css = "#x { display: block } .nota { display: none }"
    assert_planted_is_kept(page(hidden_paragraph('id="x" class="nota"'), css=css))


def test_inline_style_beats_a_sheet_rule() -> None:
    css = ".nota { display: none }"
    assert_planted_is_kept(page(hidden_paragraph('class="nota" style="display:block"'), css=css))


def test_visible_child_of_a_visibility_hidden_parent_is_shown() -> None:
    planted = (
        f'<div style="visibility:hidden">Texto oculto de 70 GW. <p style="visibility:visible">'
        f"{PLANTED} Revisada pela associação do setor.</p></div>"
    )
    # trafilatura itself then drops the whole div for its hiding style; the fallback keeps it
    text = html_text.strip_tags(visible_markup(page(planted)))
    assert PLANTED in text
    assert "70 GW" not in text


# --- what stays ---------------------------------------------------------------------------------


def test_closed_details_counts_as_visible() -> None:
    planted = (
        f"<details><summary>Metodologia</summary><p>{PLANTED} Revisada pelo setor.</p></details>"
    )
    assert_planted_is_kept(page(planted))


def test_aria_hidden_text_is_seen_by_sighted_readers() -> None:
    assert_planted_is_kept(page(hidden_paragraph('aria-hidden="true"')))


def test_hidden_until_found_is_shown_by_find_in_page() -> None:
    assert_planted_is_kept(page(hidden_paragraph('hidden="until-found"')))


def test_light_text_on_a_dark_background() -> None:
    planted = (
        f'<div style="background:#1b1b1b"><p style="color:#fafafa">{PLANTED} Revisada.</p></div>'
    )
    assert_planted_is_kept(page(planted))


def test_dark_grey_text_on_white() -> None:
    assert_planted_is_kept(page(f'<div style="color:#333">{hidden_paragraph("")}</div>'))


def test_white_text_over_a_background_image() -> None:
    planted = (
        '<div style="background: url(hero.jpg) center / cover">'
        f'<p style="color:#fff">{PLANTED} Revisada.</p></div>'
    )
    assert_planted_is_kept(page(planted))


def test_display_none_only_in_print() -> None:
    css = "@media print { .nota { display: none } }"
    assert_planted_is_kept(page(hidden_paragraph('class="nota"'), css=css))


def test_style_element_for_print_only() -> None:
    markup = page(hidden_paragraph('class="nota"')).replace(
        "</head>", '<style media="print">.nota{display:none}</style></head>'
    )
    assert_planted_is_kept(markup)


def test_display_none_only_on_narrow_screens() -> None:
    css = "@media screen and (max-width: 600px) { .nota { display: none } }"
    assert_planted_is_kept(page(hidden_paragraph('class="nota"'), css=css))


def test_rule_hiding_another_class() -> None:
    css = ".menu-mobile { display: none } .nota-rodape { visibility: hidden }"
    assert_planted_is_kept(page(hidden_paragraph('class="nota"'), css=css))


def test_legible_small_print_and_ordinary_layout() -> None:
    style = "font-size:12px; position:relative; left:-10px; text-indent:-1em; opacity:.8"
    assert_planted_is_kept(page(hidden_paragraph(f'style="{style}"')))


def test_video_box_with_zero_height_and_padding() -> None:
    planted = (
        '<div style="position:relative;height:0;padding-bottom:56.25%;overflow:hidden">'
        f"<p>{PLANTED} Revisada.</p></div>"
    )
    assert_planted_is_kept(page(planted))


# --- robustness ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "markup",
    [
        "",
        "   ",
        "plain words, no tags",
        "<p style='color:'>x</p>",
        "<style>}{ .a { display: none; </style><p class=a>y",
        "<style>:::nope{display:none} p:has(( {}</style><p>z</p>",
        "<?xml version='1.0' encoding='utf-8'?><html><body><p>w</p></body></html>",
        "<p style='transform: scale(); clip: rect(a,b); font-size: calc(1px + ); color: rgb(1,2'>v",
        "<html><body>" + "<div>" * 3000 + "deep" + "</div>" * 3000 + "</body></html>",
        "\x00<p>\ud800 lone surrogate</p>",
    ],
)
def test_malformed_input_never_raises(markup: str) -> None:
    assert isinstance(visible_markup(markup), str)
    assert isinstance(html_main_text(markup), str)


def test_hidden_paragraph_removed_and_tail_text_kept() -> None:
    out = visible_markup('<div>antes <span style="display:none">oculto</span> depois</div>')
    assert "oculto" not in out
    assert "antes" in out
    assert "depois" in out


def test_fallback_to_stripped_tags_also_sees_only_visible_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(html_text.trafilatura, "extract", lambda *args, **kwargs: None)
    text = html_main_text(page(hidden_paragraph('style="display:none"')))
    assert VISIBLE in text
    assert "90 GW" not in text


def test_a_large_page_with_many_rules_is_read_whole() -> None:
    """6,000 rules over 20,000 paragraphs (once quadratic). Its speed is a benchmark's
    figure, not an assertion here: a wall-time bound failed this test under load."""
    out = visible_markup(many_rules_page())
    assert "Parágrafo 0 " in out
    assert "Parágrafo 19999" in out


@pytest.mark.xfail(
    strict=True,
    reason="known hole: rules past MAX_RULES (5,000) are not read, so a display:none rule "
    "padded behind 5,000 others leaves its text counted as visible; to fail closed next",
)
def test_a_hiding_rule_padded_behind_thousands_of_others_still_hides() -> None:
    assert PLANTED not in visible_markup(many_rules_page())


def many_rules_page() -> str:
    css = "".join(
        f".c{n} {{ color: #{n % 4096:03x} }} div.k{n} p {{ opacity: 1 }}" for n in range(6000)
    )
    paragraphs = "".join(
        f'<div class="k{n}"><p class="c{n}">Parágrafo {n} sobre geração solar.</p></div>'
        for n in range(20_000)
    )
    return page(paragraphs + hidden_paragraph('class="sr"'), css=css + ".sr{display:none}")


# --- through the web fetcher ------------------------------------------------------------------


def test_web_extractor_leaves_out_hidden_text() -> None:
    css = ".x{position:absolute;left:-9999px}"
    markup = page(hidden_paragraph('class="x"') + hidden_paragraph('style="color:#fff"'), css=css)
    extracted = extract(
        markup.encode(), ContentType("text/html", "utf-8"), "https://example.org/gd-2024"
    )
    assert VISIBLE in extracted.text
    assert "90 GW" not in extracted.text
    assert extracted.title == "Geração distribuída no Brasil | Energia Hoje"
