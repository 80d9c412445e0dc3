"""The in-memory budget: the shared rule of every budget (tests/support/budget_cases.py),
and what only it does (a start before its creation, the meter's prepaid step)."""

from collections.abc import Sequence

import pytest

from engine.budget import Budget, InMemoryBudget, PausableClock, Refusal, Reservation
from engine.contracts import Limits
from tests.support.budget_cases import CASES, Case, case_id
from tests.support.clock import FakeClock


async def open_in_memory(limits: Limits, clock: FakeClock, handles: int) -> Sequence[Budget]:
    budget = InMemoryBudget(limits, clock=clock)
    return [budget] * handles


@pytest.mark.parametrize("case", CASES, ids=case_id)
async def test_the_rule_every_budget_keeps(case: Case) -> None:
    await case(open_in_memory)


async def test_meter_uses_a_prepaid_step_and_tops_up_only_the_money() -> None:
    from engine.budget import Meter, StepRefused

    budget = InMemoryBudget(Limits(steps=2, seconds=60, usd=1.0))
    prepaid = await budget.reserve(steps=1, usd=0.1)
    assert isinstance(prepaid, Reservation)
    meter = Meter(budget, prepaid=prepaid)
    assert await meter.model_step(0.05) is prepaid
    topped = Meter(budget, prepaid=await budget.reserve(steps=1, usd=0.1))  # type: ignore[arg-type]
    reservation = await topped.model_step(0.3)
    assert reservation.steps == 0
    assert (await budget.spend()).steps == 2
    with pytest.raises(StepRefused):
        await Meter(budget).model_step(0.0)


async def test_seconds_count_from_when_the_run_started_before_its_budget() -> None:
    clock = FakeClock()
    budget = InMemoryBudget(Limits(steps=10, seconds=60, usd=1), clock, started=clock.now - 45)
    assert (await budget.spend()).seconds == 45  # the library took 45 s to open and index
    assert isinstance(await budget.reserve(), Reservation)
    clock.now += 15
    refusal = await budget.reserve()
    assert isinstance(refusal, Refusal)
    assert refusal.limit == "seconds"
    assert (await budget.spend()).seconds == 60


async def test_a_start_after_now_counts_from_now() -> None:
    clock = FakeClock()
    budget = InMemoryBudget(Limits(steps=10, seconds=60, usd=1), clock, started=clock.now + 5)
    assert (await budget.spend()).seconds == 0


def test_a_pausable_clock_stands_still_while_paused() -> None:
    time = FakeClock()
    clock = PausableClock(time)
    started = clock()
    time.advance(5)
    with clock.paused():
        time.advance(60)
        assert clock() - started == 5  # it stands still while paused
        with clock.paused():  # a pause inside a pause is the same pause
            time.advance(10)
        assert clock() - started == 5
    time.advance(1)
    assert clock() - started == 6


async def test_a_budget_on_a_pausable_clock_spends_no_seconds_while_paused() -> None:
    time = FakeClock()
    clock = PausableClock(time)
    budget = InMemoryBudget(Limits(steps=10, seconds=30, usd=1), clock, started=clock() - 10)
    with clock.paused():
        time.advance(100)
    assert isinstance(await budget.reserve(), Reservation)
    assert (await budget.spend()).seconds == 10
