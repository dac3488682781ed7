"""A real headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven by Selenium) on the MLflow
UI, for tests and ``bench/screenshots.py``: open a page as a new user would, read the runs table."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = ("/usr/bin/chromium", "chromium")
CHROMEDRIVER = ("/usr/bin/chromedriver", "chromedriver")
FIRST_VISIT = {
    "mlflow.assistant.fab.autoOpenedOnFirstLoad_v1": "true",  # the assistant's panel stays closed
    "mlflow.assistant.panelOpen_v1": "false",
}
"""What a user who closed MLflow's assistant panel has in the UI's local storage (screenshots only)."""


def _found(candidates: tuple[str, ...]) -> str | None:
    return next((path for name in candidates if (path := shutil.which(name))), None)


def chromium_unavailable() -> str | None:
    """Why a headless Chromium cannot be driven here; None if it can."""
    if _found(CHROMIUM) is None:
        return "Chromium is not installed (Debian: apt-get install chromium; `make setup` as root does)"
    if _found(CHROMEDRIVER) is None:
        return "chromedriver is not installed (Debian: apt-get install chromium-driver; `make setup` does)"
    return None


@contextmanager
def chromium(width: int = 1700, height: int = 1100) -> Iterator:
    """A fresh headless Chromium (a new user: empty local storage) as a Selenium driver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = _found(CHROMIUM) or CHROMIUM[0]
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(_found(CHROMEDRIVER) or CHROMEDRIVER[0]), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(condition, timeout: float = 60.0, what: str = "the page"):
    """Poll ``condition()`` until it returns something truthy; return that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.25)
    raise TimeoutError(f"{what} did not appear within {timeout:.0f} s")


def runs_table(driver) -> tuple[list[str], list[dict[str, str]]]:
    """The runs table as shown: the column ids in display order, and each row's text by column id, rows in
    display order (runs only, not group headers). Column ids are the UI's (``params.`lr```,
    ``metrics.`epsilon_spent```, ``attributes.`Run Name```)."""
    columns = driver.execute_script(
        "return Array.from(document.querySelectorAll('.ag-header-row-column .ag-header-cell'))"
        ".sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)"
        ".map(e => e.getAttribute('col-id'))"
    )
    rows = driver.execute_script(
        "const rows = {};"
        "for (const row of document.querySelectorAll('.ag-row')) {"  # pinned and scrolled parts
        "  const cells = {};"
        "  for (const cell of row.querySelectorAll('.ag-cell')) cells[cell.getAttribute('col-id')] ="
        "    cell.innerText.trim();"
        "  const index = row.getAttribute('row-index');"
        "  rows[index] = Object.assign(rows[index] || {}, cells);"
        "}"
        "return Object.values(rows);"
    )
    groups = ("Group:", "Additional runs")
    return columns, [row for row in rows if not row.get("attributes.`Run Name`", "").startswith(groups)]


def first_visit(driver, base_url: str) -> None:
    """Local storage as a user who closed MLflow's assistant panel has it (for screenshots)."""
    driver.get(base_url)
    for key, value in FIRST_VISIT.items():
        driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", key, value)


def screenshot(driver, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    return path
