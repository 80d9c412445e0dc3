"""The offline extractive model: no API key, and never a sentence it cannot trace to a page.

Its planner splits the question (or fills a report template), its subagents read the best
hits and quote the page units that cover their subquestion, and its writer composes sections
from verified claims only. The ranking rules below are its own (and the v1 baseline's, which
reads the same way): relevance, scope between rival documents, sentence cutting, and where a
financial statement prints a figure.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
