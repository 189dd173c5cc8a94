#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Browser test of slidedb-serve's web page (serve/web/), in headless Chromium.

Run with Debian's Python, selenium (python3-selenium) and pytest (python3-pytest),
Chromium and chromedriver (chromium, chromium-driver):

    SLIDEDB_SERVE=build/slidedb-serve SLIDEDB_GEN=build/slidedb-gen \\
    SLIDEDB_TEST_TMP=$(mktemp -d) /usr/bin/python3 tests/browser/test_page.py

(or `/usr/bin/python3 -m pytest -p no:cacheprovider -s tests/browser/test_page.py`).
It builds a 3x3 database in SLIDEDB_TEST_TMP, starts the server on a free port of
127.0.0.1, plays the page (scramble, a click, an arrow key, a hint, the solver,
a pasted board, a phone-sized window, a link to a position, a change of size),
writes the screenshots page.png (solved),
page-hint.png and page-phone.png there, and stops the server with SIGTERM (it
must exit 0).
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = os.environ.get("SLIDEDB_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SLIDEDB_CHROMEDRIVER", "/usr/bin/chromedriver")
PAGE_FILES = ("/", "/app.js", "/style.css")
PAGE_LIMIT = 100 * 1000          # bytes, the three files together
STEP = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
# The page's convention: an arrow key slides the TILE the arrow's way, so the
# blank travels the other way (ArrowUp is the move 'd').
ARROW_FOR_MOVE = {"d": Keys.ARROW_UP, "u": Keys.ARROW_DOWN, "r": Keys.ARROW_LEFT, "l": Keys.ARROW_RIGHT}
W = H = 3
GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0]


def need_env(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"set {name} (SLIDEDB_SERVE and SLIDEDB_GEN: the programs; "
                    f"SLIDEDB_TEST_TMP: a scratch folder)")
    return value


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Straight to 127.0.0.1, whatever http_proxy says.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_get(url, timeout=10):
    """(status, body bytes, headers) of a GET, errors included."""
    try:
        with OPENER.open(url, timeout=timeout) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers


def api(base, path, **params):
    import json
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    status, body, _ = http_get(f"{base}{path}?{query}")
    assert status == 200, f"{path} {params}: {status} {body!r}"
    return json.loads(body)


def board_str(cells):
    return " ".join(map(str, cells))


def neighbour(cell, move):
    x, y = cell % W + STEP[move][0], cell // W + STEP[move][1]
    return y * W + x if 0 <= x < W and 0 <= y < H else -1


