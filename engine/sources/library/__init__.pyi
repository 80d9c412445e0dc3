from engine.documents.parse import DocumentKind, parse_pdf
from engine.sources.library.deadline import Deadline
from engine.sources.library.documents import LibraryDocument, LibraryError
from engine.sources.library.files import start_scan
from engine.sources.library.folder import Library
from engine.sources.library.index.postgres_connection import is_store_url, without_password
from engine.sources.library.manifest import Manifest, load_manifest
from engine.sources.library.pacing import Paced
from engine.sources.library.passages import split_passages
from engine.sources.library.stored import default_store_url, stored_library_problem
from engine.sources.library.walking import FolderWalk

__all__ = [
    "Deadline",
    "DocumentKind",
    "FolderWalk",
    "Library",
    "LibraryDocument",
    "LibraryError",
    "Manifest",
    "Paced",
    "default_store_url",
    "is_store_url",
    "load_manifest",
    "parse_pdf",
    "split_passages",
    "start_scan",
    "stored_library_problem",
    "without_password",
]
