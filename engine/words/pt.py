"""PORTUGUESE: everything Fonte says to a reader or a user in Portuguese, in one table."""

from __future__ import annotations

from engine.words.schema import (
    GapWords,
    LibraryWords,
    NoteWords,
    ReportWords,
    SearchWords,
    SheetWords,
    SlackWords,
    TemplateWords,
    Words,
    WriterWords,
)

_REPORT = ReportWords(
    locale="pt-BR",
    thousands_separator=".",
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
    page_short="p.",
    dropped_in_summary="Resumo",
    dropped_in_table="Tabela",
    dropped_in_calculation="Cálculo",
    chart_value="Valor",
    chart_period="Período",
    continued="cont.",
    slide_sources="Trechos citados neste slide",
)

_SHEET = SheetWords(
    claims_sheet="Afirmações",
    figures_sheet="Números",
    summary_sheet="Resumo",
    id="ID",
    citation="Citação",
    statement="Afirmação",
    excerpt="Trecho",
    context="Contexto",
    source="Fonte",
    url="URL",
    page="Página",
    status="Situação",
    reason="Motivo",
    accessed="Acesso (UTC)",
    subquestion="Subpergunta",
    claims="Afirmações",
    calculated="cálculo {id}: {claims}",
    calculations="Cálculos",
    measure="Medida",
    entity="Entidade",
    period="Período",
    kind="Tipo",
    result="Resultado",
    value="Valor",
    unit="Unidade",
    formula="Fórmula",
    inputs="Entradas",
    question="Pergunta",
    number="Nº",
    sentence="Frase",
    statuses={"verified": "verificada", "rejected": "rejeitada", "pending": "pendente"},
    calculation_kinds={
        "difference": "diferença",
        "percent_change": "variação percentual",
        "cagr": "CAGR",
        "margin": "margem",
        "ratio": "razão",
        "share": "participação",
        "sum": "soma",
    },
)

_NOTES = NoteWords(
    no_budget_for_writer="sem orçamento para o redator ({detail})",
    no_budget_to_plan="sem orçamento para planejar ({detail}); a pergunta é o plano",
    planner_failed="o planejador falhou ({error}); a pergunta é o plano",
    subagent_failed="o subagente {subagent} falhou: {error}",
    unreadable_page="não foi possível ler {url}: {error}",
    web_search_unavailable="a busca na web da Anthropic não está disponível ({error}); "
    "buscando com a busca do próprio Fonte",
    criteria_check_failed="a checagem dos critérios falhou ({error}); todos os critérios "
    "foram tratados como não atendidos",
    judge_failed="o juiz de suporte não rodou ({error})",
    judge_skipped="juiz de suporte não usado: o modelo {model} não julga",
    writer_failed="o redator falhou ({error}); relatório composto com as afirmações literais",
    budget_reached="orçamento atingido: {limit} ({detail})",
    budget_limits={
        "steps": "passos",
        "seconds": "tempo",
        "usd": "custo",
        "stopped": "interrupção",
        "subagent_steps": "passos do subagente",
    },
    addressed_to_ai="{url} contém texto dirigido a sistemas de IA; foi deixado de fora",
    v1_researcher_failed="o pesquisador v1 falhou ({error}); nada foi resumido",
    v1_role_failed="o {role} v1 falhou ({error}); {consequence}",
    v1_roles={
        "analyst": "analista",
        "writer": "redator",
        "reviewer": "revisor",
        "editor": "editor",
    },
    v1_analysis_is_summary="o resumo vale como análise",
    v1_no_sections="o relatório não tem seções",
    v1_draft_kept="rascunho mantido",
    v1_citations_unreadable="as citações v1 não puderam ser lidas ({error})",
    v1_unknown_sources="frase cita fontes desconhecidas {numbers}: {sentence}",
)

