"""Build hook: the wheel carries the rxt-tf crate sources of its own version.

When the wheel is built from an rxt-tf checkout, ``cargo package`` packages
the publishable crates (``rxt-tf``, ``rxt-tf-runtime``, ``rxt-tf-macros``,
``rxt-tf-spec``) with normalized manifests, and their contents become the
package data ``rxt_tf_plugin/crates/<name>-<version>/``. ``python -m
rxt_tf_plugin setup`` then points a project's cargo at them, with no
checkout anywhere. Editable installs use the checkout itself instead.
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CHECKOUT = Path(__file__).resolve().parent.parent
CRATES = ("rxt-tf-spec", "rxt-tf-macros", "rxt-tf-runtime", "rxt-tf")


class BuildPyWithCrates(build_py):
    """``build_py`` that also writes ``rxt_tf_plugin/crates`` into the build."""

    def run(self) -> None:
        """Build the package, then add the packaged crates beside it."""
        super().run()
        if self.editable_mode or not (CHECKOUT / "rxt-tf-spec" / "Cargo.toml").is_file():
            return
        target = Path(self.build_lib) / "rxt_tf_plugin" / "crates"
        with tempfile.TemporaryDirectory() as scratch:
            command = ["cargo", "package", "--quiet", "--no-verify", "--allow-dirty"]
            command += [
                "--workspace",
                *("--exclude", "rxt-tf-example", "--exclude", "rxt-tf-python"),
                *("--exclude", "xtask"),
            ]
            subprocess.run(
                [*command, "--target-dir", scratch],
                cwd=CHECKOUT,
                check=True,
            )
            for archive in sorted((Path(scratch) / "package").glob("*.crate")):
                if archive.name.rsplit("-", 1)[0] in CRATES:
                    with tarfile.open(archive) as crate:
                        crate.extractall(target, filter="data")


setup(cmdclass={"build_py": BuildPyWithCrates})
