from engine.sources.library.pacing import Paced
from tests.support.clock import FakeClock
from tests.support.library_files import Recorder


def test_the_first_line_passes_then_one_every_few_seconds() -> None:
    clock, lines = FakeClock(), Recorder()
    paced = Paced(lines, every=5.0, clock=clock)
    paced("reading /docs")
    paced("indexing 1/9 files")  # at once: dropped
    clock.advance(4.9)
    paced("indexing 2/9 files")
    clock.advance(0.1)
    paced("indexing 3/9 files")  # 5 s after the last line said
    clock.advance(1.0)
    paced("indexing 4/9 files")
    clock.advance(4.0)
    paced("reading: 4/9 files (3 of 200 MB) indexed so far")
    assert lines.messages == [
        "reading /docs",
        "indexing 3/9 files",
        "reading: 4/9 files (3 of 200 MB) indexed so far",
    ]
