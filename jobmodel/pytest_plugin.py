"""A pytest plugin for implementers: the oracle in a fixture (docs/oracle-protocol.md, "In a
pytest suite").

    def test_my_controller(jobmodel_oracle):
        case = {"now": "...", "job": {...}, "pods": [...]}
        jobmodel_oracle.assert_agrees("job-sync", case, my_controller_outcome(case))

`--jobmodel-engine` chooses who answers: `model` (the default, in-process), `upstream` (upstream's
own code through the harness; needs Go) or `cmd:PROGRAM ARGS` (any program speaking the oracle
protocol). Installed with jobmodel (the `pytest11` entry point `jobmodel`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from jobmodel.conformance.agreement import Verdict, judge
from jobmodel.conformance.engines import Engine


class Oracle:
    """What upstream would do, asked of the chosen engine, and judgements against it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        """The oracle's outcome for a case's inputs (FORMAT.md), in the shape of `expect`."""
        return self.engine.outcome(suite, case)

    def judge(self, suite: str, case: Mapping[str, Any], outcome: Mapping[str, Any]) -> Verdict:
        """Your outcome judged on what upstream defines (where upstream's result depends on its
        cache's order, any of the oracle's answers for some order is accepted)."""
        return judge(suite, case, outcome, lambda c: self.engine.outcome(suite, c))

    def assert_agrees(self, suite: str, case: Mapping[str, Any], outcome: Mapping[str, Any]) -> None:
        """Fail the test, listing the differences, unless your outcome agrees with the oracle's."""
        verdict = self.judge(suite, case, outcome)
        if not verdict.agrees:
            lines = "\n  ".join(verdict.differences)
            raise AssertionError(f"{suite}: the outcome differs from {self.engine.name}'s ({verdict.path}):\n  {lines}")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jobmodel", "jobmodel oracle")
    group.addoption(
        "--jobmodel-engine",
        default="model",
        metavar="model|upstream|'cmd:PROGRAM ARGS'",
        help="who answers the jobmodel_oracle fixture: the model (default), upstream's code, or a program speaking the oracle protocol",
    )


@pytest.fixture(scope="session")
def jobmodel_oracle(request: pytest.FixtureRequest) -> Iterator[Oracle]:
    """The oracle (`Oracle`): `outcome(suite, case)`, `judge(...)`, `assert_agrees(...)`."""
    from jobmodel.commands.conformance import engine_choice, make_engine

    name = engine_choice(str(request.config.getoption("jobmodel_engine")))
    engine = make_engine(name)
    try:
        yield Oracle(engine)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
