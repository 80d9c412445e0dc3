"""`fonte`: the research engine from a terminal.

    fonte ask "QUESTION" (--library DIR | --web) [--template T] [--arch final|v1]
              [--max-steps N] [--max-minutes M] [--max-usd X] [--out DIR]
              [--format md,html,json,pdf]
    fonte verify REPORT.json [--library DIR] [--refetch]

Packages built on the engine add their commands (`fonte bot`, `fonte eval`) through the
`fonte.commands` entry point group: the engine never imports them.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
