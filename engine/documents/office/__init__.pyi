from engine.documents.office.sheets import (
    SheetCell,
    SheetText,
    cell_range,
    check_grid,
    read_xlsx,
    sheet_texts,
)
from engine.documents.office.slides import read_pptx
from engine.documents.office.word import read_docx

__all__ = [
    "SheetCell",
    "SheetText",
    "cell_range",
    "check_grid",
    "read_docx",
    "read_pptx",
    "read_xlsx",
    "sheet_texts",
]
