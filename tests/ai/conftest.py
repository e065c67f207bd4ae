from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _stop_ai_workers():
    """Stop the AI's worker processes once the tests are done."""
    yield
    from kabuto.ai import shutdown

    shutdown()