@pytest.fixture(scope="module")
def tmp():
    path = need_env("SLIDEDB_TEST_TMP")
    os.makedirs(path, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server(tmp):
    serve, gen = need_env("SLIDEDB_SERVE"), need_env("SLIDEDB_GEN")
    db = os.path.join(tmp, "page.lmdb")
    for stale in (db, db + "-lock"):
        if os.path.exists(stale):
            os.remove(stale)
    for size in ("3x3", "2x3"):
        subprocess.run([gen, "full", size, "--db", db, "-q"], check=True, timeout=60)
    subprocess.run([gen, "full", "3x3", "--metric", "mtm", "--db", db, "-q"], check=True,
                   timeout=60)
    proc = base = None
    for _ in range(3):   # a port taken between free_port() and the bind: try another
        port = free_port()
        log = open(os.path.join(tmp, "serve.log"), "wb")
        proc = subprocess.Popen([serve, "--db", db, "--listen", f"127.0.0.1:{port}", "-q"],
                                stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 10
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                status, body, _ = http_get(base + "/healthz", timeout=1)
                if status == 200 and body.strip() == b"ok":
                    break
            except OSError:
                pass
            time.sleep(0.05)
        else:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
                pytest.fail("slidedb-serve did not answer /healthz within 10 s")
            continue        # it exited: maybe the port was taken
        break
    else:
        pytest.fail(f"slidedb-serve would not start: see {tmp}/serve.log")
    yield base
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("slidedb-serve did not stop within 10 s of SIGTERM")
    log.close()
    with open(os.path.join(tmp, "serve.log"), errors="replace") as f:
        output = f.read()[-4000:]
    assert rc == 0, f"slidedb-serve exited {rc} on SIGTERM: {output}"


@pytest.fixture(scope="module")
def driver(tmp):
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,1000", "--hide-scrollbars", "--no-first-run",
                "--disable-extensions", "--force-prefers-reduced-motion",
                f"--user-data-dir={os.path.join(tmp, 'chromium-profile')}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    d.set_page_load_timeout(20)
    yield d
    d.quit()


# --- Reading the page.

READ_BOARD = """
const b = document.getElementById('board');
const tiles = Array.from(b.querySelectorAll('[data-tile]')).map(
    e => [Number(e.dataset.tile), Number(e.dataset.cell), e.classList.contains('hint')]);
return {size: b.dataset.size, distance: b.dataset.distance, state: b.dataset.state,
        delta: b.dataset.delta || '', tiles: tiles};
"""


def read(driver):
    """The board as the DOM has it: size, distance, state, cells, hinted tiles."""
    r = driver.execute_script(READ_BOARD)
    n = len(r["tiles"])
    cells = [None] * n
    for tile, cell, _ in r["tiles"]:
        assert 0 <= cell < n and cells[cell] is None, f"two tiles in cell {cell}: {r}"
        cells[cell] = tile
    assert sorted(cells) == list(range(n)), f"tiles are not 0..{n - 1}: {r}"
    r["cells"] = cells
    r["hinted"] = sorted(t for t, _, h in r["tiles"] if h)
    return r


def wait(driver, what, cond, timeout=10):
    """Wait until cond(read(driver)) and return that reading."""
    seen = {}

    def check(_):
        seen["r"] = read(driver)
        return seen["r"] if cond(seen["r"]) else False
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(check)
    except Exception as e:
        status = driver.find_element(By.ID, "status").text
        raise AssertionError(f"waiting for {what}: last {seen.get('r')}, status {status!r}") from e


def settled(driver, what):
    """The board once its distance is known."""
    return wait(driver, what, lambda r: r["state"] == "ready" and r["distance"] != "")


def distance_of(base, cells):
    a = api(base, "/v1/solve", start=board_str(cells), goal=board_str(GOAL), all_best=1)
    assert a["solvable"] is True
    return a


def check_tiles_drawn(driver, r):
    """Each tile is drawn in the cell its data-cell names."""
    rects = driver.execute_script("""
        const box = document.getElementById('board').getBoundingClientRect();
        return Array.from(document.querySelectorAll('#board [data-tile]')).map(e => {
            const t = e.getBoundingClientRect();
            return [Number(e.dataset.tile), (t.left + t.width / 2 - box.left) / box.width,
                    (t.top + t.height / 2 - box.top) / box.height];
        });""")
    for tile, fx, fy in rects:
        cell = r["cells"].index(tile)
        assert int(fx * W) == cell % W and int(fy * H) == cell // W, \
            f"tile {tile} drawn at ({fx:.2f}, {fy:.2f}), not in cell {cell}"


# --- The tests.

def test_page_files(server):
    total = 0
    for path in PAGE_FILES:
        status, body, headers = http_get(server + path)
        assert status == 200, f"{path}: {status}"
        total += len(body)
        text = body.decode("utf-8")
        assert "http://" not in text and "https://" not in text, f"{path} names an external URL"
        kind = {"/": "text/html", "/app.js": "javascript", "/style.css": "text/css"}[path]
        assert kind in headers.get("Content-Type", ""), f"{path}: {headers.get('Content-Type')}"
    assert total < PAGE_LIMIT, f"the page weighs {total} bytes"
    html = http_get(server + "/")[1].decode()
    links = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html)
    assert sorted(links) == ["app.js", "data:,", "style.css"], links
    print(f"page: {total} bytes")


def test_play(server, driver, tmp):
    driver.get(server + "/")
    r = wait(driver, "the page to load", lambda r: r["size"] == "3x3" and r["state"] == "ready")
    assert driver.find_element(By.ID, "size").get_attribute("value") == "3x3"
    board = driver.find_element(By.ID, "board")
    assert board.get_attribute("tabindex") == "0"
    for id_ in ("hint", "solve", "scramble", "distance", "paste", "load", "goal", "set-goal",
                "size", "chart", "status"):
        driver.find_element(By.ID, id_)
    assert driver.find_element(By.ID, "goal").get_attribute("value").split() == \
        board_str(GOAL).split()

    # A board that is not one: the server's reason, in the page's words (not
    # the API's "start: tile 8 appears twice").
    paste = driver.find_element(By.ID, "paste")
    paste.clear()
    paste.send_keys("1 2 3 4 5 6 7 8 8")
    driver.find_element(By.ID, "load").click()
    WebDriverWait(driver, 10).until(
        lambda d: "tile 8 twice" in d.find_element(By.ID, "status").text)
    said = driver.find_element(By.ID, "status").text
    assert said.startswith("The board has tile 8 twice") and "start:" not in said, said
    # A board in another notation.
    paste.clear()
    paste.send_keys("[[1,2,3],[x,4,6],[7,5,8]]")
    driver.find_element(By.ID, "load").click()
    r = wait(driver, "the pasted board", lambda r: r["cells"] == [1, 2, 3, 0, 4, 6, 7, 5, 8]
             and r["state"] == "ready")
    assert r["distance"] == "3"

    # Scramble to 8 moves; record what the page fetches to compare with the DOM.
    driver.execute_script("""
        window.__answers = [];
        const f = window.fetch;
        window.fetch = (...a) => f(...a).then(res => {
            res.clone().json().then(j => window.__answers.push([String(a[0]), j]), () => {});
            return res;
        });""")
    distance = driver.find_element(By.ID, "distance")
    assert distance.get_attribute("max") == "31"
    distance.clear()
    distance.send_keys("8")
    driver.find_element(By.ID, "scramble").click()
    r = wait(driver, "distance 8", lambda r: r["distance"] == "8" and r["state"] == "ready")
    drawn = [j for url, j in driver.execute_script("return window.__answers")
             if url.startswith("v1/random")]
    assert len(drawn) == 1 and drawn[0][0]["distance"] == 8, drawn
    assert r["cells"] == [int(t) for t in drawn[0][0]["start"].split()]
    assert distance_of(server, r["cells"])["distance"] == 8
    check_tiles_drawn(driver, r)
    assert driver.find_element(By.CSS_SELECTOR, "#chart .bar.current") is not None

    # A move by click: the distance changes by one, as the API says.
    before, d0 = r["cells"], 8
    blank = before.index(0)
    move = next(m for m in "udlr" if neighbour(blank, m) >= 0)
    tile = before[neighbour(blank, move)]
    driver.find_element(By.CSS_SELECTOR, f'#board [data-tile="{tile}"]').click()
    r = wait(driver, "the clicked move", lambda r: r["cells"] != before and r["state"] == "ready"
             and r["distance"] != "")
    assert r["cells"][blank] == tile and r["cells"][neighbour(blank, move)] == 0
    d1 = int(r["distance"])
    assert abs(d1 - d0) == 1 and distance_of(server, r["cells"])["distance"] == d1
    assert r["delta"] == ("closer" if d1 < d0 else "further")

    # A move by keyboard: ArrowUp slides the tile below the blank up (move 'd').
    before = r["cells"]
    blank = before.index(0)
    move = next(m for m in "dulr" if neighbour(blank, m) >= 0)
    tile = before[neighbour(blank, move)]
    driver.execute_script("arguments[0].focus()", board)
    assert driver.switch_to.active_element == board
    ActionChains(driver).send_keys(ARROW_FOR_MOVE[move]).perform()
    r = wait(driver, "the keyboard move", lambda r: r["cells"] != before and r["state"] == "ready"
             and r["distance"] != "")
    assert r["cells"][blank] == tile and r["cells"][neighbour(blank, move)] == 0, \
        f"{ARROW_FOR_MOVE[move]!r} did not slide tile {tile}"
    d2 = int(r["distance"])
    assert abs(d2 - d1) == 1 and distance_of(server, r["cells"])["distance"] == d2

    # The hint highlights exactly the tiles of the best moves.
    best = distance_of(server, r["cells"])["best_moves"]
    blank = r["cells"].index(0)
    want = sorted(r["cells"][neighbour(blank, m)] for m in best)
    driver.find_element(By.ID, "hint").click()
    r = wait(driver, "the hint", lambda r: r["hinted"])
    assert r["hinted"] == want, f"best moves {best!r}: highlighted {r['hinted']}, want {want}"
    hint_shot = os.path.join(tmp, "page-hint.png")
    driver.save_screenshot(hint_shot)
    print(f"screenshot: {hint_shot}")

    # The solver can be stopped: press Solve, then Stop after its first move.
    solve = driver.find_element(By.ID, "solve")
    solve.click()
    r = wait(driver, "the solver's first move", lambda r: r["distance"] != "" and int(r["distance"]) < d2)
    assert r["distance"] == "0" or solve.get_attribute("aria-pressed") == "true"
    solve.click()
    assert solve.text == "Solve" and solve.get_attribute("aria-pressed") == "false"
    stopped = read(driver)
    time.sleep(0.7)
    r = read(driver)
    assert r["cells"] == stopped["cells"] and r["distance"] == stopped["distance"], "the solver did not stop"
    d2 = int(r["distance"])

    # The solver plays to the goal, one move per ~300 ms.
    t0 = time.monotonic()
    solve.click()
    r = wait(driver, "the solver", lambda r: r["distance"] == "0", timeout=d2 * 0.3 + 10)
    assert r["cells"] == GOAL and r["state"] == "ready"
    assert time.monotonic() - t0 >= (d2 - 1) * 0.25, "the solution was not animated"
    want_status = "Solved" if d2 else "Already at the goal"   # (a very slow run)
    WebDriverWait(driver, 5).until(lambda d: want_status in d.find_element(By.ID, "status").text)
    assert driver.find_element(By.ID, "solve").text == "Solve"

    shot = os.path.join(tmp, "page.png")
    driver.save_screenshot(shot)
    print(f"screenshot: {shot}")

    # On a phone-sized window nothing overflows sideways and the board fits.
    driver.set_window_size(390, 844)
    fits = driver.execute_script("""
        const b = document.getElementById('board').getBoundingClientRect();
        return [document.documentElement.scrollWidth, window.innerWidth, b.left, b.right];""")
    assert fits[0] <= fits[1] and fits[2] >= 0 and fits[3] <= fits[1], fits
    phone = os.path.join(tmp, "page-phone.png")
    driver.save_screenshot(phone)
    print(f"screenshot: {phone}")

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
              and "Failed to load resource" not in e["message"]]
    assert not errors, errors


