"""How Fonte talks to Claude: key, models per role, limits per call, prices.

Read from the environment once, at start-up, where a wrong setting fails with a clear message
instead of in the middle of a report. The API key is never printed (`repr` leaves it out).
Each role's model is checked against `MODELS` (catalog.py), what the documentation says that
model takes and how long it is served: a retired model, an effort level it refuses, or an
output cap past its maximum, would be an error on every call, so each is one line at start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from engine.models.claude.catalog import (
    DEPRECATIONS_PAGE,
    EFFORT_PAGE,
    EFFORTS,
    MODELS,
    Effort,
    ModelSpec,
    model_spec,
)
from engine.models.claude.prices import (
    PriceTable,
    UnknownModel,
    default_price_table,
    parse_price_overrides,
)
from engine.settings import BadInput, env_flag

__all__ = [
    "ANTHROPIC_SEARCH_PROVIDER",
    "DEFAULT_JUDGE_MODEL",
    "DEFAULT_MODEL",
    "EFFORTS",
    "EFFORT_ROLES",
    "MODELS",
    "ClaudeConfig",
    "ModelSpec",
    "model_spec",
]

EFFORT_ROLES = ("planner", "subagent", "writer", "judge", "criteria")

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_JUDGE_MODEL = "claude-haiku-5-5"
ANTHROPIC_SEARCH_PROVIDER = "anthropic"


@dataclass(frozen=True)
class ClaudeConfig:
    api_key: str = field(repr=False)
    model: str = DEFAULT_MODEL
    """Plans, checks the criteria and writes: the orchestrator's model."""
    subagent_model: str = DEFAULT_MODEL
    judge_model: str = DEFAULT_JUDGE_MODEL
    fallback_model: str | None = None
    """Asked once more when a model declines (`stop_reason: refusal`), as
    https://platform.claude.com/docs/en/build-with-claude/refusals-and-fallback recommends,
    with the refusal's fallback credit (client.py); None keeps the refusal
    (FONTE_FALLBACK_MODEL). It must take every role's effort: the retry is the same body."""
    judge: bool = True
    """Run the support judge; off, `judge` returns None and the report says so."""
    base_url: str | None = None
    server_web_search: bool = False
    """Subagents on the web search with Anthropic's server-side web_search tool ("anthropic"
    in FONTE_SEARCH, the same setting as `SearchSettings.anthropic_web_search`)."""
    web_search_max_uses: int = 3
    """Server-side searches allowed per subagent call (each one is priced)."""
    # Effort per role (`output_config.effort`, https://platform.claude.com/docs/en/build-with-
    # claude/effort): high is the API's default and suits complex reasoning and agentic work;
    # medium trades a little depth for speed and cost; low suits classification and lookups.
    # None sends nothing (the model's default). Reasons in docs/claude.md, "Effort per role".
    planner_effort: Effort | None = "high"
    """One call that decides the whole report's shape: worth the deepest thinking."""
    subagent_effort: Effort | None = "medium"
    """Many short turns (pick a search, read, copy an excerpt), several subagents at once."""
    writer_effort: Effort | None = "medium"
    """Composes from verified claims it is given; it decides wording, not facts."""
    judge_effort: Effort | None = "low"
    """A label per claim from its excerpt: classification."""
    criteria_effort: Effort | None = "low"
    """Met or not, per criterion, from the claims listed: classification."""
    # Output caps per call. Thinking tokens count against them (Sonnet 5.5 thinks by default),
    # so each cap is the thinking its effort typically uses plus the answer; the budget
    # reserves the whole cap and settles what was used. A `max_tokens` stop is retried once
    # with twice the cap (`max_output_tokens` at most).
    planner_max_tokens: int = 16_000
    subagent_max_tokens: int = 12_000
    writer_max_tokens: int = 24_000
    judge_max_tokens: int = 6_000
    criteria_max_tokens: int = 6_000
    max_output_tokens: int = 64_000
    """The most any one call asks for, the retry with room included."""
    parallel_tool_calls: bool = True
    """Run the tool calls of one turn at the same time (FONTE_PARALLEL_TOOLS=off: in turn)."""
    writer_prompt_tokens: int = 30_000
    """The writer's prompt size assumed when its call is reserved, before claims exist."""
    judge_batch_size: int = 12
    max_retries: int = 5
    request_timeout_seconds: float = 300.0
    prices: PriceTable = field(default_factory=default_price_table, repr=False)
    today: date = field(default_factory=date.today, repr=False)
    """The day the models' lifecycle is read on (a retirement date passed: refused)."""

    def __post_init__(self) -> None:
        if not self.api_key.strip():
            raise BadInput("the Anthropic API key is empty: set ANTHROPIC_API_KEY")
        for variable, model in self._models_by_variable():
            spec = model_spec(model)
            refusal = spec.refusal(model, self.today) if spec else None
            if refusal is not None:  # before its price: the line names the replacement
                raise BadInput(f"{variable}: {refusal}")
            try:
                self.prices.price(model)
            except UnknownModel as error:
                raise BadInput(f"{variable}: {error}") from None
        counts = {
            "web_search_max_uses": self.web_search_max_uses,
            "planner_max_tokens": self.planner_max_tokens,
            "subagent_max_tokens": self.subagent_max_tokens,
            "writer_max_tokens": self.writer_max_tokens,
            "judge_max_tokens": self.judge_max_tokens,
            "criteria_max_tokens": self.criteria_max_tokens,
            "max_output_tokens": self.max_output_tokens,
            "judge_batch_size": self.judge_batch_size,
        }
        for name, value in counts.items():
            if value < 1:
                raise BadInput(f"{name} must be at least 1, not {value}")
        for role in EFFORT_ROLES:
            effort = self.effort_for(role)
            if effort is not None and effort not in EFFORTS:
                raise BadInput(f"{role} effort must be one of {', '.join(EFFORTS)}, not {effort!r}")
        if self.max_retries < 0 or self.request_timeout_seconds <= 0:
            raise BadInput("max_retries must be ≥ 0 and request_timeout_seconds > 0")
        self._check_models()

    def _models_by_variable(self) -> list[tuple[str, str]]:
        named = [
            ("FONTE_MODEL", self.model),
            ("FONTE_SUBAGENT_MODEL", self.subagent_model),
            ("FONTE_JUDGE_MODEL", self.judge_model),
        ]
        return named + (
            [("FONTE_FALLBACK_MODEL", self.fallback_model)] if self.fallback_model else []
        )

    def notices(self) -> list[str]:
        """What the user should know about the models before a run, one line each: a
        deprecated model (its retirement date and replacement), and a model that takes no
        effort where a role asked for one (it runs at its own default)."""
        variables: dict[str, list[str]] = {}
        for variable, model in self._models_by_variable():
            variables.setdefault(model, []).append(variable)
        lines = []
        for model, names in variables.items():
            spec = model_spec(model)
            if spec is not None and spec.deprecated_on(self.today) and spec.retires:
                lines.append(
                    f"{model} ({', '.join(names)}) is deprecated and retires on "
                    f"{spec.retires.isoformat()}: move to {spec.replacement} "
                    f"({DEPRECATIONS_PAGE})"
                )
        for model, names in variables.items():
            spec = model_spec(model)
            roles = [
                role
                for role in EFFORT_ROLES
                if self.effort_for(role) is not None
                and model in (self.model_for(role), self.fallback_model)
            ]
            if spec is not None and not spec.efforts and roles:
                lines.append(
                    f"{model} ({', '.join(names)}) takes no effort: {', '.join(roles)} "
                    f"{'runs' if len(roles) == 1 else 'run'} at the model's own default "
                    f"({EFFORT_PAGE})"
                )
        return lines

    def model_for(self, role: str) -> str:
        if role == "subagent":
            return self.subagent_model
        if role == "judge":
            return self.judge_model
        return self.model  # planner, writer, criteria check

    def _check_models(self) -> None:
        """Each role's effort and output cap against what its model takes (and what the
        fallback model takes, which a refusal sends the same request to): one line naming
        the setting, the model and what it accepts."""
        for role in EFFORT_ROLES:
            for model in (self.model_for(role), self.fallback_model):
                if model is not None:
                    self._check_role(role, model)
        writer = model_spec(self.model)
        needed = self.writer_prompt_tokens + self.writer_max_tokens
        if writer is not None and needed > writer.context_window:
            raise BadInput(
                f"the writer's prompt ({self.writer_prompt_tokens}) and output "
                f"({self.writer_max_tokens}) tokens pass {self.model}'s context window of "
                f"{writer.context_window}"
            )

    def _check_role(self, role: str, model: str) -> None:
        spec = model_spec(model)
        if spec is None:
            return
        effort = self.effort_for(role)
        asked = model_spec(self.model_for(role))
        if (
            model == self.fallback_model
            and effort is not None
            and not spec.efforts
            and (asked is None or asked.efforts)
        ):
            # A refused request is re-sent to the fallback as it was, effort included
            # (https://platform.claude.com/docs/en/build-with-claude/fallback-credit).
            raise BadInput(
                f"FONTE_FALLBACK_MODEL={model} takes no effort, but a refused {role} request "
                f"is re-sent as it was, with effort {effort}: choose a fallback that takes "
                f"it, or set FONTE_EFFORT_{role.upper()}=default ({EFFORT_PAGE})"
            )
        # A model without the effort parameter is sent none, and `notices` says so; a level
        # the model does not take would be refused on every call.
        if effort is not None and spec.efforts and effort not in spec.efforts:
            raise BadInput(
                f"FONTE_EFFORT_{role.upper()}={effort}: {model} takes "
                f"{', '.join(spec.efforts)} ({EFFORT_PAGE})"
            )
        # The retry with room after a max_tokens stop is held to the model's maximum by the
        # client; the first ask must fit as it is.
        if self.max_tokens_for(role) > spec.max_output:
            raise BadInput(
                f"{role}_max_tokens {self.max_tokens_for(role)} is more than {model} "
                f"writes: at most {spec.max_output} output tokens"
            )

    def max_tokens_for(self, role: str) -> int:
        value: int = getattr(self, f"{role}_max_tokens")
        return value

    def effort_for(self, role: str) -> Effort | None:
        value: Effort | None = getattr(self, f"{role}_effort")
        return value

    @classmethod
    def from_env(
        cls, env: Mapping[str, str], *, model: str | None = None, today: date | None = None
    ) -> ClaudeConfig:
        """The configuration the environment describes; `model` (a `--model` flag) wins over
        FONTE_MODEL and, unless FONTE_SUBAGENT_MODEL is set, also runs the subagents. `today`
        is the day the models' lifecycle is read on (the clock's, unless a test names one)."""
        api_key = env.get("ANTHROPIC_API_KEY", "").strip()
        if not api_key:
            raise BadInput("ANTHROPIC_API_KEY is not set: Claude needs an API key")
        main_model = model or env.get("FONTE_MODEL") or DEFAULT_MODEL
        return cls(
            api_key=api_key,
            model=main_model,
            subagent_model=env.get("FONTE_SUBAGENT_MODEL") or main_model,
            judge_model=env.get("FONTE_JUDGE_MODEL") or DEFAULT_JUDGE_MODEL,
            fallback_model=env.get("FONTE_FALLBACK_MODEL", "").strip() or None,
            judge=env_flag(env, "FONTE_JUDGE", default=True),
            base_url=env.get("ANTHROPIC_BASE_URL") or None,
            server_web_search=_names_anthropic_search(env.get("FONTE_SEARCH", "")),
            prices=_prices(env.get("FONTE_PRICES", "")),
            parallel_tool_calls=env_flag(env, "FONTE_PARALLEL_TOOLS", default=True),
            planner_effort=_effort(env, "planner", cls.planner_effort),
            subagent_effort=_effort(env, "subagent", cls.subagent_effort),
            writer_effort=_effort(env, "writer", cls.writer_effort),
            judge_effort=_effort(env, "judge", cls.judge_effort),
            criteria_effort=_effort(env, "criteria", cls.criteria_effort),
            today=today or date.today(),
        )


