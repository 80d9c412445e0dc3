"""A report's limits in the bot: from its template's price, edited in the plan's dialog
without losing the price they are measured against."""

from __future__ import annotations

from typing import Any

from bot.flows import handle_step
from bot.steps import Ask, EditPlan
from engine.contracts import Limits
from engine.planning import LimitOverrides
from tests.support.bot_env import AskingModel


async def test_a_template_s_price_sets_the_limits_and_the_dialog_keeps_the_price(
    make_settings: Any, runtimes: Any
) -> None:
    settings = make_settings(redis=False, overrides=LimitOverrides())
    rt = await runtimes(settings, model=AskingModel())
    text = "energia solar residencial no Nordeste"
    await handle_step(
        rt,
        Ask(origin="p1", channel="C1", thread_ts="7.7", user="U1", text=text, template="mercado"),
    )
    report_id = await rt.states.by_thread("C1", "7.7")
    state = await rt.states.get(report_id)
    assert state is not None
    assert state.plan is not None
    # mercado sells for US$ 250, 2% on research: US$ 5.00, 150 steps, 25 minutes.
    assert state.limits == Limits(steps=150, seconds=1500.0, usd=5.0, price_usd=250.0)

    edited = Limits(steps=10, seconds=120.0, usd=0.5)  # the dialog knows nothing of prices
    texts = [s.text for s in state.plan.subquestions]
    await handle_step(
        rt, EditPlan(report_id=report_id, user="U1", subquestions=texts, limits=edited)
    )

    after = await rt.states.get(report_id)
    assert after is not None
    assert after.limits == Limits(steps=10, seconds=120.0, usd=0.5, price_usd=250.0)