def hash_position(driver):
    """The position the page's address names: (size, board cells, goal cells)."""
    q = urllib.parse.parse_qs(driver.execute_script("return location.hash").lstrip("#"))
    return (q["size"][0], [int(t) for t in q["board"][0].split(",")],
            [int(t) for t in q["goal"][0].split(",")])


def status_text(driver):
    return driver.find_element(By.ID, "status").text


def test_a_link_opens_the_position(server, driver):
    """A teacher shares a position: the board, its size and the goal are in the
    address, kept as the board changes, and a link opens them."""
    board = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    driver.get(server + "/#size=3x3&board=" + ",".join(map(str, board)) +
               "&goal=1,2,3,4,5,6,7,8,0")
    r = wait(driver, "the linked board", lambda r: r["cells"] == board and r["state"] == "ready")
    assert r["size"] == "3x3" and r["distance"] == "31", r
    assert hash_position(driver) == ("3x3", board, GOAL)
    # a move: the address follows the board
    blank = board.index(0)
    tile = board[neighbour(blank, "u")]
    driver.find_element(By.CSS_SELECTOR, f'#board [data-tile="{tile}"]').click()
    r = wait(driver, "the move", lambda r: r["cells"] != board and r["state"] == "ready")
    size, cells, goal = hash_position(driver)
    assert (size, cells, goal) == ("3x3", r["cells"], GOAL), (size, cells, r["cells"])
    link = driver.execute_script("return location.href")
    # the link, opened afresh, shows the same position
    driver.get("about:blank")
    driver.get(link)
    r = wait(driver, "the shared position", lambda r: r["cells"] == cells and r["state"] == "ready")
    assert r["distance"] == "30" or r["distance"] == "32", r
    # another size and goal, and a board in any notation the API reads
    driver.get(server + "/#size=2x3&board=1,2,3,4,0,5&goal=0,1,2,3,4,5")
    r = wait(driver, "the 2x3 link", lambda r: r["size"] == "2x3" and r["cells"] == [1, 2, 3, 4, 0, 5]
             and r["state"] == "ready")
    goal_box = driver.find_element(By.ID, "goal").get_attribute("value")
    assert goal_box == "0 1\n2 3\n4 5", goal_box   # a line per row
    assert int(r["distance"]) == api(server, "/v1/solve", start="1 2 3 4 0 5",
                                     goal="0 1 2 3 4 5")["distance"]
    driver.get(server + "/#board=" + urllib.parse.quote("[[1,2,3],[x,4,6],[7,5,8]]"))
    r = wait(driver, "a bracketed board", lambda r: r["cells"] == [1, 2, 3, 0, 4, 6, 7, 5, 8]
             and r["state"] == "ready")
    assert hash_position(driver) == ("3x3", [1, 2, 3, 0, 4, 6, 7, 5, 8], GOAL)
    # a broken link: said in the page's words, and a board to play all the same
    driver.get("about:blank")
    driver.get(server + "/#size=3x3&board=1,2,3,4,5,6,7,8,8")
    WebDriverWait(driver, 10).until(lambda d: "tile 8 twice" in status_text(d))
    assert "cannot be opened" in status_text(driver) and "start:" not in status_text(driver)
    wait(driver, "a board to play", lambda r: r["size"] == "3x3" and r["state"] == "ready")


