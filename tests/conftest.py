"""Fixtures shared by several test modules of tests/."""

from __future__ import annotations

import gc

import pytest


@pytest.fixture(scope="module")
def frozen_heap():
    """Let ``gc.collect()`` walk only what the module's tests make, not the whole session's heap
    (after two thousand tests a full collection takes seconds). What exists when the module
    starts is collected once, then frozen (``gc.freeze``: left out of every collection) until
    the module is done; everything made later is collected as before. For tests that count
    live objects or measure memory after ``gc.collect()``."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
