from engine.models.extractive.model import ExtractiveModel

__all__ = ["ExtractiveModel"]
