"""The v6 seal covers which source each document came from (`Report.origins`), which every
format prints beside it; reports sealed as v5 still check."""

from engine.contracts import Report, Section
from engine.verify.digest import EDITED, _hexdigest, digest_problem, sealed
from tests.support.render_samples import build_claim, build_report, cite


def report() -> Report:
    claims = [build_claim("c1"), build_claim("c2", excerpt="Outro trecho com texto suficiente.")]
    built = build_report(claims, [Section(title="Mercado", sentences=[cite("Afirmação c1", "c1")])])
    origins = {claims[0].url.split("#")[0]: "web", claims[1].url.split("#")[0]: "library"}
    return built.model_copy(update={"origins": origins})


def test_a_report_sealed_as_v6_still_checks() -> None:
    v6 = report().model_copy(update={"digest": "sha256-v6:" + _hexdigest(report(), version=6)})
    assert digest_problem(v6) is None
    assert digest_problem(v6.model_copy(update={"origins": {}})) == EDITED
    assert str(sealed(report()).digest).startswith("sha256-v8:")


def test_a_relabelled_origin_breaks_the_v6_digest() -> None:
    original = sealed(report())
    assert digest_problem(original) is None
    for origins in (
        {url: "library" for url in original.origins},  # a web page passed off as the library's
        {},  # the labels dropped
        {**original.origins, "https://elsewhere.example/": "conversation"},
    ):
        edited = original.model_copy(update={"origins": origins})
        assert digest_problem(edited) == EDITED, origins


def test_a_report_sealed_with_the_v5_digest_still_checks() -> None:
    v5 = report().model_copy(update={"digest": "sha256-v5:" + _hexdigest(report(), version=5)})
    assert digest_problem(v5) is None
    assert digest_problem(v5.model_copy(update={"title": "Outro título"})) == EDITED
    # v5 did not seal origins: the same report read as v6 would not match
    assert v5.digest != "sha256-v5:" + _hexdigest(report(), version=6)
