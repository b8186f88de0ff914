"""``python -m rxt_tf_plugin setup <project>``: make a Rextio project build with rxt-tf.

The ``rxt-tf`` crate is not on crates.io, so Rextio's generated crate (built
under ``<project>/.rextio/generated/rust``) finds it through
``[patch.crates-io]`` entries in ``<project>/.cargo/config.toml`` pointing at
the crate sources: the ones the plugin's wheel carries (a packaged crate per
entry), or an rxt-tf checkout (one entry; its workspace finds the rest). This
module locates those sources, writes the entries and enables the plugin in
``rextio.toml``. Both edits are idempotent and keep
everything else in the files; a file it cannot edit safely is left untouched
with an error saying what to change by hand.
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rxt_tf_plugin import __version__
from rxt_tf_plugin.ops import CRATE_NAME, PLUGIN_ID

SOURCE_ENV = "RXT_TF_SOURCE"
"""Environment variable naming the crate sources (the rxt-tf checkout)."""

BUNDLED = Path(__file__).resolve().parent / "crates"
"""The crate sources a wheel of the plugin carries (``<name>-<version>/``)."""

BUNDLED_CRATES = ("rxt-tf", "rxt-tf-runtime", "rxt-tf-macros", "rxt-tf-spec")
"""The packaged crates the wheel carries, the facade first."""


class SetupError(Exception):
    """A project or source tree the setup command cannot use, with the reason."""


@dataclass(frozen=True)
class Edit:
    """A planned change of one file: its old and new text."""

    path: Path
    """The file as named in the project (it may be a symbolic link)."""
    old: str
    new: str

    @property
    def changed(self) -> bool:
        """Whether the file changes."""
        return self.old != self.new

    def diff(self) -> str:
        """The change as a unified diff."""
        import difflib

        return "".join(
            difflib.unified_diff(
                self.old.splitlines(keepends=True),
                self.new.splitlines(keepends=True),
                fromfile=str(self.path),
                tofile=str(self.path),
            )
        )


@dataclass(frozen=True)
class SetupReport:
    """What ``setup`` changed (or, with ``dry_run``, would change)."""

    source: Path
    cargo_config: Path
    cargo_config_changed: bool
    rextio_toml: Path
    rextio_toml_changed: bool
    replaced: tuple[str, ...] = ()
    """Existing pins of the crates that were replaced (``--force``)."""
    edits: tuple[Edit, ...] = ()
    """The planned edits, in the order they are written."""


def locate_sources(explicit: str | None = None) -> Path:
    """The directory of the ``rxt-tf`` crate matching this plugin's version.

    Looks at ``explicit``, then ``$RXT_TF_SOURCE``, then the crates this
    package carries (a wheel), then the checkout it was installed from (an
    editable install lives in ``<checkout>/plugin-py/src/rxt_tf_plugin``).
    """
    candidates: list[tuple[str, Path]] = []
    if explicit:
        candidates.append(("--crate-path", Path(explicit)))
    elif os.environ.get(SOURCE_ENV):
        candidates.append((f"${SOURCE_ENV}", Path(os.environ[SOURCE_ENV])))
    elif (BUNDLED / f"{CRATE_NAME}-{__version__}").is_dir():
        candidates.append(("the plugin's bundled crates", BUNDLED / f"{CRATE_NAME}-{__version__}"))
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


def patch_entries(source: Path) -> list[tuple[str, Path]]:
    """The ``[patch.crates-io]`` entries for `source`.

    One per packaged crate beside a bundled ``rxt-tf``, else the checkout's
    ``rxt-tf`` alone (its workspace finds the other crates).
    """
    if source.parent == BUNDLED.resolve():
        entries = [(name, BUNDLED.resolve() / f"{name}-{__version__}") for name in BUNDLED_CRATES]
        missing = [str(path) for _, path in entries if not (path / "Cargo.toml").is_file()]
        if missing:
            raise SetupError(f"the plugin's bundled crates are incomplete: {', '.join(missing)}")
        return entries
    return [(CRATE_NAME, source)]


def setup_project(
    project: Path,
    crate_path: str | None = None,
    *,
    force: bool = False,
    dry_run: bool = False,
) -> SetupReport:
    """Patch the project's cargo configuration and enable the plugin in ``rextio.toml``.

    Both edits are planned and verified before either is written, so a
    failure leaves both files as they were. An existing pin of one of the
    crates to another source is refused unless `force`. With `dry_run`
    nothing is written.
    """
    project = project.resolve()
    rextio_toml = project / "rextio.toml"
    if not rextio_toml.is_file():
        raise SetupError(f"{project} has no rextio.toml; run `rextio init` there first")
    source = locate_sources(crate_path)
    entries = patch_entries(source)
    lines = [f"{name} = {{ path = {_toml_string(str(path))} }}" for name, path in entries]
    cargo_config = cargo_config_path(project)
    replaced: list[str] = []

    def patch(data: dict[str, Any]) -> None:
        table = _table(_table(data, "patch"), "crates-io")
        for name, path in entries:
            wanted = {"path": str(path)}
            existing = table.get(name)
            if existing is not None and existing != wanted:
                if not force:
                    raise SetupError(
                        f"[patch.crates-io] already pins {name} to {existing!r}; "
                        "pass --force to replace it"
                    )
                replaced.append(f"{name} = {existing!r}")
            table[name] = wanted

    cargo_edit = _plan(
        cargo_config,
        lambda text: _patch_cargo_config(text, lines),
        patch,
        "put " + ", ".join(f"`{line}`" for line in lines) + " under [patch.crates-io]",
    )
    rextio_edit = _plan(
        rextio_toml,
        _enable_plugin,
        _add_plugin,
        f'add "{PLUGIN_ID}" to `enabled` under [plugins]',
    )
    edits = (cargo_edit, rextio_edit)
    if not dry_run:
        for edit in edits:
            _write(edit)
    return SetupReport(
        source,
        cargo_config,
        cargo_edit.changed,
        rextio_toml,
        rextio_edit.changed,
        tuple(replaced),
        edits,
    )


def cargo_config_path(project: Path) -> Path:
    """The cargo configuration cargo reads for the project.

    A legacy ``.cargo/config`` if there is one (cargo prefers it), else
    ``.cargo/config.toml``.
    """
    legacy = project / ".cargo" / "config"
    return legacy if legacy.is_file() else project / ".cargo" / "config.toml"


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise SetupError(f"`{key}` is not a table")
    return value


def _add_plugin(data: dict[str, Any]) -> None:
    enabled = _table(data, "plugins").setdefault("enabled", [])
    if not isinstance(enabled, list):
        raise SetupError("plugins.enabled is not a list")
    if PLUGIN_ID not in enabled:
        enabled.append(PLUGIN_ID)


def _plan(
    path: Path,
    edit: Callable[[str], str],
    change: Callable[[dict[str, Any]], None],
    by_hand: str,
) -> Edit:
    """The edit `edit` makes to the file's text, if its data lacks `change`.

    The edited text must parse to exactly the old data with `change` applied
    (so a header inside a multi-line string, say, cannot be taken for a
    table); otherwise nothing is planned and the error says what to do by
    hand. Line endings and everything else are kept byte for byte.
    """
    try:
        with path.open(encoding="utf-8", newline="") as file:
            old = file.read()
    except FileNotFoundError:
        old = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(f"cannot read {path} ({exc})") from exc
    try:
        old_data = tomllib.loads(old)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{path} is not valid TOML ({exc}); fix it first") from exc
    wanted = copy.deepcopy(old_data)
    change(wanted)
    if wanted == old_data:
        return Edit(path, old, old)
    refusal = SetupError(f"cannot edit {path} safely; {by_hand} by hand")
    try:
        new = edit(old)
        edited = tomllib.loads(new)
    except (SetupError, tomllib.TOMLDecodeError) as exc:
        raise refusal from exc
    if edited != wanted:
        raise refusal
    target = Path(os.path.realpath(path))
    if target.exists() and not target.stat().st_mode & 0o222:
        raise SetupError(f"{path} is read-only; make it writable or {by_hand} by hand")
    return Edit(path, old, new)


def _write(edit: Edit) -> None:
    """Write a planned edit.

    A symbolic link is written through (the file it names changes, the link
    stays); the file keeps its mode; it is replaced by a complete new file.
    """
    if not edit.changed:
        return
    target = Path(os.path.realpath(edit.path))
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else None
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".rxt-tf-tmp")
        with tmp.open("w", encoding="utf-8", newline="") as file:
            file.write(edit.new)
        if mode is not None:
            os.chmod(tmp, mode)
        tmp.replace(target)
    except OSError as exc:
        raise SetupError(f"cannot write {edit.path} ({exc.strerror or exc})") from exc


_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")


def _lines(text: str) -> tuple[list[str], str]:
    """The lines of `text` (split at line feeds only) and its line ending.

    Carriage returns stay on their lines, and the other characters
    `str.splitlines` would split at are left alone.
    """
    return text.split("\n"), ("\r\n" if "\r\n" in text else "\n")


def _section_bounds(lines: list[str], name: str) -> tuple[int, int] | None:
    """``(header index, end index)`` of the ``[name]`` table, if present."""
    start = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("["):
            continue
        if start is not None:  # any table header ends the current table
            return start, index
        match = _HEADER.match(line.rstrip("\r"))
        if match and not stripped.startswith("[["):
            if re.sub(r"[\s\"']", "", match.group(1)) == name:
                start = index
    return None if start is None else (start, len(lines))


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _append_table(text: str, header: str, line: str, newline: str) -> str:
    body = text if not text or text.endswith("\n") else text + newline
    blank = newline if body.strip() else ""
    return f"{body}{blank}{header}{newline}{line}{newline}"


def _patch_cargo_config(text: str, entries: list[str]) -> str:
    for entry in entries:
        text = _patch_cargo_entry(text, entry)
    return text


def _patch_cargo_entry(text: str, entry: str) -> str:
    name = entry.split(" = ", 1)[0]
    lines, newline = _lines(text)
    bounds = _section_bounds(lines, "patch.crates-io")
    if bounds is None:
        return _append_table(text, "[patch.crates-io]", entry, newline)
    start, end = bounds
    key = re.compile(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=\s*\{{[^{{}}]*\}}(.*)$")
    cr = "\r" if newline == "\r\n" else ""
    for index in range(start + 1, end):
        match = key.match(lines[index].rstrip("\r"))
        if match:  # replace the inline table, keep a trailing comment
            lines[index] = f"{entry}{match.group(1)}{cr}"
            return "\n".join(lines)
    lines.insert(start + 1, entry + cr)
    return "\n".join(lines)


def _enable_plugin(text: str) -> str:
    lines, newline = _lines(text)
    bounds = _section_bounds(lines, "plugins")
    name = _toml_string(PLUGIN_ID)
    if bounds is None:
        return _append_table(text, "[plugins]", f"enabled = [{name}]", newline)
    start, end = bounds
    key = re.compile(r"^(\s*enabled\s*=\s*\[)([^\[\]#]*)(\].*)$")
    for index in range(start + 1, end):
        match = key.match(lines[index])
        if match:  # splice the name in before `]`, keeping the rest of the line
            items = match.group(2).rstrip()
            separator = "" if not items.strip() else (" " if items.endswith(",") else ", ")
            lines[index] = f"{match.group(1)}{items}{separator}{name}{match.group(3)}"
            return "\n".join(lines)
    cr = "\r" if newline == "\r\n" else ""
    lines.insert(start + 1, f"enabled = [{name}]{cr}")
    return "\n".join(lines)
