"""Every example in the package's docstrings runs (against the installed package)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sheepsolve

MODULES = sorted(m.name for m in pkgutil.walk_packages(sheepsolve.__path__, "sheepsolve.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failures in {name}"
