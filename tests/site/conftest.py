"""The browser tests: Playwright's assertions (expect) wait as long as the suite's other waits (tests/waiting.py),
not their default 5 s: a busy machine draws a page late, and a wait ends as soon as the page shows what it should."""

from playwright.sync_api import expect

from tests.waiting import WAIT_MS

expect.set_options(timeout=WAIT_MS)