def _effort(env: Mapping[str, str], role: str, default: Effort | None) -> Effort | None:
    """FONTE_EFFORT_<ROLE> (PLANNER, SUBAGENT, WRITER, JUDGE, CRITERIA): low … max, or
    `default` to send no effort (the model's own default). Unset keeps Fonte's default."""
    variable = f"FONTE_EFFORT_{role.upper()}"
    value = env.get(variable, "").strip().lower()
    if not value:
        return default
    if value == "default":
        return None
    for effort in EFFORTS:
        if effort == value:
            return effort
    raise BadInput(f"{variable} must be one of {', '.join(EFFORTS)} or default, not {value!r}")


def _names_anthropic_search(providers: str) -> bool:
    return ANTHROPIC_SEARCH_PROVIDER in (p.strip().lower() for p in providers.split(","))


def _prices(setting: str) -> PriceTable:
    """FONTE_PRICES: inline JSON, or the path of a JSON file."""
    setting = setting.strip()
    table = default_price_table()
    if not setting:
        return table
    if setting.startswith("{"):
        text = setting
    else:
        try:
            text = Path(setting).expanduser().read_text(encoding="utf-8")
        except OSError as error:
            raise BadInput(f"FONTE_PRICES: cannot read {setting}: {error}") from None
    try:
        return table.with_overrides(parse_price_overrides(text))
    except ValueError as error:
        raise BadInput(str(error)) from None
