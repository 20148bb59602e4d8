"""Every browser test also runs under the server's security headers: a test after which a page
reported a policy violation (``tests.e2e.browser.POLICY_REPORTS``) fails in its teardown."""

from __future__ import annotations

import pytest

from tests.e2e import browser


@pytest.fixture(autouse=True)
def no_policy_violation():
    """Start each test with no reports; fail it if its pages left any (a test that expects a
    violation takes it out of ``POLICY_REPORTS`` itself)."""
    browser.POLICY_REPORTS.clear()
    browser.CONSOLE_ERRORS.clear()
    yield
    reports = list(dict.fromkeys(browser.POLICY_REPORTS))  # distinct, in order
    assert not reports, f"the site's policies blocked {len(reports)} things:\n" + "\n".join(
        reports[:5])
