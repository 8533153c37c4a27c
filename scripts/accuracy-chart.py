#!/usr/bin/env python3
"""Draws the README's accuracy table as a bar chart (docs/accuracy.svg): per SM model, the same-GPU mean MAPE on the
papers' workloads, the suite's development half and its blind half. Reads the table from README.md (which
scripts/accuracy-table.py produces), so the picture shows the measured numbers and nothing else; no plotting library.

  scripts/accuracy-chart.py [README.md] [docs/accuracy.svg]
"""
import os
import re
import sys

SETS = [("papers' workloads", 1, "#8da0cb"), ("suite: development half", 3, "#66c2a5"), ("suite: blind half", 5, "#fc8d62")]
CAP = 100.0  # percent; longer bars are cut and labelled


def rows(readme):
    for line in open(readme):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and re.match(r"^\**[a-z-]+\**", cells[0]) and cells[1].endswith(")"):
            model = re.sub(r"[*`]| \(default\)", "", cells[0]).strip()
            yield model, [float(re.match(r"\**([0-9.]+)%", cells[i]).group(1)) for _, i, _ in SETS]


def svg(data):
    bar, gap, left, top, width = 11, 10, 120, 40, 420
    height = top + len(data) * (bar * len(SETS) + gap) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 70}" height="{height}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">Kernel time error, same GPU (mean of per-program MAPE, %)</text>']
    for k, (name, _, color) in enumerate(SETS):
        out.append(f'<rect x="{left + k * 150}" y="24" width="10" height="10" fill="{color}"/>'
                   f'<text x="{left + k * 150 + 14}" y="33">{name}</text>')
    y = top + 8
    for model, values in data:
        out.append(f'<text x="{left - 8}" y="{y + bar * len(SETS) / 2 + 4}" text-anchor="end">{model}</text>')
        for (name, _, color), value in zip(SETS, values):
            length = min(value, CAP) / CAP * width
            out.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar - 1}" fill="{color}"/>')
            label = f"{value:.1f}" + ("  (cut)" if value > CAP else "")
            out.append(f'<text x="{left + length + 4:.1f}" y="{y + bar - 2}">{label}</text>')
            y += bar
        y += gap
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y}" stroke="#444"/></svg>')
    return "\n".join(out) + "\n"


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    target = sys.argv[2] if len(sys.argv) > 2 else "docs/accuracy.svg"
    data = list(rows(readme))
    if not data:
        sys.exit(f"accuracy-chart: no accuracy table found in {readme}")
    with open(target + ".tmp", "w") as out:
        out.write(svg(data))
    os.replace(target + ".tmp", target)
    print(f"{target}: {len(data)} models")


if __name__ == "__main__":
    main()
