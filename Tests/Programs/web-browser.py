#!/usr/bin/python3
"""pipcam's web page in a real browser (Debian's headless Chromium through its WebDriver), for the web
page tests. Opens http://127.0.0.1:PORT/, waits for the live picture and the WebSocket, then:

  - saves the live picture as OUT/before.png;
  - reads each microphone's meter ten times a second for three seconds;
  - clicks Swap and saves the picture ten times, 0.4 s apart (OUT/after-0.png …);
  - with --record, clicks Record, waits for two seconds of recording, clicks Marker, then Pause, waits
    for a second of the pause, clicks Resume, then Stop, and waits for the page to say it is live again.

    web-browser.py PORT OUT [--record]

Prints one JSON object: the meters' readings by microphone, the pictures saved, the states seen. Every
wait is bounded; a wait that runs out ends the program with status 2 and what it waited for.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

port, out = int(sys.argv[1]), sys.argv[2]
record = "--record" in sys.argv[3:]

options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=720,1600",
                 "--force-device-scale-factor=1", f"--user-data-dir={out}/profile", "--no-first-run"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_page_load_timeout(20)


def wait_for(what, condition, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    print(json.dumps({"timeout": what, "state": driver.find_element(By.ID, "state").text,
                      "error": driver.find_element(By.ID, "error").text}))
    driver.quit()
    sys.exit(2)


def state():
    return driver.find_element(By.ID, "state").text


try:
    driver.get(f"http://127.0.0.1:{port}/")
    picture = driver.find_element(By.ID, "picture")
    wait_for("the live picture", lambda: driver.execute_script("return arguments[0].naturalWidth", picture) > 0)
    wait_for("the WebSocket", lambda: state() in ("live", "recording"))
    wait_for("the meters", lambda: driver.find_elements(By.CSS_SELECTOR, "meter"))
    picture.screenshot(f"{out}/before.png")
    meters = {}
    for _ in range(30):
        for meter in driver.find_elements(By.CSS_SELECTOR, "meter"):
            meters.setdefault(meter.get_attribute("id")[len("meter-"):], []).append(float(meter.get_attribute("value")))
        time.sleep(0.1)
    driver.find_element(By.ID, "swap").click()
    shots = []
    for index in range(10):
        time.sleep(0.4)
        picture.screenshot(f"{out}/after-{index}.png")
        shots.append(f"{out}/after-{index}.png")
    states = [state()]
    if record:
        driver.find_element(By.ID, "record").click()
        wait_for("the recording to start", lambda: state() == "recording")
        states.append(state())
        wait_for("two seconds recorded", lambda: driver.find_element(By.ID, "elapsed").text >= "00:02")
        driver.find_element(By.ID, "marker").click()
        wait_for("the marker", lambda: "1 markers" in driver.find_element(By.ID, "elapsed").text)
        driver.find_element(By.ID, "pause").click()
        wait_for("the pause", lambda: state().startswith("paused"))
        states.append("paused")
        wait_for("a second of the pause", lambda: state() >= "paused 00:01")
        driver.find_element(By.ID, "pause").click()
        wait_for("the resume", lambda: state() == "recording")
        states.append(state())
        driver.find_element(By.ID, "stop").click()
        wait_for("the recording to stop", lambda: state() == "live")
        states.append(state())
    print(json.dumps({"meters": meters, "shots": shots, "states": states,
                      "size": [picture.size["width"], picture.size["height"]]}))
finally:
    driver.quit()