def test_multi_tile_play(server, driver):
    """A speedsolver's page: in MTM a click on any tile of the blank's line slides
    the tiles between them, one move; hints and solutions count slides; the
    link keeps the metric; back in STM the same board is farther."""
    driver.get("about:blank")
    driver.get(server + "/#size=3x3&board=1,2,3,4,5,6,0,7,8&metric=mtm")
    r = wait(driver, "the linked MTM board", lambda r: r["cells"] == [1, 2, 3, 4, 5, 6, 0, 7, 8]
             and r["state"] == "ready")
    assert r["distance"] == "1", r
    assert driver.find_element(By.ID, "metric").get_attribute("value") == "mtm"
    # tile 8, two cells right of the blank: one click, one move, the goal
    driver.find_element(By.CSS_SELECTOR, '#board [data-tile="8"]').click()
    r = wait(driver, "the slide", lambda r: r["cells"] == GOAL and r["state"] == "ready")
    assert r["distance"] == "0"
    assert driver.find_element(By.ID, "counter").text == "1 move made"
    assert "metric=mtm" in driver.execute_script("return location.hash")
    # a tile off the blank's line does not move
    driver.find_element(By.ID, "undo").click()
    wait(driver, "the undo", lambda r: r["cells"] == [1, 2, 3, 4, 5, 6, 0, 7, 8] and r["state"] == "ready")
    driver.find_element(By.CSS_SELECTOR, '#board [data-tile="2"]').click()
    WebDriverWait(driver, 5).until(lambda d: "row or column" in status_text(d))
    # the hardest STM board: 20 slides; the hint marks the tile to click, Solve plays slides
    hard = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    driver.get(server + "/#size=3x3&board=" + ",".join(map(str, hard)) + "&metric=mtm")
    r = wait(driver, "the hard board", lambda r: r["cells"] == hard and r["state"] == "ready")
    assert r["distance"] == "20", r
    want = api(server, "/v1/solve", start=board_str(hard), metric="mtm")
    driver.find_element(By.ID, "hint").click()
    r = wait(driver, "the hint", lambda r: any(h for _, _, h in r["tiles"]))
    d, k = want["moves"][0], int(re.match(r"[udlr](\d*)", want["moves"]).group(1) or 1)
    cell = hard.index(0)
    for _ in range(k):
        cell = neighbour(cell, d)
    assert [t for t, _, h in r["tiles"] if h] == [hard[cell]], (r["tiles"], want["moves"])
    driver.find_element(By.ID, "solve").click()
    WebDriverWait(driver, 30).until(lambda d: "Solved" in status_text(d))
    r = read(driver)
    assert r["cells"] == GOAL and r["distance"] == "0"
    assert "20 moves" in status_text(driver), status_text(driver)
    # the same board in STM: farther, and the link drops the metric
    driver.get(server + "/#size=3x3&board=" + ",".join(map(str, hard)) + "&metric=mtm")
    wait(driver, "the hard board again", lambda r: r["cells"] == hard and r["state"] == "ready")
    Select(driver.find_element(By.ID, "metric")).select_by_value("stm")
    r = wait(driver, "the STM distance", lambda r: r["distance"] == "31" and r["state"] == "ready")
    assert "metric" not in driver.execute_script("return location.hash")


