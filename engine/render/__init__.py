"""Renderers: a Report as Markdown, self-contained HTML, PDF and JSON files."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
