"""``python -m rxt_tf_plugin setup <project>``: make a Rextio project build with rxt-tf.

The ``rxt-tf`` crate is not on crates.io, so Rextio's generated crate (built
under ``<project>/.rextio/generated/rust``) finds it through a
``[patch.crates-io]`` entry in ``<project>/.cargo/config.toml`` pointing at the
crate sources. This module locates those sources, writes that entry and
enables the plugin in ``rextio.toml``. Both edits are idempotent and keep
everything else in the files; a file it cannot edit safely is left untouched
with an error saying what to change by hand.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rxt_tf_plugin import __version__
from rxt_tf_plugin.ops import PLUGIN_ID

CRATE_NAME = "rxt-tf"
SOURCE_ENV = "RXT_TF_SOURCE"
"""Environment variable naming the crate sources (the rxt-tf checkout)."""


class SetupError(Exception):
    """A project or source tree the setup command cannot use, with the reason."""


@dataclass(frozen=True)
class SetupReport:
    """What ``setup`` changed."""

    source: Path
    cargo_config: Path
    cargo_config_changed: bool
    rextio_toml: Path
    rextio_toml_changed: bool


def locate_sources(explicit: str | None = None) -> Path:
    """The directory of the ``rxt-tf`` crate matching this plugin's version.

    Looks at ``explicit``, then ``$RXT_TF_SOURCE``, then the checkout this
    package was installed from (an editable install lives in
    ``<checkout>/plugin-py/src/rxt_tf_plugin``).
    """
    candidates: list[tuple[str, Path]] = []
    if explicit:
        candidates.append(("--crate-path", Path(explicit)))
    elif os.environ.get(SOURCE_ENV):
        candidates.append((f"${SOURCE_ENV}", Path(os.environ[SOURCE_ENV])))
    else:
        candidates.append(("the plugin's checkout", Path(__file__).resolve().parents[3]))
    problems = []
    for label, path in candidates:
        problem = _crate_problem(path)
        if problem is None:
            return path.resolve()
        problems.append(f"{label} ({path}): {problem}")
    raise SetupError(
        "cannot find the rxt-tf crate sources: "
        + "; ".join(problems)
        + f". Pass --crate-path <rxt-tf checkout> or set {SOURCE_ENV}."
    )


def _crate_problem(path: Path) -> str | None:
    manifest = path / "Cargo.toml"
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "no Cargo.toml"
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return f"unreadable Cargo.toml ({exc})"
    package = data.get("package", {})
    if package.get("name") != CRATE_NAME:
        return f"Cargo.toml is not the {CRATE_NAME} package"
    version = package.get("version")
    if isinstance(version, dict) and version.get("workspace") is True:
        version = data.get("workspace", {}).get("package", {}).get("version")
    if version != __version__:
        return f"{CRATE_NAME} is version {version!r}; this plugin needs {__version__}"
    return None


def setup_project(project: Path, crate_path: str | None = None) -> SetupReport:
    """Patch ``<project>/.cargo/config.toml`` and enable the plugin in ``rextio.toml``."""
    project = project.resolve()
    rextio_toml = project / "rextio.toml"
    if not rextio_toml.is_file():
        raise SetupError(f"{project} has no rextio.toml; run `rextio init` there first")
    source = locate_sources(crate_path)
    cargo_config = project / ".cargo" / "config.toml"
    cargo_changed = _update(cargo_config, lambda text: _patch_cargo_config(text, source))
    rextio_changed = _update(rextio_toml, _enable_plugin)
    return SetupReport(source, cargo_config, cargo_changed, rextio_toml, rextio_changed)


def _update(path: Path, edit: Callable[[str], str]) -> bool:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        tomllib.loads(old)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{path} is not valid TOML ({exc}); fix it first") from exc
    new = edit(old)
    if new == old:
        return False
    tomllib.loads(new)  # the edit must keep the file valid
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".rxt-tf-tmp")
    tmp.write_text(new, encoding="utf-8")
    tmp.replace(path)
    return True


_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")


def _section_bounds(lines: list[str], name: str) -> tuple[int, int] | None:
    """``(header index, end index)`` of the ``[name]`` table, if present."""
    start = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("["):
            continue
        if start is not None:  # any table header ends the current table
            return start, index
        match = _HEADER.match(line)
        if match and not stripped.startswith("[["):
            if re.sub(r"\s+", "", match.group(1)).replace('"', "") == name:
                start = index
    return None if start is None else (start, len(lines))


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _patch_cargo_config(text: str, source: Path) -> str:
    data = tomllib.loads(text)
    wanted = {"path": str(source)}
    current = data.get("patch", {}).get("crates-io", {}).get(CRATE_NAME)
    if current == wanted:
        return text
    entry = f"{CRATE_NAME} = {{ path = {_toml_string(str(source))} }}"
    lines = text.splitlines()
    bounds = _section_bounds(lines, "patch.crates-io")
    if bounds is None:
        if "patch" in data and "crates-io" in data["patch"]:
            raise SetupError(
                "the Cargo config defines patch.crates-io outside a [patch.crates-io] "
                f"table; add `{entry}` to it by hand"
            )
        prefix = text if not text or text.endswith("\n") else text + "\n"
        blank = "\n" if prefix.strip() else ""
        return f"{prefix}{blank}[patch.crates-io]\n{entry}\n"
    start, end = bounds
    key = re.compile(rf"^\s*\"?{re.escape(CRATE_NAME)}\"?\s*=")
    for index in range(start + 1, end):
        if key.match(lines[index]):
            if "{" in lines[index] and "}" not in lines[index]:
                raise SetupError(
                    f"the [patch.crates-io] entry for {CRATE_NAME} spans several lines; "
                    f"replace it by hand with `{entry}`"
                )
            lines[index] = entry
            break
    else:
        lines.insert(start + 1, entry)
    return "\n".join(lines) + "\n"


def _enable_plugin(text: str) -> str:
    data = tomllib.loads(text)
    plugins = data.get("plugins", {})
    enabled = plugins.get("enabled", [])
    if PLUGIN_ID in enabled:
        return text
    lines = text.splitlines()
    bounds = _section_bounds(lines, "plugins")
    if bounds is None:
        if "plugins" in data:
            raise SetupError(
                f'rextio.toml defines plugins outside a [plugins] table; add "{PLUGIN_ID}" '
                "to plugins.enabled by hand"
            )
        prefix = text if not text or text.endswith("\n") else text + "\n"
        return f'{prefix}\n[plugins]\nenabled = ["{PLUGIN_ID}"]\n'
    start, end = bounds
    key = re.compile(r"^\s*enabled\s*=")
    for index in range(start + 1, end):
        if key.match(lines[index]):
            if lines[index].count("[") != 1 or "]" not in lines[index]:
                raise SetupError(
                    "plugins.enabled in rextio.toml spans several lines; add "
                    f'"{PLUGIN_ID}" to it by hand'
                )
            names = [*enabled, PLUGIN_ID]
            lines[index] = "enabled = [" + ", ".join(_toml_string(n) for n in names) + "]"
            break
    else:
        lines.insert(start + 1, f'enabled = ["{PLUGIN_ID}"]')
    return "\n".join(lines) + "\n"
