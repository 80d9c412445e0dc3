import signal
import threading

import pytest

from engine.cli.signals import terminate_as_interrupt


def test_sigterm_inside_raises_keyboard_interrupt_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt():
        signal.raise_signal(signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before


def test_outside_the_main_thread_nothing_changes() -> None:
    seen: list[object] = []

    def inside() -> None:
        with terminate_as_interrupt():
            seen.append(signal.getsignal(signal.SIGTERM))

    before = signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=inside)
    thread.start()
    thread.join()
    assert seen == [before]
