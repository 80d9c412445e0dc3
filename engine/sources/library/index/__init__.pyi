from engine.sources.library.index.opening import OpenedIndex, open_index
from engine.sources.library.index.passage_index import Matches, PassageIndex, PassageRef
from engine.sources.library.index.refresh import RefreshSummary

__all__ = ["Matches", "OpenedIndex", "PassageIndex", "PassageRef", "RefreshSummary", "open_index"]
