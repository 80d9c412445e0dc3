"""What `engine.verify.seen.browser_seer.BrowserSeer` is made of: `script` (what it asks the
browser), `reading` (the pure rules over the browser's answers), `ink` (the pixels of two
screenshots), `resources` (what a page links, served by Fonte), `thread` (the event loop the
browser lives on)."""

from engine.verify.seen.browser.resources import DOCUMENT_ORIGIN, FolderResources, Resources

__all__ = ["DOCUMENT_ORIGIN", "FolderResources", "Resources"]
