"""The built site in a real browser: headless Chromium (Debian's package, driven by selenium through chromedriver)
opens the home page, every module page and every page with a figure; each must render its navigation, its code
blocks and its figures; the site's search must find the API-changes page for "ShapeTracker". Screenshots are kept in
build/screenshots/ (ignored by git). Without Chromium, and no way to install it, the test is skipped with the reason."""
from __future__ import annotations
import functools, http.server, json, os, re, shutil, subprocess, tempfile, threading, time, urllib.request
from pathlib import Path
import pytest
from course_docs import COURSE, REPO, built_site, parse

pytestmark = pytest.mark.slow          # a browser on the built site

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SHOTS = REPO / "build" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,900"]

def _install_chromium() -> str | None:
  """None when Chromium and its driver are there (installing them with apt-get if needed and possible), else why not."""
  if Path(CHROMIUM).exists() and Path(DRIVER).exists(): return None
  if not shutil.which("apt-get"): return "chromium is not installed and there is no apt-get to install it"
  sudo = [] if os.geteuid() == 0 else (["sudo", "-n"] if shutil.which("sudo") and
                                       subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0 else None)
  if sudo is None: return "chromium is not installed, and installing it needs root (apt-get install chromium chromium-driver)"
  env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
  for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium", "chromium-driver"]):
    try: done = subprocess.run(sudo + cmd, capture_output=True, text=True, env=env, timeout=900)
    except subprocess.TimeoutExpired: return f"`{' '.join(cmd)}` timed out"
    if done.returncode != 0: return f"`{' '.join(cmd)}` failed: {done.stderr.strip()[-300:]}"
  return None if Path(CHROMIUM).exists() and Path(DRIVER).exists() else "apt-get ran but chromium or chromedriver is missing"

@pytest.fixture(scope="module")
def site_url():
  site, log, _ = built_site()
  assert (site / "index.html").exists(), log[-3000:]
  class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass
  handler = functools.partial(Quiet, directory=str(site))
  server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
  threading.Thread(target=server.serve_forever, daemon=True).start()
  yield f"http://127.0.0.1:{server.server_address[1]}/"
  server.shutdown()

@pytest.fixture(scope="module")
def browser():
  why = _install_chromium()
  if why: pytest.skip(why)
  try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
  except ImportError: pytest.skip("selenium is not installed: pip install -e '.[dev]'")
  os.environ["SE_OFFLINE"] = "true"                          # selenium must not look for drivers on the network
  profile = tempfile.mkdtemp(prefix="chromium-profile-")
  options = webdriver.ChromeOptions()
  options.binary_location = CHROMIUM
  for flag in FLAGS + [f"--user-data-dir={profile}"]: options.add_argument(flag)
  driver = webdriver.Chrome(service=Service(DRIVER), options=options)
  driver.set_page_load_timeout(60)
  yield driver
  driver.quit()
  shutil.rmtree(profile, ignore_errors=True)

def pages_to_open() -> list[tuple[str, Path]]:
  """(URL path, source page): the home page, every module page, every page that shows a figure."""
  out = [("", COURSE / "index.md")]
  for p in sorted(COURSE.rglob("*.md")):
    if p.name == "index.md" and p.parent == COURSE: continue
    rel = p.relative_to(COURSE)
    if re.match(r"\d\d_", p.name) or "](../figures/" in p.read_text() or "](figures/" in p.read_text():
      out.append((str(rel.with_suffix("")) + "/", p))
  return out

def wait_for(fn, timeout=20.0, step=0.2):
  end = time.monotonic() + timeout
  while time.monotonic() < end:
    if (got := fn()): return got
    time.sleep(step)
  return fn()

def shot(driver, name:str) -> Path:
  SHOTS.mkdir(parents=True, exist_ok=True)
  height = min(int(driver.execute_script("return document.documentElement.scrollHeight")), 8000)
  driver.set_window_size(1280, max(900, height))
  path = SHOTS / f"{name}.png"
  driver.save_screenshot(str(path))
  driver.set_window_size(1280, 900)
  return path

