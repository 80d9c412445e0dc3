"""The law and question the CLI tests research, and the loopback web they serve it on."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from evals.offline_web import OfflineWeb
from evals.web_pages import Page

ServeWeb = Callable[[Sequence[Page]], OfflineWeb]


LAW = """# Lei 14.300

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis;
"""


QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"
