"""Usage of an offline role call, estimated so v1 and the final architecture compare.

An offline call costs nothing, but it stands for a model call whose size is what it read and
what it wrote: one call, about four characters per token, settled at $0 through the meter.
"""

from __future__ import annotations

import math

from engine.budget import Meter
from engine.contracts import Usage

_CHARS_PER_TOKEN = 4


def estimated_tokens(text: str) -> int:
    return math.ceil(len(text) / _CHARS_PER_TOKEN)


def estimated_usage(prompt: str, reply: str) -> Usage:
    return Usage(
        model_calls=1,
        input_tokens=estimated_tokens(prompt),
        output_tokens=estimated_tokens(reply),
    )


async def record_free_call(meter: Meter, prompt: str, reply: str) -> None:
    reservation = await meter.model_step(0.0)
    await meter.settle(reservation, 0.0, estimated_usage(prompt, reply))