_LIBRARY = LibraryWords(
    skipped_file="ignorado {name}: {reason}",
    skipped_files="{count} arquivos ignorados ({reason}): {names}",
    skip_reasons={
        "empty file": "arquivo vazio",
        "no words in file": "arquivo sem palavras",
        "no text in file": "arquivo sem texto",
        "no text in file (scanned PDF?)": "arquivo sem texto (PDF digitalizado?)",
        "cannot read": "ilegível",
        "a link to a file outside the library, not read": "um link para fora da biblioteca, "
        "não lido",
        "not a readable PDF": "PDF ilegível",
    },
    skip_reason_prefixes={
        "cannot read (": "ilegível (",
        "folder not readable (": "pasta ilegível (",
    },
    cache_not_writable="cache da biblioteca sem permissão de escrita ({error}); seguindo sem ele",
    manifest_unreadable="manifesto {name} ignorado: não pôde ser lido ({error})",
    manifest_bad_lines="manifesto {name}: {count} linha(s) inutilizável(is) ignorada(s) ({lines})",
    duplicate_url="{name}: a URL de citação {url} já pertence a {owner}; citado pelo próprio "
    "arquivo",
)

_SEARCH = SearchWords(
    provider_failed="{provider} falhou: {reason}",
    fell_back="{failures}; usado {provider}",
    all_failed="todos os provedores de busca falharam: {reasons}",
)

_GAPS = GapWords(
    criterion_lead="Fonte verificada que responda",
    unfinished_lead="Subquestão incompleta",
    interrupted="interrompida pelo orçamento",
    cancelled="interrompida pelo usuário",
)

_TEMPLATES = TemplateWords(
    sections={
        "mercado": (
            "Tamanho e crescimento do mercado",
            "Principais empresas e concorrência",
            "Regulação e marco legal",
            "Tendências e riscos",
        ),
        "concorrentes": (
            "Principais empresas",
            "Participação de mercado",
            "Preços e modelos de negócio",
            "Movimentos recentes: fusões, aquisições e entradas",
        ),
        "regulacao": (
            "Leis e normas aplicáveis",
            "Órgãos reguladores e obrigações",
            "Limites, prazos e regras de transição",
        ),
        "tendencias": ("Tendências", "Riscos", "Projeções"),
        "tecnologia": ("Estado da tecnologia", "Custos e desempenho", "Adoção"),
        "livre": (),
    },
    descriptions={
        "mercado": "estudo de mercado: tamanho, players, regulação, tendências",
        "concorrentes": "mapa de concorrentes",
        "regulacao": "panorama regulatório",
        "tendencias": "tendências e riscos",
        "tecnologia": "panorama tecnológico",
        "livre": "plano livre a partir da pergunta",
    },
    examples={
        "mercado": "energia solar residencial no Brasil",
        "concorrentes": "distribuidoras de energia solar",
        "regulacao": "geração distribuída de energia",
        "tecnologia": "baterias para armazenamento de energia",
    },
    empty_question_example="Qual é o tamanho do mercado de energia solar no Brasil?",
)

_SLACK = SlackWords(
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
    help_intro=(
        "*Como pedir uma pesquisa*\n"
        "• Mencione-me num canal: `@Fonte Como está o mercado de energia solar?`\n"
        "• `/research [modelo] pergunta` — ou me mande uma DM (relatório privado).\n"
        "• No fio de um relatório: `aprofunde: <lacuna>` para uma nova versão."
    ),
    help_templates="*Modelos*",
)


_WRITER = WriterWords(
    rose="{measure} cresceu de {old} em {first} para {new} em {last}",
    fell="{measure} caiu de {old} em {first} para {new} em {last}",
    flat="{measure} foi de {old} em {first} e de {new} em {last}",
    change=", variação calculada de {difference}",
    percent=" ({percent})",
    growth=" e taxa composta de crescimento anual de {cagr}",
    one="{measure} foi de {value} em {period}",
    sides="{measure} foi de {parts}",
    side="{value} para {side}",
    side_in="{value} para {side} em {period}",
    list_and=" e ",
    change_columns={"difference": "Diferença", "percent_change": "Variação", "cagr": "CAGR"},
    span_to="a",
    a_year="ao ano",
    percentage_points="p.p.",
    scales={3: "mil", 6: "milhões", 9: "bilhões", 12: "trilhões"},
)

PORTUGUESE = Words(
    language="pt",
    report=_REPORT,
    sheet=_SHEET,
    notes=_NOTES,
    library=_LIBRARY,
    search=_SEARCH,
    gaps=_GAPS,
    templates=_TEMPLATES,
    slack=_SLACK,
    writer=_WRITER,
)
