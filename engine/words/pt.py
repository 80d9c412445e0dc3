"""PORTUGUESE: everything Fonte says to a reader or a user in Portuguese, in one table (its
`slack` part written in pt_slack.py)."""

from __future__ import annotations

from engine.words.pt_routines import PORTUGUESE_ROUTINES
from engine.words.pt_slack import PORTUGUESE_SLACK
from engine.words.schema import (
    ChangeWords,
    GapWords,
    LawWords,
    LibraryWords,
    NoteWords,
    ReportWords,
    SearchWords,
    SheetWords,
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
    published_on="data da fonte:",
    standing_primary="fonte primária (oficial)",
    standing_secondary="fonte secundária (imprensa, associação)",
    standing_other="outra fonte (blog, fórum, desconhecida)",
    page="página",
    excerpt="Trecho",
    header_from_page="cabeçalho da página {page}",
    not_verified="não verificada",
    figure_reading="lido da figura da página {page} (leitura do modelo, não citação)",
    read_by_ocr="lido por OCR",
    rejected_claims="Afirmações rejeitadas pelo verificador",
    no_reason="sem motivo registrado",
    dropped_sentences="Frases retiradas pela checagem do rascunho",
    spend_and_limits="Gasto e limites",
    steps="Passos",
    time="Tempo",
    cost="Custo",
    cost_share="Custo sobre o preço do relatório",
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
    scans_past_cap="O limite de tempo chegou enquanto as páginas digitalizadas citadas eram "
    "lidas de novo para o destaque: {count} de {total} ficaram sem ele",
    pdfs_not_here="{count} PDFs citados da biblioteca não estão nesta máquina (ela lê a base "
    "compartilhada da biblioteca), então suas páginas ficam sem recorte destacado",
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
        "margin_change": "variação da margem",
        "mean_margin": "margem média",
        "ratio_to_average": "razão sobre uma média",
        "sum_ratio": "razão de uma soma",
        "days": "dias",
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
    # -- sources per conversation
    origin_library="biblioteca da equipe",
    origin_web="web",
    origin_conversation="compartilhado nesta conversa",
    origin_slack="busca do Slack",
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
    read_by="Lido por",
    readings={
        "text": "texto da página",
        "ocr": "OCR (imagem da página)",
        "figure": "figura (leitura do modelo, não citação)",
    },
    published="Data da fonte",
    standing="Natureza da fonte",
    calculation_kinds={
        "difference": "diferença",
        "percent_change": "variação percentual",
        "cagr": "CAGR",
        "margin": "margem",
        "ratio": "razão",
        "share": "participação",
        "sum": "soma",
        "margin_change": "variação da margem",
        "mean_margin": "margem média",
        "ratio_to_average": "razão sobre uma média",
        "sum_ratio": "razão de uma soma",
        "days": "dias",
    },
)

_NOTES = NoteWords(
    no_budget_for_writer="o orçamento acabou antes de o relatório ser redigido ({detail}): "
    "ele traz as afirmações verificadas como foram encontradas",
    no_budget_to_plan="o orçamento acabou antes de a pesquisa ser planejada ({detail}): a "
    "pergunta foi pesquisada como feita",
    planner_failed="não foi possível planejar a pesquisa ({error}): a pergunta foi "
    "pesquisada como feita",
    subagent_failed="o subagente {subagent} falhou: {error}",
    unreadable_page="não foi possível ler {url}: {error}",
    web_search_unavailable="a busca na web da Anthropic não está disponível ({error}); "
    "buscando com a busca do próprio Fonte",
    criteria_check_failed="não foi possível verificar quais partes da pergunta as fontes "
    "respondem ({error}): todas foram tratadas como em aberto",
    judge_failed="as afirmações não foram lidas uma segunda vez ({error}): cada uma foi "
    "conferida só com as palavras do seu trecho",
    judge_skipped="as afirmações não foram lidas uma segunda vez (o modelo {model} não faz "
    "essa leitura): cada uma foi conferida só com as palavras do seu trecho",
    writer_failed="não foi possível redigir o relatório ({error}): ele traz as afirmações "
    "verificadas como foram encontradas",
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
        "refused: it unpacks to far more than its size (a zip bomb?)": "recusado: descompactado, "
        "fica muito maior do que o seu tamanho (uma bomba zip?)",
        "refused: too many parts for an Office file": "recusado: partes demais para um arquivo "
        "do Office",
        "refused: too many cells for a workbook": "recusado: células demais para uma planilha",
        "refused: more text than a document holds": "recusado: mais texto do que um documento "
        "contém",
        "the parser crashed on it (out of memory?)": "o leitor falhou nele (falta de memória?)",
        "too large to index (out of memory)": "grande demais para indexar (sem memória)",
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
    index_unfinished="o índice da biblioteca não ficou pronto dentro do limite de tempo: "
    "{indexed} de {total} arquivos indexados, {pending} ({megabytes} MB) ainda não lidos nem "
    "pesquisados; a próxima execução continua daí",
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
    in_figure="A resposta pode estar na figura da página {page} de {document}, não lida",
    measure_missing="{measure}{period}: nenhum número verificado de {inputs}",
    measure_averaged="{measure}{period}: não calculado, requer a média entre períodos de {inputs}",
    measure_beyond=(
        "{measure}: não calculado, a fórmula da pergunta tem termos além das linhas do "
        "balanço com que este relatório calcula"
    ),
    measure_average_missing=(
        "{measure}{period}: nenhum número verificado de {inputs} em {year}, necessário à sua "
        "média de {first} e {last}"
    ),
    measure_in=" em {period}",
    line_items={
        "revenue": "receita",
        "cost_of_sales": "custo das vendas",
        "gross_profit": "lucro bruto",
        "operating_income": "lucro operacional",
        "net_income": "lucro líquido",
        "total_assets": "ativo total",
        "current_assets": "ativo circulante",
        "current_liabilities": "passivo circulante",
        "cash": "caixa e equivalentes de caixa",
        "short_term_investments": "aplicações financeiras",
        "inventories": "estoques",
        "receivables": "contas a receber",
        "ppe": "imobilizado",
        "payables": "fornecedores",
        "equity": "patrimônio líquido",
        "debt": "dívida",
        "interest_expense": "despesa de juros",
        "capex": "investimento em imobilizado (capex)",
    },
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
        "mercado": "Qual é o tamanho do mercado de energia solar residencial no Brasil?",
        "concorrentes": "Quem são as principais distribuidoras de energia solar no Brasil?",
        "regulacao": "Como é regulada a geração distribuída de energia no Brasil?",
        "tecnologia": "Em que estágio está a tecnologia de baterias para armazenar energia?",
    },
    empty_question_example="Qual é o tamanho do mercado de energia solar no Brasil?",
    sweep_pages="Páginas {first}–{last}",
)


