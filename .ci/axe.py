"""axe-core's WCAG 2 A and AA rules, run by the browser test on every page it opens.

axe-core comes from PyPI: the wheel of its Selenium binding, `axe-selenium-python`, bundles
`axe.min.js` (axe-core 3.1.1 in version 2.1.6). The wheel is fetched once with pip into a cache
folder; only the script is used, injected into the page and run there.

Each distinct page (its path, the names of its query parameters, whether an alert is open, and
who is signed in) is audited once in the light and once in the dark colour scheme, emulated
through the DevTools protocol, at the width the browser test runs at (390 x 844, an iPhone).
"""

import glob
import os
import subprocess
import sys
import urllib.parse
import zipfile

AXE_SELENIUM_VERSION = "2.1.6"
AXE_SCRIPT = "axe_selenium_python/node_modules/axe-core/axe.min.js"
TAGS = ["wcag2a", "wcag2aa"]

RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']}, (error, results) => {
  if (error) { done({error: String(error)}); return; }
  done({violations: results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: (n.failureSummary || '').split('\\n').slice(1).join(' ').trim(),
                              html: n.html.slice(0, 160)}))}))});
});
""" % TAGS


def axe_source(cache):
    """The text of axe.min.js, from the pinned axe-selenium-python wheel (downloaded into `cache`)."""
    os.makedirs(cache, exist_ok=True)
    wheels = glob.glob(os.path.join(cache, f"axe_selenium_python-{AXE_SELENIUM_VERSION}-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
                        f"axe-selenium-python=={AXE_SELENIUM_VERSION}", "-d", cache], check=True)
        wheels = glob.glob(os.path.join(cache, f"axe_selenium_python-{AXE_SELENIUM_VERSION}-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        return wheel.read(AXE_SCRIPT).decode("utf-8")


class Auditor:
    """Runs axe on the pages a driver shows, once per distinct page and colour scheme."""

    def __init__(self, driver, source):
        self.driver = driver
        self.source = source
        self.scheme = None  # the colour scheme the test itself asked for (None: the system's)
        self.who = ""  # who is signed in: pages differ by role
        self.seen = set()
        self.pages = 0
        self.violations = []  # (rule, impact, page, scheme, selector, summary)

    def emulate(self, scheme):
        """Emulates `prefers-color-scheme: scheme` (None: the system's) for the test's own checks."""
        self.scheme = scheme
        self._apply(scheme)

    def _apply(self, scheme):
        features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})

    def key(self):
        url = urllib.parse.urlsplit(self.driver.current_url)
        names = sorted(urllib.parse.parse_qs(url.query, keep_blank_values=True))
        state = self.driver.execute_script(
            "return [!!document.querySelector('dialog[open]'), !!document.querySelector('[aria-invalid=true]'),"
            " [...document.querySelectorAll('.banner')].map(b => b.className).join(' '),"
            " document.documentElement.getAttribute('data-theme')]")
        return (self.who, url.path, tuple(names), tuple(state))

    def audit(self):
        """Audits the page shown (unless already audited), light and dark; returns the new violations."""
        if not self.driver.current_url.startswith("http"):
            return []
        key = self.key()
        if key in self.seen:
            return []
        self.seen.add(key)
        self.pages += 1
        page = self.driver.current_url.split("://", 1)[-1].split("/", 1)[-1]
        found = []
        try:
            for scheme in ["light", "dark"]:
                self._apply(scheme)
                # Let colour transitions (a switch's background) settle before reading colours.
                self.driver.execute_script("return new Promise(r => setTimeout(r, 250))")
                if not self.driver.execute_script("return typeof axe === 'object'"):
                    self.driver.execute_script(self.source)
                result = self.driver.execute_async_script(RUN)
                if "error" in result:
                    found.append(("axe-error", "critical", "/" + page, scheme, "", result["error"]))
                    continue
                for violation in result["violations"]:
                    for node in violation["nodes"]:
                        found.append((violation["id"], violation["impact"], "/" + page, scheme, node["target"],
                                      node["summary"] or violation["help"]))
        finally:
            self._apply(self.scheme)
        self.violations.extend(found)
        return found

    def summary(self):
        """Counts of violations by rule and impact, most frequent first."""
        counts = {}
        for rule, impact, *_ in self.violations:
            counts[(rule, impact)] = counts.get((rule, impact), 0) + 1
        return sorted(counts.items(), key=lambda item: -item[1])