@pytest.fixture(scope="module")
def search_server(tmp):
    """A server whose 4x4 and 5x5 boards are searched (a 5-5-5 set, a small
    partial one) within 2000 nodes: a hard position is one it gives up on."""
    serve, gen = need_env("SLIDEDB_SERVE"), need_env("SLIDEDB_GEN")
    db = os.path.join(tmp, "search.lmdb")
    for stale in (db, db + "-lock"):
        if os.path.exists(stale):
            os.remove(stale)
    subprocess.run([gen, "full", "3x3", "--db", db, "-q"], check=True, timeout=60)
    subprocess.run([gen, "pdb", "4x4", "--partition", "5-5-5", "--db", db, "-q"], check=True,
                   timeout=300)
    subprocess.run([gen, "pdb", "5x5", "--partition", "1,2,3/4,5", "--partial", "--db", db, "-q"],
                   check=True, timeout=300)   # (a small set: 5x5 is played, by search)
    port = free_port()
    proc = subprocess.Popen([serve, "--db", db, "--listen", f"127.0.0.1:{port}", "-q",
                             "--max-nodes", "2000"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if http_get(base + "/healthz", timeout=1)[0] == 200:
                break
        except OSError:
            time.sleep(0.05)
    yield base
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0


HARD_4X4 = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1]


def test_a_link_the_search_gives_up_on_still_opens(search_server, driver):
    """Korf's #40 as a link showed a solved 3x3 board and "cannot be opened":
    the page asked for every best move (a search per move) and threw the
    position away when the search gave up. The position stays; its distance is
    "not known yet"."""
    goal = list(range(1, 16)) + [0]
    driver.get("about:blank")
    driver.get(search_server + "/#size=4x4&board=" + ",".join(map(str, HARD_4X4)) +
               "&goal=" + ",".join(map(str, goal)))
    r = wait(driver, "the linked position, given up on",
             lambda r: r["cells"] == HARD_4X4 and r["state"] == "unknown", timeout=30)
    assert r["size"] == "4x4", r
    assert driver.find_element(By.ID, "readout-value").text == "not known yet"
    assert "not known yet" in status_text(driver) and "cannot be opened" not in status_text(driver)
    assert hash_position(driver) == ("4x4", HARD_4X4, goal)
    # one move from the goal is answered, and the readout says its distance
    near = goal[:14] + [0, 15]
    driver.get("about:blank")
    driver.get(search_server + "/#size=4x4&board=" + ",".join(map(str, near)))
    r = wait(driver, "an easy 4x4 link", lambda r: r["cells"] == near and r["state"] == "ready",
             timeout=30)
    assert r["distance"] == "1", r


def test_the_15_puzzle_in_the_multi_tile_metric(search_server, driver):
    """Past 14 cells there are no MTM tables: the server searches, the page says
    so, shows the distance in slides and hints the tile to click."""
    goal = list(range(1, 16)) + [0]
    # the blank slid three cells left, then two up: two slides from the goal
    board = [1, 2, 3, 4, 0, 6, 7, 8, 5, 10, 11, 12, 9, 13, 14, 15]
    driver.get("about:blank")
    driver.get(search_server + "/#size=4x4&board=" + ",".join(map(str, board)) + "&metric=mtm")
    r = wait(driver, "the MTM 4x4 board", lambda r: r["cells"] == board and r["state"] == "ready",
             timeout=60)
    assert r["distance"] == "2", r
    assert "search" in driver.find_element(By.ID, "metric-note").text
    want = api(search_server, "/v1/solve", start=board_str(board), goal=board_str(goal),
               metric="mtm")
    assert want["moves"] == "d2r3", want
    driver.find_element(By.ID, "hint").click()
    r = wait(driver, "the hint", lambda r: any(h for _, _, h in r["tiles"]), timeout=30)
    assert [t for t, _, h in r["tiles"] if h] == [9], r["tiles"]


def test_a_link_of_a_size_without_tables_says_so(server, driver):
    """A 4x4 link on a server without 4x4 tables said "choose the board size
    first", though the link gave the size: the page now says what the API says."""
    driver.get("about:blank")
    driver.get(server + "/#size=4x4&board=" + ",".join(map(str, HARD_4X4)))
    WebDriverWait(driver, 10).until(lambda d: "cannot be opened" in status_text(d))
    said = status_text(driver)
    assert "no tables for 4x4 boards" in said and "choose the board size" not in said, said
    wait(driver, "a board to play", lambda r: r["size"] == "3x3" and r["state"] == "ready")


def test_board_and_goal_boxes_show_a_whole_5x5_board(search_server, driver):
    """The Board and Goal fields cut a 5x5 board off: they are boxes of a line
    per row now, every row whole."""
    korf1 = [14, 5, 9, 2, 18, 8, 23, 19, 12, 17, 15, 0, 10, 20, 4, 6, 11, 21, 1, 7, 24, 3, 16,
             22, 13]
    driver.get("about:blank")
    driver.get(search_server + "/#size=5x5&board=" + ",".join(map(str, korf1)))
    wait(driver, "the 5x5 board", lambda r: r["size"] == "5x5" and r["cells"] == korf1, timeout=30)
    for box in ("goal", "paste"):
        fits = driver.execute_script(
            "var e = document.getElementById(arguments[0]);"
            "return [e.scrollWidth <= e.clientWidth, e.scrollHeight <= e.clientHeight, e.rows];",
            box)
        assert fits == [True, True, 5], (box, fits)
    rows = driver.find_element(By.ID, "goal").get_attribute("value").split("\n")
    assert rows == ["1 2 3 4 5", "6 7 8 9 10", "11 12 13 14 15", "16 17 18 19 20",
                    "21 22 23 24 0"], rows
    # Enter in a box of rows sets the goal, as in a one-line field
    box = driver.find_element(By.ID, "goal")
    box.clear()
    box.send_keys(" ".join(map(str, range(25))) + "\n")
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "goal").get_attribute("value").split("\n")[-1] ==
        "20 21 22 23 24")


