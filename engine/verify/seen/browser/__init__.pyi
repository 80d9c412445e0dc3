from engine.verify.seen.browser.resources import DOCUMENT_ORIGIN, FolderResources, Resources

__all__ = ["DOCUMENT_ORIGIN", "FolderResources", "Resources"]
