import asyncio

import pytest

from engine.budget import InMemoryBudget, Refusal, Reservation
from engine.contracts import Limits


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_steps_are_reserved_until_the_limit_then_refused() -> None:
    budget = InMemoryBudget(Limits(steps=2, seconds=60, usd=1))
    assert isinstance(await budget.reserve(), Reservation)
    assert isinstance(await budget.reserve(), Reservation)
    refusal = await budget.reserve()
    assert isinstance(refusal, Refusal)
    assert refusal.limit == "steps"
    assert (await budget.spend()).steps == 2
    assert await budget.exhausted() == refusal


async def test_concurrent_reservations_never_overshoot_money() -> None:
    budget = InMemoryBudget(Limits(steps=1000, seconds=60, usd=1.0))

    async def agent() -> int:
        granted = 0
        while True:
            outcome = await budget.reserve(usd=0.07)
            if isinstance(outcome, Refusal):
                return granted
            await asyncio.sleep(0)
            await budget.settle(outcome, 0.07)
            granted += 1

    granted = await asyncio.gather(*(agent() for _ in range(8)))
    assert sum(granted) == 14  # floor(1.0 / 0.07)
    assert (await budget.spend()).usd <= 1.0


async def test_settle_replaces_the_estimate_with_the_actual_cost_once() -> None:
    budget = InMemoryBudget(Limits(steps=10, seconds=60, usd=1.0))
    reservation = await budget.reserve(usd=0.5)
    assert isinstance(reservation, Reservation)
    assert (await budget.spend()).usd == pytest.approx(0.5)
    await budget.settle(reservation, 0.1)
    await budget.settle(reservation, 0.1)
    assert (await budget.spend()).usd == pytest.approx(0.1)
    assert isinstance(await budget.reserve(usd=0.9), Reservation)


async def test_wall_time_limit_refuses_new_steps() -> None:
    clock = FakeClock()
    budget = InMemoryBudget(Limits(steps=10, seconds=30, usd=1), clock=clock)
    assert isinstance(await budget.reserve(), Reservation)
    clock.now += 31
    refusal = await budget.reserve()
    assert isinstance(refusal, Refusal)
    assert refusal.limit == "seconds"
    assert (await budget.spend()).seconds == pytest.approx(31)


async def test_stop_refuses_everything_after() -> None:
    budget = InMemoryBudget(Limits())
    await budget.stop("cancelled by user")
    refusal = await budget.reserve()
    assert isinstance(refusal, Refusal)
    assert refusal.limit == "stopped"
    assert "cancelled" in refusal.detail


async def test_usage_is_summed_once_per_settled_reservation() -> None:
    from engine.contracts import Usage

    budget = InMemoryBudget(Limits())
    reservation = await budget.reserve(usd=0.2)
    assert isinstance(reservation, Reservation)
    usage = Usage(model_calls=1, input_tokens=100, output_tokens=20, web_searches=2)
    await budget.settle(reservation, 0.05, usage)
    await budget.settle(reservation, 0.05, usage)
    assert (await budget.spend()).usage == usage


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


async def test_extend_adds_room_after_a_refusal() -> None:
    budget = InMemoryBudget(Limits(steps=1, seconds=60, usd=0))
    assert isinstance(await budget.reserve(), Reservation)
    assert isinstance(await budget.reserve(), Refusal)
    await budget.extend(Limits(steps=2, seconds=1, usd=0))
    assert budget.limits.steps == 3
    assert await budget.exhausted() is None
    assert isinstance(await budget.reserve(), Reservation)


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
