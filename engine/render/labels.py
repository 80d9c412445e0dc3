"""The few words a rendered report shows around its content, in Portuguese and English."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from engine.contracts import Language, Report


@dataclass(frozen=True)
class Labels:
    partial_report: str
    partial_explanation: str
    gaps: str
    declared_gaps: str
    sources: str
    no_sources: str
    accessed_on: str
    page: str
    excerpt: str
    not_verified: str
    rejected_claims: str
    no_reason: str
    dropped_sentences: str
    spend_and_limits: str
    steps: str
    time: str
    cost: str
    of: str
    model: str
    architecture: str
    created_at: str
    notes: str
    decimal_separator: str
    page_crop: str
    see_on_page: str
    conflicts: str
    conflicts_explanation: str
    file_not_made: str
    """A note: one format of the report could not be rendered or written ({file}, {error})."""
    crops_left_out: str
    """A note: a format came out without its page crops, which broke it ({file}, {error})."""
    page_crops_failed: str
    """A note: the crops of the cited pages could not be made ({error})."""
    page_boxes_failed: str
    """A note: the excerpts' boxes on their pages could not be computed ({error})."""
    model_unreachable: str
    """The first gap and note of a run whose model could not be reached ({error})."""
    summary: str
    contents: str
    figures: str
    chart: str
    """The alt text of a figures table's chart ({title})."""
    calculated: str
    calculation_marker: str
    """The short mark of a calculated figure, linking to its calculation ({number})."""
    calculations: str
    calculations_explanation: str
    formula: str
    inputs: str
    calculation_kinds: dict[str, str]
    """The name of each `CalculationKind`."""
    appendix: str
    appendix_explanation: str


PORTUGUESE = Labels(
    partial_report="Relatório parcial",
    partial_explanation="A pesquisa parou antes de cobrir tudo o que o plano pedia.",
    gaps="Lacunas",
    declared_gaps="Lacunas declaradas",
    sources="Fontes",
    no_sources="Nenhuma fonte citada.",
    accessed_on="Acessado em",
    page="página",
    excerpt="Trecho",
    not_verified="não verificada",
    rejected_claims="Afirmações rejeitadas pelo verificador",
    no_reason="sem motivo registrado",
    dropped_sentences="Frases retiradas pela checagem do rascunho",
    spend_and_limits="Gasto e limites",
    steps="Passos",
    time="Tempo",
    cost="Custo",
    of="de",
    model="Modelo",
    architecture="Arquitetura",
    created_at="Criado em",
    notes="Notas",
    decimal_separator=",",
    page_crop="O trecho destacado na página",
    see_on_page="ver o trecho na página",
    conflicts="Divergências",
    conflicts_explanation=(
        "Estas fontes dão valores diferentes para a mesma grandeza; a mais recente vem primeiro."
    ),
    file_not_made="{file} não pôde ser gerado ({error})",
    crops_left_out="{file} saiu sem os recortes das páginas citadas, que o impediam de ser "
    "gerado ({error})",
    page_crops_failed="Os recortes das páginas citadas não puderam ser gerados ({error}); as "
    "citações mostram só o trecho",
    page_boxes_failed="As posições dos trechos nas páginas citadas não puderam ser calculadas "
    "({error})",
    model_unreachable="O modelo não pôde ser alcançado ({error}): este relatório parcial reúne "
    "só o que foi feito sem ele",
    summary="Resumo",
    contents="Sumário",
    figures="Números",
    chart="Gráfico: {title}",
    calculated="calculado",
    calculation_marker="cálc. {number}",
    calculations="Cálculos",
    calculations_explanation=(
        "Calculados em código a partir dos números verificados que citam; nenhum é citação "
        "de uma fonte."
    ),
    formula="Fórmula",
    inputs="Dados de entrada",
    calculation_kinds={
        "difference": "diferença",
        "percent_change": "variação percentual",
        "cagr": "taxa de crescimento anual composta",
        "margin": "margem",
        "ratio": "razão",
        "share": "participação",
        "sum": "soma",
    },
    appendix="Apêndice: como este relatório foi feito",
    appendix_explanation="Detalhes internos da execução, para quem quiser conferi-la.",
)