def test_size_change_resets_the_board_box(server, driver):
    driver.get("about:blank")
    driver.get(server + "/")
    wait(driver, "the page to load", lambda r: r["size"] == "3x3" and r["state"] == "ready")
    paste = driver.find_element(By.ID, "paste")
    paste.clear()
    paste.send_keys("1 2 3 x 4 6 7 5 8")
    driver.find_element(By.ID, "load").click()
    wait(driver, "the pasted board", lambda r: r["cells"] == [1, 2, 3, 0, 4, 6, 7, 5, 8])
    assert paste.get_attribute("value") == "1 2 3 x 4 6 7 5 8"
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element(By.ID, "size")).select_by_value("2x3")
    r = wait(driver, "the 2x3 board", lambda r: r["size"] == "2x3" and r["state"] == "ready")
    assert paste.get_attribute("value") == "", "the 3x3 text is still in the board box"
    example = paste.get_attribute("placeholder")
    assert len(example.replace("e.g.", "").split()) == 6, example
    assert hash_position(driver)[0] == "2x3"
    # the placeholder's example is a 2x3 board the server reads
    paste.send_keys(example.replace("e.g. ", "").replace("\n", " "))   # (Enter would load it)
    driver.find_element(By.ID, "load").click()
    WebDriverWait(driver, 10).until(lambda d: status_text(d) == "Board loaded.")


