"""The page, in headless Chromium against a live `plausibility serve`: it shows the API's numbers and grids.

Debian's `chromium` and `chromium-driver` drive it (`.ci/run` installs them). Without them the test is skipped,
except under CI (CI=true), where it fails.
"""

import os
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

FIXTURES = Path(__file__).parents[1] / "fixtures"
NGRAM = f"ngram:{FIXTURES / 'ngram_triples.tsv'}"
MODELS = [NGRAM, f"conceptmax:{NGRAM}"]
EVENT = ["dentist", "breathe", "helium"]


def _chromium() -> tuple[str, str]:
    """Debian's Chromium and its driver; skipped where they are missing, unless under CI."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    missing = " and ".join(name for name, found in (("chromium", browser), ("chromedriver", driver)) if not found)
    reason = f"{missing} not found; install them: apt-get install chromium chromium-driver"
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(f"under CI the browser test must run: {reason}")
    pytest.skip(reason)


@contextmanager
def _served(log: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """`plausibility serve` on a free port of 127.0.0.1, stopped with SIGTERM as a service manager stops it."""
    command = [str(Path(sys.executable).with_name("plausibility")), "serve", "--port", "0"]
    command += [argument for spec in MODELS for argument in ("--model", spec)]
    with log.open("w") as errors:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            ready, _, _ = select.select([server.stdout], [], [], 300)
            line = server.stdout.readline() if ready else ""
            assert line.startswith("serving "), f"the server did not start: {line!r}\n{log.read_text()}"
            yield line.split(" at ")[-1].strip(), server
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


@contextmanager
def _browser(binary: str, driver: str) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1400,1100")
    browser = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield browser
    finally:
        browser.quit()


@pytest.mark.slow
def test_the_page_shows_the_apis_probabilities_and_a_heatmap_cell_per_grid_cell(tmp_path: Path) -> None:
    binary, driver = _chromium()
    with _served(tmp_path / "server.log") as (url, server), _browser(binary, driver) as page:
        wait = WebDriverWait(page, 60)
        page.get(url)
        wait.until(lambda page: page.find_element(By.ID, "score").is_enabled())
        events = page.find_element(By.ID, "events")
        events.send_keys("person eat")
        page.find_element(By.ID, "score").click()
        assert (
            page.find_element(By.ID, "error").text
            == 'line 1: "person eat" has 2 words; give three: subject verb object'
        )

        events.clear()
        events.send_keys(" ".join(EVENT))
        page.find_element(By.ID, "score").click()
        wait.until(lambda page: page.find_elements(By.CSS_SELECTOR, "#max-grid rect.cell"))
        assert not page.find_element(By.ID, "error").is_displayed()

        shown = page.find_elements(By.CSS_SELECTOR, "#score-body td.probability")
        assert [cell.get_attribute("data-model") for cell in shown] == MODELS
        for cell, model in zip(shown, MODELS, strict=True):
            answer = httpx.post(f"{url}v1/score", json={"triples": [EVENT], "model": model}).json()
            probability = answer["results"][0]["probability"]
            assert float(cell.get_attribute("data-probability")) == probability
            assert cell.text == f"{probability:.4f}"

        explained = httpx.post(f"{url}v1/explain", json={"triples": [EVENT], "top": 5}).json()["results"][0]
        grid = explained["grid"]
        for svg, values in (("raw-grid", grid["probabilities"]), ("max-grid", grid["running_maximum"])):
            cells = page.find_elements(By.CSS_SELECTOR, f"#{svg} rect.cell")
            assert len(cells) == len(grid["subjects"]) * len(grid["objects"])
            assert [float(cell.get_attribute("data-probability")) for cell in cells] == [
                v for row in values for v in row
            ]
            chosen = page.find_elements(By.CSS_SELECTOR, f"#{svg} rect.cell.chosen")
            assert [(int(c.get_attribute("data-row")), int(c.get_attribute("data-column"))) for c in chosen] == [
                tuple(grid["best"])
            ]
            hover = cells[0].find_element(By.TAG_NAME, "title").get_attribute("textContent")
            first = f"{grid['subjects'][0]['text']} breathe {grid['objects'][0]['text']}"
            assert hover == f"{first}: {values[0][0]:.4f}"
        assert explained["explanation"]["best"] in page.find_element(By.ID, "explanation-text").text

        subject = grid["subjects"][0]["synset"]
        page.find_element(By.CSS_SELECTOR, f'#raw-grid a.concept[data-synset="{subject}"]').click()
        wait.until(lambda page: page.find_element(By.ID, "gloss").is_displayed())
        gloss = httpx.get(f"{url}v1/concept/{subject}").json()
        assert page.find_element(By.CSS_SELECTOR, "#gloss .definition").text == gloss["definition"]
        page.save_screenshot(str(tmp_path / "serve-page.png"))
        assert (tmp_path / "serve-page.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        page.get(f"{url}docs")  # the API's own docs, from files the package installs
        wait.until(lambda page: "plausibility" in page.find_element(By.CSS_SELECTOR, ".swagger-ui .info .title").text)
    assert server.returncode == 143  # SIGTERM, handled as the command line documents
