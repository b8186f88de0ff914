"""Command line: ``python -m rxt_tf_plugin setup|explain ...``.

``setup <project> [--crate-path DIR] [--force] [--dry-run]`` makes a Rextio
project build with rxt-tf; ``explain [PROJECT] [--format text|json] [--fix]
[--unsafe-fixes] [--diff]`` says why each function is native or not, and
makes the rewrites that keep behaviour (with ``--unsafe-fixes`` also those
that change something observable besides speed, as ruff separates them).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
import tempfile
from pathlib import Path

from rxt_tf_plugin import explain, rewrite, source_file
from rxt_tf_plugin.project_setup import SetupError, setup_project


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m rxt_tf_plugin")
    commands = parser.add_subparsers(dest="command", required=True)
    setup = commands.add_parser(
        "setup",
        help="make a Rextio project build with rxt-tf (patch .cargo/config.toml, "
        "enable the plugin in rextio.toml)",
    )
    setup.add_argument("project", type=Path, help="the Rextio project (holds rextio.toml)")
    setup.add_argument(
        "--crate-path",
        help="the rxt-tf crate sources (default: $RXT_TF_SOURCE, else the crates this "
        "plugin's wheel carries, else its checkout)",
    )
    setup.add_argument(
        "--force",
        action="store_true",
        help="replace an existing [patch.crates-io] pin of the rxt-tf crates",
    )
    setup.add_argument(
        "--dry-run", action="store_true", help="show the changes as a diff; write nothing"
    )
    described = commands.add_parser(
        "explain",
        help="say for every function of a Rextio project whether it is native, and what "
        "keeps it on Python: where, whose limit, and the rewrite",
    )
    described.add_argument("project", type=Path, nargs="?", default=Path("."))
    described.add_argument("--format", choices=("text", "json"), default="text")
    described.add_argument(
        "--fix",
        action="store_true",
        help="apply, in place, the rewrites that keep behaviour identical; then explain again",
    )
    described.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, also make the rewrites that change something observable "
        "besides speed (a docstring made a comment leaves __doc__ empty)",
    )
    described.add_argument(
        "--diff", action="store_true", help="print the rewrites --fix would make; write nothing"
    )
    args = parser.parse_args(argv)
    if args.command == "explain":
        return _explain(
            args.project, args.format, fix=args.fix, diff=args.diff, unsafe=args.unsafe_fixes
        )
    try:
        report = setup_project(
            args.project, args.crate_path, force=args.force, dry_run=args.dry_run
        )
    except SetupError as exc:
        print(f"rxt-tf setup: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # anything the planned checks could not foresee
        print(f"rxt-tf setup: {exc}", file=sys.stderr)
        return 1
    print(f"rxt-tf setup: crate sources {report.source}")
    for pin in report.replaced:
        print(f"rxt-tf setup: replaced the pin {pin}")
    if args.dry_run:
        for edit in report.edits:
            print(edit.diff() or f"rxt-tf setup: {edit.path} would not change", end="")
        return 0
    for path, changed in (
        (report.cargo_config, report.cargo_config_changed),
        (report.rextio_toml, report.rextio_toml_changed),
    ):
        print(f"rxt-tf setup: {path} {'updated' if changed else 'already up to date'}")
    return 0


FIX_ROUNDS = 3
"""How often ``--fix`` rewrites and checks again: a rewrite can let Rextio
type a function, which shows the next blocker (``x += y`` on a tensor)."""


def _explain(project: Path, output: str, *, fix: bool, diff: bool, unsafe: bool) -> int:
    try:
        if diff:
            print(_diff(project, unsafe=unsafe), end="")
            return 0
        if fix:
            check, _ = _fixed(project, quiet=False, unsafe=unsafe)
        else:
            check = explain.run_check(project)
        reports = explain.explain(check)
    except (explain.ExplainError, OSError) as exc:
        print(f"rxt-tf explain: {exc}", file=sys.stderr)
        return 1
    if output == "json":
        print(explain.render_json(reports), end="")
    else:
        print(explain.render_text(reports, project), end="")
    return 0


def _fixed(project: Path, *, quiet: bool, unsafe: bool) -> tuple[dict, list[str]]:  # type: ignore[type-arg]
    """Rewrites ``project`` in place and checks again, until nothing changes.

    At most :data:`FIX_ROUNDS` times; returns the last report and a note for
    each unsafe rewrite made.
    """
    check = explain.run_check(project)
    notes: list[str] = []
    for _ in range(FIX_ROUNDS):
        if not _rewrite(check, quiet=quiet, unsafe=unsafe, notes=notes):
            break
        check = explain.run_check(project)
    return check, notes


def _diff(project: Path, *, unsafe: bool) -> str:
    """What ``--fix`` would change, made on a copy of the project's sources.

    Each unsafe rewrite is named first, in lines starting ``# unsafe:``.
    """
    with tempfile.TemporaryDirectory(prefix="rxt-tf-explain-") as scratch:
        copy = Path(scratch) / project.resolve().name
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".rextio", ".git", "target"))
        _, notes = _fixed(copy, quiet=True, unsafe=unsafe)
        diffs: list[str] = [f"# unsafe: {note}\n" for note in notes]
        for path in sorted(copy.rglob("*.py")):
            relative = path.relative_to(copy)
            original = project / relative
            try:
                before = source_file.read(original).text if original.is_file() else ""
                after = source_file.read(path).text
            except source_file.SourceError:
                continue  # reported by the rewrite itself
            diffs.extend(
                difflib.unified_diff(
                    before.splitlines(keepends=True),
                    after.splitlines(keepends=True),
                    fromfile=f"a/{relative}",
                    tofile=f"b/{relative}",
                )
            )
        return "".join(diffs)


def _rewrite(check: dict, *, quiet: bool, unsafe: bool, notes: list[str]) -> bool:  # type: ignore[type-arg]
    """Applies the rewrites to every module of the report; whether any changed.

    Unsafe ones only with ``unsafe``, each noted in ``notes``.
    """
    changed = False
    on_tensors = explain.tensor_positions(check)
    claimed = explain.claimed_types(check)
    unsafe_at = explain.unsafe_positions(check) if unsafe else {}
    for path in explain.project_files(check):
        try:
            read = source_file.read(path)
        except source_file.SourceError as exc:
            print(f"rxt-tf explain: {exc}", file=sys.stderr)
            continue
        try:
            after, edits = rewrite.fix(
                read.text,
                on_tensors.get(str(path), set()),
                unsafe_at.get(str(path), set()),
                claimed.get(str(path), {}),
            )
        except SyntaxError:
            continue
        if after == read.text:
            continue
        try:
            source_file.write(read, after)
        except source_file.SourceError as exc:
            print(f"rxt-tf explain: {exc}", file=sys.stderr)
            continue
        changed = True
        notes.extend(f"{path.name}:{e.line}: {e.reason}" for e in edits if e.unsafe)
        if not quiet:
            print(f"rxt-tf explain: {path}: {len(edits)} rewrite(s)", file=sys.stderr)
    return changed


if __name__ == "__main__":
    sys.exit(main())
