"""The seen check: each excerpt read back from its page as rendered for a reader.

- `protocol`: the contract, `Sight` (what a reader sees of one excerpt) and `Seer`.
- `dispatch`: `SeenDispatcher`, the seer of each kind of document (text formats are
  what they show; a kind without a seer fails closed).
"""

from engine.verify.seen.dispatch import TEXT_KINDS, SeenDispatcher, kind_of, not_checked
from engine.verify.seen.protocol import Seer, Sight

__all__ = ["TEXT_KINDS", "SeenDispatcher", "Seer", "Sight", "kind_of", "not_checked"]
