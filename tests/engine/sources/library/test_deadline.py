from engine.sources.library.deadline import Deadline, passed
from tests.support.clock import FakeClock


def test_a_deadline_counts_from_when_the_run_started_on_its_clock() -> None:
    clock = FakeClock(100.0)
    deadline = Deadline.after(6.0, started=97.0, clock=clock)
    assert deadline.at == 103.0
    assert deadline.remaining() == 3.0
    assert not deadline.passed()
    clock.advance(3.0)
    assert deadline.passed()
    assert deadline.remaining() == 0.0
    clock.advance(5.0)
    assert deadline.remaining() == 0.0  # never below zero: it is a wait's timeout


def test_a_deadline_without_a_start_counts_from_now() -> None:
    clock = FakeClock(50.0)
    assert Deadline.after(2.0, clock=clock).at == 52.0


def test_no_deadline_never_passes() -> None:
    clock = FakeClock(10.0)
    assert not passed(None)
    assert not passed(Deadline(10.5, clock))
    assert passed(Deadline(10.0, clock))
