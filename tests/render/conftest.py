"""Fixtures of the renderer tests."""

from __future__ import annotations

import os

import pytest

#: Set SEEGA_UPDATE_GOLDEN=1 to rewrite the golden images from the current renderer
#: (then look at every one of them before committing).
UPDATE_ENV = "SEEGA_UPDATE_GOLDEN"


@pytest.fixture
def update_golden() -> bool:
    """Whether this run rewrites the golden images instead of comparing with them."""
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")
