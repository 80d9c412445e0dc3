"""PORTUGUESE_SLACK: what the bot says in Slack in Portuguese, the `slack` part of `PORTUGUESE`
(pt.py), kept in a file of its own so each table stays readable."""

from __future__ import annotations

from engine.words.slack_schema import SlackWords

PORTUGUESE_SLACK = SlackWords(
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
    not_your_plan="Só quem pediu esta pesquisa pode iniciá-la, editá-la ou cancelá-la.",
    run_as_mine="Pesquisar isto como meu",
    lost_run=(
        "Perdi esta pesquisa (meu armazenamento reiniciou sem os dados dela) e ela não vai "
        "terminar. Pesquisar de novo?"
    ),
    refused_run=(
        "Não consegui receber este pedido: meu armazenamento não está respondendo agora. "
        "Tentar de novo daqui a um minuto?"
    ),
    run_again="Pesquisar de novo",
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
    error_archived="este canal está arquivado: peça de novo em um canal aberto",
    error_restricted="uma configuração do workspace não me deixa publicar aqui: fale com um "
    "administrador ou peça em um canal onde apps podem publicar",
    error_auth="o token do app no Slack não funciona mais: peça a um administrador para "
    "reinstalá-lo",
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
    # -- the report message
    see_attached="… o restante está no relatório anexo.",
    report_files_note="O relatório completo, com todas as fontes e trechos, está nos arquivos "
    "anexos (PDF, HTML, Markdown, Word, PowerPoint).",
    files_button="📎 Arquivos",
    citations_placeholder="Ver o trecho de uma fonte",
    feedback_up_label="Este relatório foi útil",
    feedback_down_label="Este relatório não foi útil",
    # -- crops, retention and export
    page_comment="O trecho [{number}] na página {page} de {source}.",
    page_in_thread="A página também está no fio do relatório.",
    page_not_shown="Não consegui mostrar a página aqui: {reason}.",
    page_not_rendered="não foi possível recortar a página do documento",
    page_processing="o Slack ainda processava a imagem; ela está no fio do relatório",
    page_gone="a imagem da página não está mais no Slack; abra o trecho de novo",
    export_comment="Arquivos da versão {version}, gerados de novo para <@{user}>.",
    export_expired="Este relatório expirou: os relatórios ficam guardados por {days} dias.",
    export_no_version="Este relatório não tem a versão {version}.",
    export_failed=":warning: Não consegui anexar os arquivos ({reason}).",
    # -- streamed progress
    stream_plan_title="Plano de pesquisa",
    stream_plan_done="Pesquisa concluída: {verified} afirmações verificadas",
    task_writing="Escrever o relatório com as afirmações verificadas",
    task_verified="{count} verificadas em {sources} fontes",
    task_gap="Nada verificado: fica como lacuna no relatório",
    task_failed="O subagente falhou; nada verificado",
    stream_closing="O relatório vem na próxima mensagem.",
    tasks_heading="Plano",
    task_pending="a fazer",
    task_running="em andamento",
    task_done="concluída",
    task_gap_word="lacuna",
    task_failed_word="falhou",
    loading_task="Pesquisando: {title}",
    loading_reading="Lendo as fontes…",
    loading_verifying="Conferindo cada trecho na sua página…",
    # -- shared files
    files_kept="Guardei {files} como fonte desta conversa: só ela pesquisa esses arquivos.",
    files_refused="Não guardei:",
    file_too_big="passa de {limit} MB",
    file_not_supported="não leio esse tipo (leio PDF, HTML, Markdown, texto, DOCX, PPTX e XLSX)",
    file_not_downloaded="não consegui baixá-lo do Slack",
    file_login_page="o Slack deu a página de login, não o arquivo (falta o escopo files:read?)",
    file_over_limit="aberto, ocuparia muito mais memória do que o tamanho permite (uma bomba zip?)",
    # -- Slack search as a source
    slack_search_offer=(
        "Posso buscar também nas mensagens e arquivos deste workspace como você, para a sua "
        "pesquisa? Vejo só o que você pode ler, e uso as mensagens de uma conversa privada "
        "apenas em relatórios entregues nessa conversa ou na sua DM comigo. Pergunto uma vez."
    ),
    slack_search_allow="Permitir busca no Slack",
    slack_search_decline="Agora não",
    slack_search_allowed="A busca no Slack está ligada nas suas pesquisas: busco como você.",
    slack_search_declined="A busca no Slack fica desligada nas suas pesquisas.",
    slack_search_not_used="A busca no Slack não foi usada nesta pesquisa: {reason}.",
    slack_search_reasons={
        "missing_scope": "o app não está instalado com os escopos de busca",
        "invalid_action_token": "a permissão do Slack para buscar como você expirou",
        "no_action_token": "este pedido não trouxe permissão para buscar como você "
        "(mencione o Fonte ou escreva na DM dele)",
        "ratelimited": "o limite de buscas do Slack para você foi atingido",
        "not_allowed_token_type": "o token do app não pode buscar",
        "feature_not_enabled": "a busca do Slack não está disponível neste workspace",
        "unreachable": "a busca do Slack não respondeu",
        "other": "o Slack respondeu {error}",
    },
)
