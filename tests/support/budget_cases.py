"""The rule of a budget, as cases every `engine.budget.Budget` must pass: the in-memory one
(tests/engine/test_budget.py) and the Redis one (tests/bot/redis/test_budget.py) run these
same cases, so the Python and the Lua that write the rule cannot drift apart unseen.

A case takes `open_budget(limits, clock, handles)`: `handles` handles on one new budget whose
wall seconds run on `clock` from the moment it is opened. In memory that is the one object
`handles` times; in Redis one handle per worker (its own reservation scope) on one hash.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence

import pytest

from engine.budget import Budget, Refusal, Reservation
from engine.contracts import Limits, Usage
from tests.support.clock import FakeClock

OpenBudget = Callable[[Limits, FakeClock, int], Awaitable[Sequence[Budget]]]
Case = Callable[[OpenBudget], Awaitable[None]]

MS = 0.0015
"""Spend's seconds are rounded to the millisecond (and Redis keeps floats as text)."""


async def one(open_budget: OpenBudget, limits: Limits, clock: FakeClock | None = None) -> Budget:
    (budget,) = await open_budget(limits, clock or FakeClock(), 1)
    return budget


def granted(outcome: Reservation | Refusal) -> Reservation:
    assert isinstance(outcome, Reservation), f"refused: {outcome}"
    return outcome


def refused(outcome: Reservation | Refusal, limit: str) -> Refusal:
    assert isinstance(outcome, Refusal), f"granted: {outcome}"
    assert outcome.limit == limit, outcome
    return outcome


async def steps_are_granted_up_to_the_limit_then_refused(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=3, seconds=60, usd=1.0))
    assert granted(await budget.reserve(steps=2)).steps == 2
    assert granted(await budget.reserve()).steps == 1
    refusal = refused(await budget.reserve(), "steps")
    assert refusal.detail == "3 of 3 steps used"
    assert (await budget.spend()).steps == 3  # a refused reservation takes nothing
    assert await budget.exhausted() == refusal


async def a_reservation_larger_than_what_is_left_is_refused_whole(
    open_budget: OpenBudget,
) -> None:
    budget = await one(open_budget, Limits(steps=3, seconds=60, usd=1.0))
    granted(await budget.reserve(steps=2))
    refused(await budget.reserve(steps=2), "steps")
    assert (await budget.spend()).steps == 2
    granted(await budget.reserve(steps=1))  # what is left still fits


async def money_is_granted_up_to_the_cap_then_refused(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=0.10))
    assert granted(await budget.reserve(usd=0.08)).usd == pytest.approx(0.08)
    refusal = refused(await budget.reserve(usd=0.05), "usd")
    assert refusal.detail == "$0.0800 of $0.10 committed"
    granted(await budget.reserve(usd=0.02))  # exactly to the cap
    refused(await budget.reserve(usd=0.001), "usd")
    assert (await budget.spend()).usd == pytest.approx(0.10)
    assert (await budget.spend()).steps == 2


async def a_step_that_costs_nothing_passes_a_spent_cap(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=0.10))
    granted(await budget.reserve(usd=0.10))
    granted(await budget.reserve(usd=0.0))  # a search or a read: no money
    assert await budget.exhausted() is None


async def the_wall_clock_refuses_once_the_seconds_are_spent(open_budget: OpenBudget) -> None:
    clock = FakeClock()
    budget = await one(open_budget, Limits(steps=10, seconds=30, usd=1.0), clock)
    clock.advance(29.5)
    granted(await budget.reserve())
    assert (await budget.spend()).seconds == pytest.approx(29.5, abs=MS)
    clock.advance(0.5)  # exactly at the limit: no new step
    refusal = refused(await budget.reserve(), "seconds")
    assert refusal.detail == "30 s of 30 s used"
    clock.advance(6)
    assert (await budget.spend()).seconds == pytest.approx(36, abs=MS)
    assert await budget.exhausted() == refusal  # the first reason stays the reason


