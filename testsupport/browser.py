"""Helpers for the browser journeys (pytest-playwright with the system Chromium).

Each journey step is photographed into ``artifacts/screenshots/<test name>/`` (CI keeps
that folder) and checked with axe-core: no serious or critical violation is allowed.
Every message the browser writes to its console about the Content-Security-Policy fails
the journey: the policy must hold on every page people use.
"""

import re
from pathlib import Path

from django.conf import settings

SCREENSHOT_DIR = Path(settings.BASE_DIR) / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
BLOCKING_IMPACTS = {"serious", "critical"}


class Journey:
    def __init__(self, page, base_url: str, name: str):
        self.page = page
        self.base_url = base_url.rstrip("/")
        self.folder = SCREENSHOT_DIR / re.sub(r"[^\w.-]+", "_", name)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.steps = 0
        self.csp_violations: list[str] = []
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.csp_violations.append(f"{self.page.url}: {message.text}")

    def assert_no_csp_violations(self) -> None:
        assert not self.csp_violations, "Content-Security-Policy violations:\n" + "\n".join(
            self.csp_violations
        )

    def goto(self, path: str):
        self.page.goto(self.base_url + path)
        return self.page

    def step(self, label: str, *, check_accessibility: bool = True):
        """Screenshot the page as it is now and run the axe check on it."""
        self.steps += 1
        slug = re.sub(r"[^\w-]+", "-", label.lower()).strip("-")
        # caret="initial": Playwright would otherwise inject a style to hide the caret, which
        # the Content-Security-Policy rightly refuses (a test artefact, not the site).
        self.page.screenshot(
            path=str(self.folder / f"{self.steps:02d}-{slug}.png"), full_page=True, caret="initial"
        )
        if check_accessibility:
            assert_accessible(self.page, label)
        self.assert_no_csp_violations()

    def step_on(self, page, label: str, **options):
        """A step (screenshot + axe) on another device's page of the same journey."""
        own = self.page
        self.page = page
        try:
            self.step(label, **options)
        finally:
            self.page = own

    def login(self, username: str, password: str):
        self.goto("/accounts/login/")
        self.page.get_by_label("User name").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Log in").click()
        self.page.wait_for_load_state()


def assert_accessible(page, label: str = "") -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    blocking = [
        violation
        for violation in results.response["violations"]
        if violation.get("impact") in BLOCKING_IMPACTS
    ]
    details = "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:5] if node.get("target"))
        for v in blocking
    )
    assert not blocking, f"Accessibility problems on '{label}' ({page.url}):\n{details}"