def test_pages_render_with_navigation_code_and_figures(browser, site_url):
  from selenium.webdriver.common.by import By
  start, problems, shots = time.perf_counter(), [], []
  nav_len = len(re.findall(r"\.md\s*$", (REPO / "mkdocs.yml").read_text(), re.M))
  for url, src in pages_to_open():
    browser.get(site_url + url)
    wait_for(lambda: browser.execute_script("return document.readyState") == "complete")
    name = url.strip("/").replace("/", "_") or "home"
    title = src.read_text().splitlines()[0].lstrip("# ").strip()
    h1 = browser.find_elements(By.CSS_SELECTOR, "article h1")
    if not h1 or h1[0].text.replace("¶", "").strip() != title: problems.append(f"{url}: heading {h1[0].text if h1 else None!r}, not {title!r}")
    links = browser.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a.md-nav__link[href]")
    if len({a.get_attribute("href") for a in links}) < nav_len:
      problems.append(f"{url}: the navigation has {len(links)} links, mkdocs.yml lists {nav_len} pages")
    fenced = len(parse(src))
    code = browser.find_elements(By.CSS_SELECTOR, "article pre > code")
    if len(code) < fenced or any(not c.text.strip() for c in code[:fenced]):
      problems.append(f"{url}: {len(code)} rendered code blocks for {fenced} fenced blocks")
    imgs = browser.find_elements(By.CSS_SELECTOR, "article img")
    want = len(re.findall(r"!\[[^\]]*\]\(", src.read_text()))
    loaded = [i for i in imgs if browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", i)]
    if len(loaded) != want: problems.append(f"{url}: {len(loaded)} of {want} figures loaded")
    shots.append(shot(browser, name))
  print(f"\n{len(shots)} pages in {time.perf_counter() - start:.1f} s; screenshots in {SHOTS}:")
  for s in shots: print("  ", s)
  assert not problems, "\n".join(problems)

def test_module_page_links_a_starter_the_site_serves(browser, site_url):
  from selenium.webdriver.common.by import By
  module = sorted(COURSE.glob("[0-9][0-9]_*.md"))[0].stem
  browser.get(site_url + module + "/")
  hrefs = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "article a[href$='.ipynb']")]
  assert hrefs and all("/projects/" in h and "solutions" not in h for h in hrefs), hrefs
  with urllib.request.urlopen(hrefs[0], timeout=10) as r: notebook = json.loads(r.read())
  assert notebook["nbformat"] == 4 and "BEGIN SOLUTION" not in json.dumps(notebook)

def test_search_finds_the_api_changes_page(browser, site_url):
  from selenium.webdriver.common.by import By
  from selenium.webdriver.common.keys import Keys
  start = time.perf_counter()
  browser.get(site_url)
  wait_for(lambda: browser.execute_script("return document.readyState") == "complete")
  box = [e for e in browser.find_elements(By.CSS_SELECTOR, "input.md-search__input") if e.is_displayed()]
  if not box:                                                 # a narrow window: the search icon opens the box
    browser.find_element(By.CSS_SELECTOR, "label.md-search__icon[for='__search']").click()
    box = wait_for(lambda: [e for e in browser.find_elements(By.CSS_SELECTOR, "input.md-search__input") if e.is_displayed()])
  assert box, "the search box did not open"
  box[0].click()
  box[0].send_keys("ShapeTracker")
  def results():                    # one script call: the list re-renders while results arrive, so held elements go stale
    return browser.execute_script("return Array.from(document.querySelectorAll('.md-search-result__list a[href]'), a => a.href)")
  found = wait_for(lambda: [h for h in results() if "reference/api_changes" in h], timeout=30)
  path = shot(browser, "search_ShapeTracker")
  print(f"\nsearch: {len(results())} results in {time.perf_counter() - start:.1f} s; screenshot {path}")
  assert found, f"no result links to the API-changes page: {results()}"
  box[0].send_keys(Keys.ESCAPE)
