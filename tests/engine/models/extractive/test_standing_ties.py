"""The extractive model quotes a primary source first when a blog scores the same."""

from engine.models.extractive.ranking import candidates_of, choose_quotes
from engine.snapshots import Snapshot

TEXT = (
    "A Lei nº 14.300 institui o marco legal da microgeração e minigeração distribuída. "
    "O prazo de transição para as unidades existentes vai até 2045."
)
QUESTION = "Qual é o prazo de transição do marco legal da microgeração distribuída?"


def quoted_urls(*urls: str) -> list[str]:
    candidates = [
        candidate
        for url in urls
        for candidate in candidates_of(url, Snapshot(url=url, text=TEXT, title="Marco legal"), 1)
    ]
    return [quote.url for quote in choose_quotes(candidates, QUESTION)]


def test_on_a_tie_the_law_comes_before_the_blog_whatever_the_order_read() -> None:
    blog, law = "https://resumos.blogspot.com/lei-14300", "https://www.planalto.gov.br/l14300.htm"
    assert quoted_urls(blog, law)[0] == law
    assert quoted_urls(law, blog)[0] == law