async def settling_less_than_reserved_gives_the_rest_back(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    reservation = granted(await budget.reserve(usd=0.5))
    assert (await budget.spend()).usd == pytest.approx(0.5)  # reserved counts as spent
    refused(await budget.reserve(usd=0.6), "usd")
    await budget.settle(reservation, 0.1)
    assert (await budget.spend()).usd == pytest.approx(0.1)
    granted(await budget.reserve(usd=0.9))
    assert (await budget.spend()).steps == 2  # the step stays spent


async def settling_more_than_reserved_charges_what_it_cost(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    reservation = granted(await budget.reserve(usd=0.2))
    await budget.settle(reservation, 0.9)  # the call cost more than its estimate
    assert (await budget.spend()).usd == pytest.approx(0.9)
    refusal = refused(await budget.reserve(usd=0.2), "usd")
    assert refusal.detail == "$0.9000 of $1.00 committed"
    granted(await budget.reserve(usd=0.1))


async def an_overrun_past_the_cap_is_recorded_and_stops_new_money(
    open_budget: OpenBudget,
) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=0.5))
    reservation = granted(await budget.reserve(usd=0.4))
    await budget.settle(reservation, 0.7)
    assert (await budget.spend()).usd == pytest.approx(0.7)  # never hidden
    refused(await budget.reserve(usd=0.01), "usd")
    refused(await budget.reserve(usd=0.0), "usd")  # past the cap, not even a free step


async def settling_twice_counts_once(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    reservation = granted(await budget.reserve(usd=0.3))
    usage = Usage(model_calls=1, input_tokens=100, output_tokens=20, web_searches=2)
    await budget.settle(reservation, 0.2, usage)
    await budget.settle(reservation, 0.25, usage)
    spend = await budget.spend()
    assert spend.usd == pytest.approx(0.2)
    assert spend.usage == usage


async def usage_adds_up_over_settlements(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    first, second = granted(await budget.reserve()), granted(await budget.reserve())
    await budget.settle(first, 0.01, Usage(model_calls=1, input_tokens=10, cache_read_tokens=5))
    await budget.settle(second, 0.02, Usage(model_calls=1, output_tokens=7))
    spend = await budget.spend()
    assert spend.usd == pytest.approx(0.03)
    assert spend.usage == Usage(
        model_calls=2, input_tokens=10, output_tokens=7, cache_read_tokens=5
    )


async def stop_refuses_every_further_step_with_its_first_reason(
    open_budget: OpenBudget,
) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    held = granted(await budget.reserve(usd=0.2))
    await budget.stop("cancelled by U1")
    await budget.stop("interrupted by the user")  # the first reason stays
    refusal = refused(await budget.reserve(steps=0, usd=0.0), "stopped")
    assert refusal.detail == "cancelled by U1"
    assert await budget.exhausted() == refusal
    await budget.settle(held, 0.1)  # what was under way when it stopped is still paid for
    assert (await budget.spend()).usd == pytest.approx(0.1)


async def extend_clears_a_limit_refusal_but_not_a_stop(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=1, seconds=60, usd=0.0))
    granted(await budget.reserve())
    refused(await budget.reserve(), "steps")
    await budget.extend(Limits(steps=2, seconds=30, usd=0.5))
    assert (budget.limits.steps, budget.limits.seconds) == (3, 90)
    assert budget.limits.usd == pytest.approx(0.5)
    assert await budget.exhausted() is None
    granted(await budget.reserve(usd=0.5))
    await budget.stop("cancelled by U1")
    await budget.extend(Limits(steps=5, seconds=30, usd=1.0))
    refused(await budget.reserve(), "stopped")


async def a_refusal_stays_the_reason_until_an_extend(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=10, seconds=60, usd=1.0))
    reservation = granted(await budget.reserve(usd=0.9))
    refusal = refused(await budget.reserve(usd=0.5), "usd")
    await budget.settle(reservation, 0.1)  # room again, but the run was already cut short
    assert await budget.exhausted() == refusal
    granted(await budget.reserve(usd=0.5))  # a step that fits is still granted
    await budget.extend(Limits(steps=1, seconds=1, usd=0.0))
    assert await budget.exhausted() is None


async def exhausted_says_nothing_while_there_is_room(open_budget: OpenBudget) -> None:
    budget = await one(open_budget, Limits(steps=2, seconds=60, usd=1.0))
    assert await budget.exhausted() is None
    granted(await budget.reserve())
    assert await budget.exhausted() is None
    granted(await budget.reserve())
    refusal = await budget.exhausted()  # no room for one more step
    assert refusal is not None
    assert refusal.limit == "steps"


async def concurrent_steps_never_overshoot(open_budget: OpenBudget) -> None:
    handles = await open_budget(Limits(steps=25, seconds=60, usd=1.0), FakeClock(), 8)

    async def grab(budget: Budget) -> int:
        taken = 0
        for _ in range(10):
            if isinstance(await budget.reserve(), Reservation):
                taken += 1
            await asyncio.sleep(0)
        return taken

    taken = await asyncio.gather(*(grab(b) for b in handles))
    assert sum(taken) == 25
    assert (await handles[0].spend()).steps == 25


