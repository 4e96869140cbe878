"""Shared pytest options."""

from __future__ import annotations


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.json from the current solver (checked against the reference)")
