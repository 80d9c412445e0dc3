"""Before research: a brief from what the user typed, report templates, the plan of a
question nobody split, and the wording of criteria and gaps (with its inverse, so a follow-up
recovers the question a gap asks), and the price of each type of report with the budget that
follows from it."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