async def concurrent_money_never_overshoots(open_budget: OpenBudget) -> None:
    handles = await open_budget(Limits(steps=1000, seconds=60, usd=1.0), FakeClock(), 8)

    async def agent(budget: Budget) -> int:
        taken = 0
        while True:
            outcome = await budget.reserve(usd=0.07)
            if isinstance(outcome, Refusal):
                return taken
            await asyncio.sleep(0)  # the call runs while the others reserve
            await budget.settle(outcome, 0.07)
            taken += 1

    taken = await asyncio.gather(*(agent(b) for b in handles))
    assert sum(taken) == 14  # floor(1.00 / 0.07)
    spend = await handles[0].spend()
    assert spend.usd <= 1.0
    assert spend.usd == pytest.approx(0.98)


CASES: tuple[Case, ...] = (
    steps_are_granted_up_to_the_limit_then_refused,
    a_reservation_larger_than_what_is_left_is_refused_whole,
    money_is_granted_up_to_the_cap_then_refused,
    a_step_that_costs_nothing_passes_a_spent_cap,
    the_wall_clock_refuses_once_the_seconds_are_spent,
    settling_less_than_reserved_gives_the_rest_back,
    settling_more_than_reserved_charges_what_it_cost,
    an_overrun_past_the_cap_is_recorded_and_stops_new_money,
    settling_twice_counts_once,
    usage_adds_up_over_settlements,
    stop_refuses_every_further_step_with_its_first_reason,
    extend_clears_a_limit_refusal_but_not_a_stop,
    a_refusal_stays_the_reason_until_an_extend,
    exhausted_says_nothing_while_there_is_room,
    concurrent_steps_never_overshoot,
    concurrent_money_never_overshoots,
)
"""Every case, for `pytest.mark.parametrize("case", CASES, ids=case_id)`."""


def case_id(case: Case) -> str:
    return case.__name__


async def answer_alike(
    budgets: tuple[Budget, Budget], clock: FakeClock, seed: int, operations: int = 25
) -> list[str]:
    """Run one random sequence of operations (reserve, settle, stop, extend, time passing) on
    two budgets opened alike on `clock`; the operations whose answers differ, described
    (empty when they agree throughout). Limits are compared to nine decimals: Redis keeps a
    float as text of 17 digits, so 0.1 + 0.2 reads back as 0.3."""
    rng = random.Random(seed)
    first, second = budgets
    held: list[tuple[Reservation, Reservation]] = []
    differences: list[str] = []
    for number in range(operations):
        operation = rng.choice(["reserve"] * 5 + ["settle"] * 3 + ["stop", "extend", "tick"])
        if operation == "reserve":
            steps, usd = rng.randint(0, 2), rng.choice([0.0, 0.01, 0.05, 0.3])
            answers = (await first.reserve(steps, usd), await second.reserve(steps, usd))
            if isinstance(answers[0], Reservation) and isinstance(answers[1], Reservation):
                held.append((answers[0], answers[1]))
            said = tuple(_said(answer) for answer in answers)
        elif operation == "settle" and held:
            pair = held.pop(rng.randrange(len(held))) if rng.random() < 0.8 else held[0]
            cost = rng.choice([0.0, 0.02, 0.2, 0.5])
            for budget, reservation in zip(budgets, pair, strict=True):
                await budget.settle(reservation, cost, Usage(model_calls=1))
            said = ("", "")
        elif operation == "stop":
            why = rng.choice(["cancelled by U1", "interrupted by the user"])
            for budget in budgets:
                await budget.stop(why)
            said = ("", "")
        elif operation == "extend":
            top_up = Limits(
                steps=rng.randint(1, 3), seconds=rng.choice([1, 10]), usd=rng.choice([0, 0.2])
            )
            for budget in budgets:
                await budget.extend(top_up)
            said = tuple(
                f"{b.limits.steps} {b.limits.seconds:.9f} {b.limits.usd:.9f}" for b in budgets
            )
        else:
            clock.advance(rng.choice([0.5, 3, 10]))
            said = ("", "")
        spent = [await budget.spend() for budget in budgets]
        exhausted = [_said(await budget.exhausted()) for budget in budgets]
        said = tuple(
            f"{answer} | {spend.steps} steps ${spend.usd:.9f} {spend.seconds:.3f} s "
            f"{spend.usage.model_calls} calls | {reason}"
            for answer, spend, reason in zip(said, spent, exhausted, strict=True)
        )
        if said[0] != said[1]:
            differences.append(f"#{number} {operation}: {said[0]!r} != {said[1]!r}")
    return differences


def _said(answer: Reservation | Refusal | None) -> str:
    if isinstance(answer, Refusal):
        return f"refused {answer.limit}: {answer.detail}"
    if answer is None:
        return "room"
    return f"granted {answer.steps} ${answer.usd:.9f}"
