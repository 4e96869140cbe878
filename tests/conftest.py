"""Shared pytest options and fixtures. The fixtures hand out :mod:`helpers_cli`'s functions, so a test names what
it uses in its signature: ``run`` (a command in this process), ``run_module`` (``python -m sheepsolve`` in a child
process), ``assert_input_error``, ``example`` (a bundled example by name) and ``timeless`` (JSON without timings)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import helpers_cli


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.json from the current solver (checked against the reference)")


@pytest.fixture(scope="session")
def run() -> Callable:
    """``run(*args, input=None)``: ``sheepsolve ARGS`` in this process; click's ``Result``."""
    return helpers_cli.run


@pytest.fixture(scope="session")
def run_module() -> Callable:
    """``run_module(*args, input=None, timeout=120, env=None, cwd=None)``: ``python -m sheepsolve ARGS`` in a child
    process; a ``CompletedProcess`` with text output."""
    return helpers_cli.run_module


@pytest.fixture(scope="session")
def assert_input_error() -> Callable:
    """``assert_input_error(result, *words)``: exit 2, one ``error:`` line holding ``words``, no traceback."""
    return helpers_cli.assert_input_error


@pytest.fixture(scope="session")
def example() -> Callable:
    """``example(name)``: the path of the bundled example ``name``."""
    return helpers_cli.example


@pytest.fixture(scope="session")
def timeless() -> Callable:
    """``timeless(json)``: the parsed JSON without its timing fields."""
    return helpers_cli.timeless
