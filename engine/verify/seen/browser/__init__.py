"""What `engine.verify.seen.browser_seer.BrowserSeer` is made of: `script` (what it asks the
browser), `reading` (the pure rules over the browser's answers), `ink` (the pixels of two
screenshots), `resources` (what a page links, served by Fonte), `thread` (the event loop the
browser lives on)."""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
