#!/usr/bin/env python3
"""The report pages in a real browser: `warpsim report` on a shipped recording and its simulation (its timeline
zoomed, panned and reset by synthetic wheel, drag and double-click events) and on the recording alone, and `warpsim
sweep`'s page of a one-axis and a two-axis sweep, rendered by headless Chromium. Fails on any error the page's script
or console reported, and unless every figure drew (the page marks each with data-drawn, the number of marks, and the
body with data-ready).

Skipped (exit 77, which CTest shows as skipped) with a line saying so where Chromium is not installed:
`apt-get install chromium` (scripts/install-deps.sh installs it).

  report_page_test.py --warpsim BUILD/sim/warpsim --trace TRACE --platform NODE [--screenshot PNG]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIPPED = 77
FIGURES_WITH_TWO_TRACES = ["timeline-figure", "scatter-figure", "histogram-figure", "kernel-table", "links-figure-0",
                           "links-figure-1"]
FIGURES_WITH_ONE_TRACE = ["timeline-figure", "kernel-table"]
FIGURES_OF_A_SWEEP = ["sweep-figures", "point-table"]


def chromium():
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def run(command, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return done


def browser_command(browser, *arguments):
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start. --virtual-time-budget lets the
    # page's script finish before the DOM is dumped.
    return [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr",
            "--v=0", "--virtual-time-budget=10000", *arguments]


def check_page(browser, page, figures):
    done = run(browser_command(browser, "--dump-dom", "file://" + os.path.abspath(page)))
    dom = done.stdout
    problems = []
    if not re.search(r'<body[^>]*data-ready="1"', dom):
        problems.append("the page's script did not finish (no data-ready on the body)")
    errors = re.search(r'<html[^>]*data-errors="(\d+)"', dom)
    if errors:
        problems.append(f"the page reported {errors.group(1)} script or console error(s)")
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    problems += [f"console: {line.strip()}" for line in console]
    for figure in figures:
        drawn = re.search(rf'id="{figure}"[^>]*data-drawn="(\d+)"', dom)
        if not drawn:
            problems.append(f"figure {figure} did not draw")
        elif int(drawn.group(1)) == 0:
            problems.append(f"figure {figure} drew nothing")
    if problems:
        sys.exit(f"FAIL: {page}: " + "; ".join(problems))
    print(f"ok: {page}: drew {', '.join(figures)} without errors")


# Appended to a copy of the two-trace page: zooms the timeline in with the wheel, pans it by dragging, then goes back
# with a double click, and says on the body whether the axis followed each step.
ZOOM_PROBE = """<script>
(function () {
  const svg = document.querySelector('#timeline-figure svg');
  const ticks = () => [...svg.querySelectorAll('.axis text')].map((t) => t.textContent).join('|');
  const box = svg.getBoundingClientRect();
  const at = { clientX: box.left + box.width * 0.6, clientY: box.top + 5, bubbles: true, cancelable: true };
  const home = ticks();
  svg.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -400 }, at)));
  svg.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -400 }, at)));
  const zoomed = ticks();
  svg.dispatchEvent(new MouseEvent('mousedown', at));
  svg.dispatchEvent(new MouseEvent('mousemove', Object.assign({}, at, { clientX: at.clientX - 200 })));
  window.dispatchEvent(new MouseEvent('mouseup', at));
  const panned = ticks();
  svg.dispatchEvent(new MouseEvent('dblclick', at));
  const back = ticks();
  document.body.dataset.zoom = [zoomed !== home, panned !== zoomed, back === home].join(',');
})();
</script>"""


def check_zoom(browser, page):
    probed = page.replace(".html", ".zoom.html")
    with open(page) as source, open(probed, "w") as target:
        target.write(source.read().replace("</body>", ZOOM_PROBE + "</body>"))
    dom = run(browser_command(browser, "--dump-dom", "file://" + os.path.abspath(probed))).stdout
    steps = re.search(r'<body[^>]*data-zoom="([^"]*)"', dom)
    if not steps or steps.group(1) != "true,true,true":
        sys.exit(f"FAIL: {page}: the timeline's axis did not follow wheel zoom, drag and double click "
                 f"({steps.group(1) if steps else 'the probe did not run'})")
    print(f"ok: {page}: the timeline zooms, pans and goes back")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpsim", required=True)
    parser.add_argument("--trace", required=True, help="a shipped recording with counters (a .merged.wstrace)")
    parser.add_argument("--platform", required=True, help="the node to simulate it on")
    parser.add_argument("--screenshot", help="also write a PNG of the two-trace page here")
    args = parser.parse_args()
    browser = chromium()
    if not browser:
        print("SKIP: Chromium is not installed (apt-get install chromium): the report page was not rendered")
        return SKIPPED
    warpsim, trace = os.path.abspath(args.warpsim), os.path.abspath(args.trace)
    with tempfile.TemporaryDirectory() as work:
        # Run in the work folder with a plain name for the simulation: the page (and the screenshot) shows it.
        simulated = os.path.basename(trace).replace(".merged", "").replace(".wstrace", ".simulated.wstrace")
        run([warpsim, "simulate", trace, "-p", args.platform, "-o", simulated], cwd=work)
        run([warpsim, "report", trace, simulated, "-o", "report.html"], cwd=work)
        both = os.path.join(work, "report.html")
        check_page(browser, both, FIGURES_WITH_TWO_TRACES)
        check_zoom(browser, both)
        run([warpsim, "report", trace, "-o", "alone.html"], cwd=work)
        check_page(browser, os.path.join(work, "alone.html"), FIGURES_WITH_ONE_TRACE)
        for name, sets in (("line", ["gpu.sm_count=66,132"]),
                           ("heat", ["gpu.sm_count=66,132", "gpu.memory.dram_bandwidth_gb_per_s=2000,3352"])):
            run([warpsim, "sweep", trace, "-p", args.platform, *[f"--set={s}" for s in sets], "-o", name], cwd=work)
            check_page(browser, os.path.join(work, name, "sweep.html"), FIGURES_OF_A_SWEEP)
        if args.screenshot:
            run(browser_command(browser, "--window-size=1400,1900", "--screenshot=" + os.path.abspath(args.screenshot),
                                "file://" + both))
            print(f"screenshot: {args.screenshot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
