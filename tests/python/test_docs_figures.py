"""Every measured figure the docs quote has a source in `bench/results/`.

A figure is a number with a unit of time or a ratio (`17.7 µs`, `1.13 ms`,
`0.65×`) in the README or a guide chapter. It must appear, as written, in a
results file (`bench/results/*.md` or `*.json`), or a time must be a value
the JSON records (in seconds or in its own unit) rounded as quoted, or the
figure is declared on its page in an HTML comment, which the rendered page
does not show:

- `<!-- derived: 0.012× = 17.1 / 1,370.1 -->`: a ratio of two figures that
  are themselves in a results file, rounded as quoted;
- `<!-- target: 0.5× 1.2× -->`: a goal or a bound, not a measurement.

So a figure typed from memory, or left behind when results change, fails
here until it is taken from the results again.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
FIGURE = re.compile(r"(?<![\w.,])(\d+(?:,\d{3})*(?:\.\d+)?)\s?(µs|ms|×)")
DERIVED = re.compile(r"<!--\s*derived:\s*(\S+)\s*=\s*([\d.,]+)\s*/\s*([\d.,]+)\s*-->")
TARGET = re.compile(r"<!--\s*target:\s*([^>]*?)\s*-->")


def recorded_values() -> list[float]:
    """Every number the JSON results record."""
    values: list[float] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            values.append(float(node))

    for path in sorted(RESULTS.glob("*.json")):
        walk(json.loads(path.read_text()))
    return values


def recorded(number: str, unit: str, values: list[float]) -> bool:
    """`number` `unit` is a recorded value rounded as quoted: a time in
    seconds, milliseconds or its own unit; a ratio as recorded."""
    quoted = Decimal(number.replace(",", ""))
    factors = (1.0,) if unit == "×" else (1e6, 1e3, 1.0) if unit == "µs" else (1e3, 1.0)
    return any(
        Decimal(repr(v * factor)).quantize(quoted) == quoted
        for v in values
        for factor in factors
        if 0 < v * factor < 1e9
    )


def ratios(text: str) -> list[float]:
    """The ratios the results' tables show (`0.652×`)."""
    return [float(m.replace(",", "")) for m in re.findall(r"(\d[\d,]*\.\d+)×", text)]


def results_text() -> str:
    return "\n".join(
        path.read_text()
        for path in sorted(RESULTS.iterdir())
        if path.suffix in (".md", ".json")
    )


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "guide" / "src").glob("*.md"))]


def sourced(number: str, text: str) -> bool:
    """`number` (`1,370.1`) appears as a whole number in `text`, with or
    without its thousands separators."""
    for form in {number, number.replace(",", "")}:
        if re.search(rf"(?<![\d.]){re.escape(form)}(?![\d])", text):
            return True
    return False


def unsourced(page: Path, text: str, values: list[float] | None = None) -> list[str]:
    """The figures of `page` with no source, as `line: figure`."""
    body = page.read_text()
    declared: set[str] = set()
    for figure, top, bottom in DERIVED.findall(body):
        assert sourced(top, text) and sourced(bottom, text), (
            page.name,
            figure,
            top,
            bottom,
        )
        quoted = Decimal(figure.rstrip("×"))
        value = Decimal(top.replace(",", "")) / Decimal(bottom.replace(",", ""))
        assert value.quantize(quoted) == quoted, (page.name, figure, value)
        declared.add(figure)
    for targets in TARGET.findall(body):
        declared.update(targets.split())
    missing = []
    for number, line in enumerate(body.splitlines(), 1):
        if line.lstrip().startswith("<!--"):
            continue
        for match in FIGURE.finditer(line):
            figure = f"{match.group(1)}{match.group(2)}"
            if figure in declared or sourced(match.group(1), text):
                continue
            if recorded(match.group(1), match.group(2), values or []):
                continue
            missing.append(f"{page.name}:{number}: {match.group(0)}")
    return missing


def test_every_quoted_figure_has_a_source() -> None:
    text = results_text()
    values = recorded_values() + ratios(text)
    missing = [entry for page in pages() for entry in unsourced(page, text, values)]
    assert not missing, "figures with no source in bench/results/:\n" + "\n".join(
        missing
    )


def test_a_figure_typed_from_memory_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("The check costs about 13.6 ms against 2.1 ms.\n")
    assert unsourced(page, "recorded: 1.13 and 0.84 and 12.1\n") == [
        "page.md:1: 13.6 ms",
        "page.md:1: 2.1 ms",
    ]