_WRITER = WriterWords(
    rose="{measure} cresceu de {old} em {first} para {new} em {last}",
    fell="{measure} caiu de {old} em {first} para {new} em {last}",
    flat="{measure} foi de {old} em {first} e de {new} em {last}",
    change=", variação calculada de {difference}",
    percent=" ({percent})",
    growth=" e taxa composta de crescimento anual de {cagr}",
    one="{measure} foi de {value} em {period}",
    latest="{measure}: {value} em {period}, o dado mais recente",
    asked="{measure} em {period}: {value} ({inputs}: {formula})",
    asked_span="{measure}, {period}: {value} ({inputs}: {formula})",
    asked_rose="{measure} subiu {change}, de {old} em {first} para {new} em {last} ({formula})",
    asked_fell="{measure} caiu {change}, de {old} em {first} para {new} em {last} ({formula})",
    asked_flat="{measure} foi de {old} em {first} e de {new} em {last} ({formula})",
    asked_mean="{measure}, média de {period}: {value} (a média de {values})",
    one_in="{value} em {period}",
    sides="{measure} foi de {parts}",
    side="{value} para {side}",
    side_in="{value} para {side} em {period}",
    list_and=" e ",
    change_columns={"difference": "Diferença", "percent_change": "Variação", "cagr": "CAGR"},
    span_to="a",
    a_year="ao ano",
    percentage_points="p.p.",
    days="dias",
    scales={3: "mil", 6: "milhões", 9: "bilhões", 12: "trilhões"},
    currency_symbols={"USD": "US$", "BRL": "R$", "EUR": "€", "GBP": "£"},
    disagree="As fontes divergem sobre {measure} em {period}: {parts}",
)


_LAWS = LawWords(
    article="Art. {n}",
    paragraph="§ {n}",
    sole_paragraph="parágrafo único",
    item="inciso {n}",
    letter="alínea {n}",
    stated="{provision}: {body}",
    rule_aspects=("Prazos e validade", "Obrigações e vedações", "Regras de transição"),
)


_CHANGES = ChangeWords(
    heading="O que mudou desde {date}",
    sheet="Mudanças",
    change="Mudança",
    why_column="Por quê",
    kinds={"changed": "mudou", "new": "novo", "gone": "não mais encontrado"},
    explanation=(
        "Comparado com o relatório de {date} sobre a mesma pergunta. Cada mudança cita os dois "
        "lados: o que aquele relatório citou, como ele o selou, e o que este cita hoje."
    ),
    no_change="Nada mudou desde {date}: os mesmos números e constatações, das mesmas fontes.",
    figure_changed="{figure}: de {before} para {after}",
    figure_new="Novo número: {figure}",
    figure_gone="Número não mais encontrado: {figure}",
    finding_new="Nova constatação em {title}",
    finding_gone="Constatação não mais encontrada em {title}",
    source_new="Nova fonte: {title}",
    source_gone="Fonte não mais encontrada: {title}",
    before="Antes",
    now="Agora",
    why="por quê: {reason}",
    gone_reasons={
        "removed": "o arquivo ou a página foi removido",
        "excerpt_missing": "a página mudou e o trecho não está mais nela",
        "page_changed": "a página mudou; o trecho ainda está nela, mas não foi citado desta vez",
        "not_cited": "a página está como era; o trecho não foi citado desta vez",
        "unreachable": "não foi possível ler a fonte para saber",
    },
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
    slack=PORTUGUESE_SLACK,
    writer=_WRITER,
    laws=_LAWS,
    changes=_CHANGES,
    routines=PORTUGUESE_ROUTINES,
)