def test_friendly_errors(server, driver):
    """Every error the page shows is in its own words, never the API's."""
    driver.get("about:blank")
    driver.get(server + "/")
    wait(driver, "the page to load", lambda r: r["size"] == "3x3" and r["state"] == "ready")
    cases = [("paste", "load", "1 2 3 4 0 6 7 0 8", "more than one empty cell"),
             ("paste", "load", "1 2 3 4 five 6 7 8 0", "separate every tile"),
             ("paste", "load", "1 2 3 4 5 6 7 8 9", "tile 9, which is too big"),
             ("paste", "load", "1 2 3 4 5 6 7 8 9 0", "not the same size"),
             ("paste", "load", "[[1,2,3],[4,0]]", "rows of different lengths"),
             ("paste", "load", "1 2 3 ? 4 6 7 5 8", "cannot be read"),
             ("goal", "set-goal", "1 2 3 4 5 6 7 7 0", "The goal has tile 7 twice")]
    for box, button, text, want in cases:
        field = driver.find_element(By.ID, box)
        field.clear()
        field.send_keys(text)
        driver.find_element(By.ID, button).click()
        WebDriverWait(driver, 10).until(lambda d: want in status_text(d),
                                        message=f"{text!r}: {status_text(driver)!r}")
        said = status_text(driver)
        for internal in ("start:", "goal:", "--", "sdb", "'"):
            assert internal not in said, f"{text!r}: {said!r}"


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(pytest.main([__file__, "-p", "no:cacheprovider", "-s", "-q", *sys.argv[1:]]))
