"""The seen check: each excerpt read back from its page as rendered for a reader.

- `protocol`: the contract, `Sight` (what a reader sees of one excerpt) and `Seer`.
- `html`: `BrowserSeer`, an HTML page laid out in headless Chromium (`html_script` what it
  asks the browser, `html_reading` the pure rules over its answers, `ink` the pixels,
  `html_resources` what a page links, served by Fonte).
"""

from engine.verify.seen.html import BrowserSeer
from engine.verify.seen.html_resources import FolderResources, Resources
from engine.verify.seen.protocol import Seer, Sight

__all__ = ["BrowserSeer", "FolderResources", "Resources", "Seer", "Sight"]
