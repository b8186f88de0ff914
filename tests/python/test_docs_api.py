"""The guide's reference pages against the code they describe.

`guide/src/reference/python-api.md` must name, in backticks, every public
name of `rxt_tf`, every parameter of `rxt_tf.function` and of
`rxt_tf.Predictor`, every public attribute of `rxt_tf.Function` and every
key of `rxt_tf.stats()` (its TypedDicts, recursively).
`guide/src/reference/environment.md` must name every environment variable
of the project's own prefix that the sources read, and no other.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Iterable
from pathlib import Path

import rxt_tf
from rxt_tf import _stats

ROOT = Path(__file__).resolve().parents[2]
API_PAGE = ROOT / "guide" / "src" / "reference" / "python-api.md"
ENV_PAGE = ROOT / "guide" / "src" / "reference" / "environment.md"
STUB = ROOT / "rxt-tf-python" / "python" / "rxt_tf" / "_native.pyi"

# Where the project's variables are read: the runtime, the Python package,
# the plugin, the tests, ci/ and the Makefile.
SOURCES = ("rxt-tf-runtime/src", "rxt-tf-python", "plugin-py/src", "tests", "ci", "Makefile")
SKIPPED_DIRS = {
    "target",
    ".venv",
    "venv",
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".rextio",
    ".cargo",
    "build",
    "dist",
    "node_modules",
}
TEXT_SUFFIXES = {".rs", ".py", ".pyi", ".toml", ".sh", ".txt", ".json", ".cfg", ".md", ".stderr"}
PREFIX = "RXT" + "_TF_"  # split so this file names no variable itself
VARIABLE = re.compile(rf"(?<![A-Za-z0-9_]){PREFIX}[A-Z][A-Z0-9_]*[A-Z0-9]")


def missing(page: str, names: Iterable[str]) -> list[str]:
    """The names not written as `name` (in backticks) in `page`."""
    return sorted({name for name in names if f"`{name}`" not in page})


def missing_called(page: str, names: Iterable[str]) -> list[str]:
    """The names written neither as `name` nor as `name(...)` in `page`."""
    return sorted({name for name in names if not re.search(rf"`{re.escape(name)}[`(]", page)})


def predictor_parameters() -> list[str]:
    """`rxt_tf.Predictor`'s parameters: its signature, its text signature,
    or the stub's `__new__`."""
    try:
        parameters = list(inspect.signature(rxt_tf.Predictor).parameters)
    except (TypeError, ValueError):
        text = rxt_tf.Predictor.__text_signature__
        if text is None:
            stub = STUB.read_text(encoding="utf-8")
            body = stub.split("class Predictor", 1)[1]
            text = body.split("def __new__(", 1)[1].split(")", 1)[0]
        parameters = [
            part.split("=")[0].split(":")[0].strip() for part in text.strip("()").split(",")
        ]
    return [
        name
        for name in parameters
        if name and name not in ("self", "cls", "*", "/") and not name.startswith("$")
    ]


def stats_keys(typed: type = _stats.Stats) -> set[str]:
    """Every key of a stats TypedDict and of those its values are."""
    keys: set[str] = set()
    for key, value in typing.get_type_hints(typed).items():
        keys.add(key)
        if typing.is_typeddict(value):
            keys |= stats_keys(value)
    return keys


def source_files() -> Iterable[Path]:
    """The text files under `SOURCES`, outside build output and venvs."""
    for source in SOURCES:
        path = ROOT / source
        if path.is_file():
            yield path
            continue
        stack = [path]
        while stack:
            folder = stack.pop()
            for entry in folder.iterdir():
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    if entry.name not in SKIPPED_DIRS and not entry.name.endswith(".egg-info"):
                        stack.append(entry)
                elif entry.suffix in TEXT_SUFFIXES or entry.name == "Makefile":
                    yield entry


def variables_in_sources() -> set[str]:
    found: set[str] = set()
    for path in source_files():
        found |= set(VARIABLE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return found


def api_page() -> str:
    return API_PAGE.read_text(encoding="utf-8")


def env_page() -> str:
    return ENV_PAGE.read_text(encoding="utf-8")


def test_the_checks_fail_on_a_missing_name() -> None:
    page = "`function` and `exact`, `cache_size()`"
    assert missing(page, ["function", "exact", "backend"]) == ["backend"]
    assert missing(page, ["func"]) == ["func"]
    assert missing_called(page, ["cache_size", "exact", "tf_function"]) == ["tf_function"]


def test_the_api_page_names_every_public_name() -> None:
    names = [*rxt_tf.__all__, "__version__"]
    assert len(names) > 5
    assert missing(api_page(), names) == []


def test_the_api_page_names_every_parameter_of_function() -> None:
    parameters = list(inspect.signature(rxt_tf.function).parameters)
    assert {"func", "input_signature", "exact", "backend"} <= set(parameters)
    assert missing(api_page(), parameters) == []


def test_the_api_page_names_every_parameter_of_predictor() -> None:
    parameters = predictor_parameters()
    assert {"target", "exact", "backend"} <= set(parameters)
    assert missing(api_page(), parameters) == []


def test_the_api_page_names_every_public_attribute_of_function() -> None:
    attributes = [name for name in dir(rxt_tf.Function) if not name.startswith("_")]
    assert {"tf_function", "cache_size", "backend"} <= set(attributes)
    assert missing_called(api_page(), attributes) == []


def test_the_api_page_names_every_stats_key() -> None:
    keys = stats_keys()
    # The TypedDicts are what stats() returns.
    returned = rxt_tf.stats()
    assert set(returned) <= keys
    assert all(set(value) <= keys for value in returned.values() if isinstance(value, dict))
    assert {"native", "tape", "reasons", "by_name"} <= keys
    assert missing(api_page(), keys) == []


def test_the_environment_page_lists_every_variable_the_sources_read() -> None:
    found = variables_in_sources()
    assert {PREFIX + "FUSE", PREFIX + "LITERT_STRICT"} <= found, found
    assert missing(env_page(), found) == []


def test_the_environment_page_lists_no_variable_the_sources_do_not_read() -> None:
    listed = set(VARIABLE.findall(env_page()))
    assert listed - variables_in_sources() == set()
