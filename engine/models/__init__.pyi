from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief, Draft, Model

__all__ = ["Brief", "Draft", "ExtractiveModel", "Model"]
