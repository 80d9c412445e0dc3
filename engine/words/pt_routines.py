"""PORTUGUESE_ROUTINES: what the bot says about routines in Portuguese, the `routines` part of
`PORTUGUESE` (pt.py)."""

from __future__ import annotations

from engine.words.routine_schema import RoutineWords

PORTUGUESE_ROUTINES = RoutineWords(
    watch_button="👁 Acompanhar",
    how_often="Com que frequência acompanho esta pesquisa? Só aviso quando algo mudar.",
    daily="diária",
    weekly="semanal",
    monthly="mensal",
    created=(
        "Vou acompanhar “{question}” ({frequency}) e avisar neste fio só quando algo mudar. "
        "Próxima rodada: {next}."
    ),
    already="Já acompanho esta pesquisa ({frequency}). Veja `/research rotinas`.",
    watch_usage="Use `/research acompanhar diária|semanal|mensal PERGUNTA`.",
    help=(
        "*Rotinas*\n`/research acompanhar diária|semanal|mensal PERGUNTA` (ou o botão 👁 "
        "Acompanhar de um relatório) repete a pesquisa e avisa só quando algo muda; "
        "`/research rotinas` lista as deste canal."
    ),
    list_title="*Rotinas deste canal*",
    none=(
        "Nenhuma rotina neste canal. Crie uma com o botão 👁 Acompanhar de um relatório ou "
        "`/research acompanhar semanal PERGUNTA`."
    ),
    line="*{question}* · {frequency} · próxima: {next} · última: {last} · gasto no mês: US$ {usd}",
    paused_word="pausada",
    never_ran="ainda não rodou",
    result_first="o relatório de origem",
    result_no_change="sem mudança",
    result_changed="{count} mudança(s)",
    result_failed="falhou",
    result_over_cap="não rodou: limite mensal do canal",
    channel_spend="Rotinas deste canal em {month}: US$ {spent} de US$ {cap}",
    pause="Pausar",
    resume="Retomar",
    delete="Apagar",
    paused="<@{user}> pausou a rotina “{question}”.",
    resumed="<@{user}> retomou a rotina “{question}”.",
    deleted="<@{user}> apagou a rotina “{question}”.",
    frequency_changed="<@{user}> mudou a rotina “{question}” para {frequency}.",
    not_yours="Só quem criou esta rotina (ou um admin) pode pausá-la, mudá-la ou apagá-la.",
    not_found="Essa rotina não existe mais.",
    more_changes="… e mais {count} no relatório anexo",
    files_updated="Arquivos atualizados",
    paused_failures=(
        "A rotina “{question}” falhou três vezes seguidas e foi pausada. "
        "Retome-a em `/research rotinas`."
    ),
    over_cap=(
        "A rotina “{question}” não rodou: as rotinas deste canal chegaram ao limite do mês "
        "(US$ {cap})."
    ),
)
