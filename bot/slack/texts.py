"""What the bot says, in Portuguese and English: it answers in the language of the question."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Language


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
    page_crop_title: str
    page_crop_alt: str
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
    subagent_running: str
    subagent_done: str
    subagent_stopped: str
    subagent_failed: str
    claims_count_one: str
    claims_count_many: str
    question_empty: str
    question_too_long: str
    empty_mention: str
    thread_has_report: str
    not_deepenable: str
    failed_not_deepenable: str
    failed_run: str
    already_started: str
    nothing_to_cancel: str
    stale_button: str
    cancelled_banner: str
    cut_by_user: str
    delivery_failed: str
    delivery_partial: str
    upload_failed: str
    files_not_made: str
    error_missing_scope: str
    error_not_in_channel: str
    error_too_long: str
    error_rate_limited: str
    error_unavailable: str
    error_other: str
    no_library: str
    """The one line a research request gets while FONTE_LIBRARY is missing or empty."""
    feedback_prompt: str
    feedback_up: str
    feedback_down: str
    feedback_thanks: str
    assistant_status: str
    assistant_planning: str
    prompts_title: str
    assistant_greeting: str


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
    files_comment="Relatório completo em HTML, Markdown, Word e PowerPoint.",
    excerpt_title="Trecho [{number}]",
    statement="Afirmação",
    verdict="Verificação",
    page_crop_title="O trecho na página {page}",
    page_crop_alt="Página {page} de {source}, com o trecho destacado",
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
    subagent_running="pesquisando",
    subagent_done="concluído",
    subagent_stopped="parado pelo orçamento",
    subagent_failed="falhou",
    claims_count_one="{count} afirmação",
    claims_count_many="{count} afirmações",
    question_empty=":warning: A pergunta está vazia: escreva o que quer pesquisar, por exemplo "
    "`@Fonte Qual é o tamanho do mercado de energia solar?`",
    question_too_long=":warning: A pergunta tem {length} caracteres; o limite é {limit}. Faça "
    "a pergunta em poucas linhas e ponha o contexto num documento da biblioteca.",
    empty_mention="Olá! Faça uma pergunta depois da menção, por exemplo "
    "`@Fonte Como está o mercado de energia solar residencial?`, ou veja `/research help`.",
    thread_has_report="Este fio já tem um relatório. Para uma nova versão, escreva "
    "`aprofunde: <tema>`; para outra pergunta, mencione-me fora deste fio.",
    not_deepenable="Este pedido foi cancelado antes de começar: não há relatório para "
    "aprofundar. Faça uma nova pergunta.",
    failed_not_deepenable="A pesquisa deste pedido falhou antes de gerar um relatório: não há o "
    "que aprofundar. Faça a pergunta de novo.",
    failed_run=":x: A pesquisa falhou por um erro interno ({error}). Tente de novo com uma "
    "nova pergunta; se persistir, avise quem administra o Fonte.",
    already_started="Este plano já foi iniciado ou encerrado; acompanhe o andamento neste fio.",
    nothing_to_cancel="Nada a cancelar: este relatório já terminou.",
    stale_button="Este botão não vale mais (o relatório mudou ou expirou).",
    cancelled_banner=":warning: *Relatório parcial*: a pesquisa foi cancelada antes de cobrir "
    "tudo o que o plano pedia. Lacunas (clique para aprofundar):",
    cut_by_user="interrompida pelo usuário",
    delivery_failed=":warning: Não consegui publicar o relatório neste fio ({reason}). Ele "
    "está salvo: escreva `aprofunde: <tema>` aqui para uma nova versão.",
    delivery_partial=":warning: O Slack recusou parte do relatório ({reason}); o relatório "
    "completo está nos arquivos anexos, e `aprofunde: <tema>` continua valendo.",
    upload_failed=":warning: Os arquivos do relatório (HTML, Markdown, Word, PowerPoint) não "
    "foram anexados ({reason}); o "
    "relatório acima está completo.",
    files_not_made=":warning: Não consegui gerar {files} (um erro ao montar o arquivo, "
    "registrado no log do Fonte). O relatório está salvo e `aprofunde: <tema>` continua valendo.",
    error_missing_scope="falta ao app a permissão `{needed}`: peça a um administrador para "
    "reinstalá-lo",
    error_not_in_channel="não estou neste canal: convide-me com `/invite @Fonte`",
    error_too_long="mensagem longa demais para o Slack",
    error_rate_limited="o Slack limitou os envios; tente de novo em alguns minutos",
    error_unavailable="o Slack está indisponível; tente de novo em alguns minutos",
    error_other="erro do Slack: `{error}`",
    no_library=":warning: Ainda não há biblioteca para pesquisar: defina `FONTE_LIBRARY` com "
    "uma pasta de documentos PDF, HTML, Markdown ou texto (hoje ela não existe ou está vazia).",
    feedback_prompt="Este relatório foi útil?",
    feedback_up="👍 Útil",
    feedback_down="👎 Não útil",
    feedback_thanks="Obrigado! Sua avaliação foi registrada com o relatório.",
    assistant_status="Pesquisando… {done} de {total} subperguntas",
    assistant_planning="Preparando o plano…",
    prompts_title="Modelos de relatório",
    assistant_greeting="Olá! Faça uma pergunta de pesquisa ou escolha um modelo abaixo.",
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
    files_comment="Full report as HTML, Markdown, Word and PowerPoint.",
    excerpt_title="Excerpt [{number}]",
    statement="Statement",
    verdict="Verification",
    page_crop_title="The excerpt on page {page}",
    page_crop_alt="Page {page} of {source}, with the excerpt highlighted",
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
    subagent_running="researching",
    subagent_done="done",
    subagent_stopped="stopped by the budget",
    subagent_failed="failed",
    claims_count_one="{count} claim",
    claims_count_many="{count} claims",
    question_empty=":warning: The question is empty: write what to research, for example "
    "`@Fonte How large is the residential solar market?`",
    question_too_long=":warning: The question has {length} characters; the limit is {limit}. "
    "Ask it in a few lines and put the background in a library document.",
    empty_mention="Hello! Ask a question after the mention, for example "
    "`@Fonte How large is the residential solar market?`, or see `/research help`.",
    thread_has_report="This thread already has a report. For a new version, write "
    "`deepen: <topic>`; for another question, mention me outside this thread.",
    not_deepenable="This request was cancelled before it started: there is no report to "
    "deepen. Ask a new question.",
    failed_not_deepenable="The research for this request failed before it produced a report: "
    "there is nothing to deepen. Ask the question again.",
    failed_run=":x: The research failed with an internal error ({error}). Try again with a "
    "new question; if it persists, tell whoever runs Fonte.",
    already_started="This plan was already started or closed; follow its progress here.",
    nothing_to_cancel="Nothing to cancel: this report has finished.",
    stale_button="This button no longer applies (the report changed or expired).",
    cancelled_banner=":warning: *Partial report*: the research was cancelled before covering "
    "everything the plan asked for. Gaps (click one to deepen):",
    cut_by_user="interrupted by the user",
    delivery_failed=":warning: I could not post the report in this thread ({reason}). It is "
    "saved: write `deepen: <topic>` here for a new version.",
    delivery_partial=":warning: Slack refused part of the report ({reason}); the full report "
    "is in the attached files, and `deepen: <topic>` still works.",
    upload_failed=":warning: The report files (HTML, Markdown, Word, PowerPoint) were not "
    "attached ({reason}); the "
    "report above is complete.",
    files_not_made=":warning: I could not make {files} (an error while building the file, "
    "recorded in Fonte's log). The report is saved and `deepen: <topic>` still works.",
    error_missing_scope="the app lacks the `{needed}` permission: ask an admin to reinstall it",
    error_not_in_channel="I am not in this channel: invite me with `/invite @Fonte`",
    error_too_long="message too long for Slack",
    error_rate_limited="Slack rate-limited the posts; try again in a few minutes",
    error_unavailable="Slack is unavailable; try again in a few minutes",
    error_other="Slack error: `{error}`",
    no_library=":warning: There is no library to research yet: set `FONTE_LIBRARY` to a folder "
    "of PDF, HTML, Markdown or text documents (it is missing or empty now).",
    feedback_prompt="Was this report useful?",
    feedback_up="👍 Useful",
    feedback_down="👎 Not useful",
    feedback_thanks="Thanks! Your rating was recorded with the report.",
    assistant_status="Researching… {done} of {total} subquestions",
    assistant_planning="Preparing the plan…",
    prompts_title="Report templates",
    assistant_greeting="Hello! Ask a research question or pick a template below.",
)


def texts_for(language: Language | str) -> Texts:
    return PT if language == "pt" else EN


def claims_count(t: Texts, count: int) -> str:
    """ "1 claim", "5 claims" (and "1 afirmação", "5 afirmações")."""
    return (t.claims_count_one if count == 1 else t.claims_count_many).format(count=count)
