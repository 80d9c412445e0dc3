from engine.models.offline_research import candidates_of, choose_quotes
from engine.snapshots import Snapshot

STATUTE = """#Atenção #STJ regras de transição do faturamento das componentes tarifárias: cai na prova.
Art. 27. O faturamento da energia das unidades participantes observará as seguintes regras de transição das componentes tarifárias:
I - 15% (quinze por cento) a partir de 2023;
II - 30% (trinta por cento) a partir de 2024;
Art. 28. A Aneel regulamentará esta Lei e publicará os procedimentos aplicáveis.
"""


def quotes(question: str) -> list[str]:
    snapshot = Snapshot(url="https://example.org/lei", text=STATUTE, title="Lei 14.300")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    return [q.excerpt for q in choose_quotes(candidates, question)]


def test_a_list_item_is_judged_with_its_articles_opening() -> None:
    found = quotes("Quanto é o faturamento das componentes tarifárias na regra de transição?")
    assert any(e.startswith("I - 15%") for e in found)


def test_study_notes_rank_below_the_statutes_words() -> None:
    found = quotes("regras de transição do faturamento das componentes tarifárias")
    assert found[0].startswith("Art. 27.")
    assert not found[0].startswith("#")


def test_nothing_is_quoted_when_nothing_covers_the_question() -> None:
    assert quotes("Qual é o preço médio do café arábica exportado?") == []


def test_every_quote_is_an_exact_substring_of_the_page() -> None:
    assert all(e in STATUTE for e in quotes("regras de transição das componentes tarifárias"))


def test_a_template_section_quotes_only_units_about_its_aspect() -> None:
    page = (
        "A energia solar residencial no Nordeste é regulada como microgeração distribuída.\n"
        "O mercado de energia solar residencial no Nordeste teve crescimento de 40% em 2023.\n"
    )
    snapshot = Snapshot(url="https://example.org/solar", text=page, title="Solar")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    aspect = "Tamanho e crescimento do mercado"
    question = f"{aspect}: mercado de energia solar residencial no Nordeste"
    found = [q.excerpt for q in choose_quotes(candidates, question, aspect)]
    assert found == [
        "O mercado de energia solar residencial no Nordeste teve crescimento de 40% em 2023."
    ]
    assert len(choose_quotes(candidates, question)) == 2  # without the aspect rule, both
