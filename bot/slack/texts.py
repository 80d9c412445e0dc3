"""What the bot says, in Portuguese and English: it answers in the language of the question."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import Language


@dataclass(frozen=True)
class Texts:
    clarify_intro: str
    clarify_hint: str
    answered: str
    plan_title: str
    subquestions: str
    sufficient_when: str
    caps: str
    caps_line: str
    estimate: str
    estimate_line: str
    start: str
    edit: str
    cancel: str
    started_by: str
    cancelled_by: str
    cancelling: str
    researching: str
    research_done: str
    subagents: str
    claims_line: str
    spend_line: str
    open_gaps: str
    partial_banner: str
    deepen: str
    deepening: str
    show_excerpt: str
    sources: str
    no_sentences: str
    version: str
    files_comment: str
    excerpt_title: str
    statement: str
    verdict: str
    not_yours: str
    busy: str
    not_found: str
    edit_title: str
    edit_subquestions: str
    edit_steps: str
    edit_minutes: str
    edit_usd: str
    save: str
    edit_invalid: str
    continued: str
    asked_by: str
    not_in_channel: str


PT = Texts(
    clarify_intro="Antes de começar, preciso entender melhor:",
    clarify_hint="Escolha uma opção ou responda neste fio.",
    answered="Resposta",
    plan_title="Plano de pesquisa",
    subquestions="Subperguntas",
    sufficient_when="Suficiente quando",
    caps="Limites",
    caps_line="{steps} passos · {minutes} min · US$ {usd}",
    estimate="Estimativa",
    estimate_line="até ~{minutes} min · até ~US$ {usd}",
    start="Iniciar",
    edit="Editar",
    cancel="Cancelar",
    started_by="Iniciado por <@{user}>.",
    cancelled_by="Cancelado por <@{user}>.",
    cancelling="Cancelando: o relatório parcial vem a seguir.",
    researching="Pesquisando…",
    research_done="Pesquisa concluída.",
    subagents="Subagentes",
    claims_line="Afirmações: {verified} verificadas, {rejected} rejeitadas",
    spend_line="Gasto: US$ {usd} de US$ {usd_cap} · {minutes} de {minutes_cap} min · "
    "{steps} de {steps_cap} passos",
    open_gaps="Lacunas abertas",
    partial_banner=":warning: *Relatório parcial*: a pesquisa parou antes de cobrir tudo o que "
    "o plano pedia. Lacunas (clique para aprofundar):",
    deepen="Aprofundar",
    deepening="Aprofundando (versão {version}): {gap}",
    show_excerpt="Ver trecho",
    sources="Fontes",
    no_sentences="Nenhuma afirmação verificada para relatar.",
    version="versão",
    files_comment="Relatório completo em HTML e Markdown.",
    excerpt_title="Trecho [{number}]",
    statement="Afirmação",
    verdict="Verificação",
    not_yours="Este relatório é privado: só quem o pediu pode abri-lo.",
    busy="Este relatório está em andamento; aguarde o fim para aprofundar.",
    not_found="Não encontrei esse relatório (pode ter expirado).",
    edit_title="Editar plano",
    edit_subquestions="Subperguntas (uma por linha)",
    edit_steps="Passos (máximo)",
    edit_minutes="Minutos (máximo)",
    edit_usd="US$ (máximo)",
    save="Salvar",
    edit_invalid="Use um número positivo.",
    continued="(continuação {page}/{pages})",
    asked_by="<@{user}> perguntou: {question}",
    not_in_channel=(
        ":warning: Não estou neste canal: convide-me com `/invite @Fonte`, ou mande a pergunta "
        "por mensagem direta."
    ),
)

EN = Texts(
    clarify_intro="Before I start, a few questions:",
    clarify_hint="Pick an option or reply in this thread.",
    answered="Answer",
    plan_title="Research plan",
    subquestions="Subquestions",
    sufficient_when="Sufficient when",
    caps="Caps",
    caps_line="{steps} steps · {minutes} min · US$ {usd}",
    estimate="Estimate",
    estimate_line="up to ~{minutes} min · up to ~US$ {usd}",
    start="Start",
    edit="Edit",
    cancel="Cancel",
    started_by="Started by <@{user}>.",
    cancelled_by="Cancelled by <@{user}>.",
    cancelling="Cancelling: the partial report follows.",
    researching="Researching…",
    research_done="Research finished.",
    subagents="Subagents",
    claims_line="Claims: {verified} verified, {rejected} rejected",
    spend_line="Spent: US$ {usd} of US$ {usd_cap} · {minutes} of {minutes_cap} min · "
    "{steps} of {steps_cap} steps",
    open_gaps="Open gaps",
    partial_banner=":warning: *Partial report*: the research stopped before covering everything "
    "the plan asked for. Gaps (click one to deepen):",
    deepen="Deepen",
    deepening="Deepening (version {version}): {gap}",
    show_excerpt="Show excerpt",
    sources="Sources",
    no_sentences="No verified claim to report.",
    version="version",
    files_comment="Full report as HTML and Markdown.",
    excerpt_title="Excerpt [{number}]",
    statement="Statement",
    verdict="Verification",
    not_yours="This report is private: only the person who asked for it can open it.",
    busy="This report is still running; wait for it to finish before deepening.",
    not_found="I could not find that report (it may have expired).",
    edit_title="Edit plan",
    edit_subquestions="Subquestions (one per line)",
    edit_steps="Steps (max)",
    edit_minutes="Minutes (max)",
    edit_usd="US$ (max)",
    save="Save",
    edit_invalid="Use a positive number.",
    continued="(continued {page}/{pages})",
    asked_by="<@{user}> asked: {question}",
    not_in_channel=(
        ":warning: I am not in this channel: invite me with `/invite @Fonte`, or send the "
        "question as a direct message."
    ),
)


def texts_for(language: Language) -> Texts:
    return PT if language == "pt" else EN
