"""Command line: ``python -m rxt_tf_plugin setup <project> [--crate-path DIR]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
