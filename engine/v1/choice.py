"""Which v1 roles go with a final-architecture model, so both run on the same model."""

from __future__ import annotations

from engine.models.claude import ClaudeModel
from engine.models.protocol import Model
from engine.v1.claude_roles import ClaudeV1Roles
from engine.v1.offline_roles import OfflineV1Roles
from engine.v1.roles import V1Roles


def v1_roles_for(model: Model) -> V1Roles:
    if isinstance(model, ClaudeModel):
        return ClaudeV1Roles(model.config, model.client)
    return OfflineV1Roles()