ENGLISH = Labels(
    partial_report="Partial report",
    partial_explanation="The research stopped before covering everything the plan asked for.",
    gaps="Gaps",
    declared_gaps="Declared gaps",
    sources="Sources",
    no_sources="No sources cited.",
    accessed_on="Accessed on",
    page="page",
    excerpt="Excerpt",
    not_verified="not verified",
    rejected_claims="Claims rejected by the verifier",
    no_reason="no reason recorded",
    dropped_sentences="Sentences dropped by the draft check",
    spend_and_limits="Spend and limits",
    steps="Steps",
    time="Time",
    cost="Cost",
    of="of",
    model="Model",
    architecture="Architecture",
    created_at="Created on",
    notes="Notes",
    decimal_separator=".",
    page_crop="The excerpt highlighted on its page",
    see_on_page="see the excerpt on its page",
    conflicts="Conflicts",
    conflicts_explanation=(
        "These sources give different values for the same quantity; the newer comes first."
    ),
    file_not_made="{file} could not be made ({error})",
    crops_left_out="{file} came out without the crops of the cited pages, which kept it from "
    "being made ({error})",
    page_crops_failed="The crops of the cited pages could not be made ({error}); citations "
    "show their excerpt only",
    page_boxes_failed="The excerpts' positions on the cited pages could not be computed ({error})",
    model_unreachable="The model could not be reached ({error}): this partial report holds only "
    "what was done without it",
    summary="Summary",
    contents="Contents",
    figures="Figures",
    chart="Chart: {title}",
    calculated="calculated",
    calculation_marker="calc. {number}",
    calculations="Calculations",
    calculations_explanation=(
        "Computed in code from the verified figures they cite; none is quoted from a source."
    ),
    formula="Formula",
    inputs="Inputs",
    calculation_kinds={
        "difference": "difference",
        "percent_change": "percentage change",
        "cagr": "compound annual growth rate",
        "margin": "margin",
        "ratio": "ratio",
        "share": "share",
        "sum": "sum",
    },
    appendix="Appendix: how this report was made",
    appendix_explanation="Internal details of the run, for whoever wants to check it.",
)

_BY_LANGUAGE: dict[Language, Labels] = {"pt": PORTUGUESE, "en": ENGLISH}


def labels_for(language: Language) -> Labels:
    return _BY_LANGUAGE[language]


def format_utc(moment: datetime) -> str:
    """`2025-05-01 14:03 UTC`; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def page_text(labels: Labels, page: int) -> str:
    return f"{labels.page} {page}"


def accessed_text(labels: Labels, moment: datetime) -> str:
    return f"{labels.accessed_on} {format_utc(moment)}"


def format_decimal(labels: Labels, value: float, places: int) -> str:
    return f"{value:.{places}f}".replace(".", labels.decimal_separator)


def spend_rows(report: Report) -> list[tuple[str, str]]:
    """(label, value) rows for the footer: spend against each limit, model, architecture."""
    labels = labels_for(report.language)
    spend, limits = report.spend, report.limits

    def seconds(value: float) -> str:
        return f"{format_decimal(labels, value, 1)} s"

    def dollars(value: float) -> str:
        return f"US$ {format_decimal(labels, value, 4)}"

    return [
        (labels.steps, f"{spend.steps} {labels.of} {limits.steps}"),
        (labels.time, f"{seconds(spend.seconds)} {labels.of} {seconds(limits.seconds)}"),
        (labels.cost, f"{dollars(spend.usd)} {labels.of} {dollars(limits.usd)}"),
        (labels.model, report.model),
        (labels.architecture, report.architecture),
        (labels.created_at, format_utc(report.created_at)),
    ]
