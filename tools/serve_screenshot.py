"""Take the docs' screenshot of `plausibility serve`'s page (docs/images/serve.png) in headless Chromium.

It starts the server on a free port of 127.0.0.1 with the models named (default: the default model and the
shipped ConceptMax, side by side), types the events, scores them, opens the first one's explanation and a
concept's gloss, and saves the page. Needs Debian's `chromium` and `chromium-driver`.

    .venv/bin/python tools/serve_screenshot.py [--model SPEC ...] [--output docs/images/serve.png]
"""

import argparse
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

EVENTS = "dentist breathe helium\nperson eat apples\nrock eat sandwich"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", metavar="SPEC", help="a model to serve (repeatable)")
    parser.add_argument("--output", type=Path, default=Path("docs/images/serve.png"))
    parser.add_argument("--concept", default="person.n.01", help="the concept whose gloss is opened")
    parser.add_argument("--size", default="1280,1160", help="the window's width,height in pixels")
    args = parser.parse_args()
    models = args.model or ["default", "conceptmax"]
    command = [str(Path(sys.executable).with_name("plausibility")), "-q", "serve", "--port", "0"]
    server = subprocess.Popen(
        command + [word for spec in models for word in ("--model", spec)], stdout=subprocess.PIPE, text=True
    )
    try:
        ready, _, _ = select.select([server.stdout], [], [], 600)
        line = server.stdout.readline() if ready else ""
        if not line.startswith("serving "):
            sys.exit(f"the server did not start: {line!r}")
        url = line.split(" at ")[-1].strip()
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
            options.add_argument(argument)
        options.add_argument(f"--window-size={args.size}")
        browser = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
        try:
            wait = WebDriverWait(browser, 600)
            browser.get(url)
            wait.until(lambda page: page.find_element(By.ID, "score").is_enabled())
            browser.find_element(By.ID, "events").send_keys(EVENTS)
            browser.find_element(By.ID, "score").click()
            wait.until(lambda page: page.find_elements(By.CSS_SELECTOR, "#max-grid rect.cell"))
            browser.find_element(By.CSS_SELECTOR, f'#raw-grid a.concept[data-synset="{args.concept}"]').click()
            wait.until(lambda page: page.find_element(By.ID, "gloss").is_displayed())
            args.output.parent.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(args.output))
        finally:
            browser.quit()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    print(f"wrote {args.output} from {url} ({', '.join(models)})")


if __name__ == "__main__":
    main()
