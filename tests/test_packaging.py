"""What the built distributions carry: the wheel a user installs, and the source distribution the tests run from."""

import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tracked_files() -> list[str]:
    """The checkout's files as git knows them (paths relative to the root); skips outside a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


def test_the_source_distribution_carries_every_file_the_tests_and_docs_need():
    """MANIFEST.in, read as setuptools reads it: every tracked file but the CI's own script is in the sdist.
    CONTRIBUTING.md was not, so README.md's link to it was broken there and test_docs_links failed."""
    from setuptools.command.egg_info import FileList

    files = tracked_files()
    manifest = FileList()
    manifest.allfiles = list(files)  # what the template's graft and include lines choose from
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            manifest.process_template_line(line)
    # setuptools adds pyproject.toml, MANIFEST.in and the package's files itself; .ci/ and .gitignore are the
    # checkout's own
    added = {".gitignore", "pyproject.toml", "MANIFEST.in"}
    expected = {f for f in files if not f.startswith(("src/", ".ci/")) and f not in added}
    assert sorted(expected - set(manifest.files)) == []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel ``pip wheel`` builds from a copy of the tree (a build in the checkout would leave build/ there, and
    a stale build/lib can put deleted files into a later wheel)."""
    work = tmp_path_factory.mktemp("wheel")
    tree = work / "tree"
    for name in ("pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.nbi", "*.nbc"))
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                             "--wheel-dir", str(work / "dist"), str(tree)], capture_output=True, text=True, timeout=300)
    if result.returncode and "setuptools" in result.stderr and ("No matching distribution" in result.stderr
                                                                 or "Could not find a version" in result.stderr):
        pytest.skip("the build backend (setuptools>=77) cannot be had here")
    assert result.returncode == 0, result.stderr[-2000:]
    [built] = (work / "dist").glob("takeiteasy-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_holds_the_package_with_its_data_and_nothing_else(wheel):
    names = [n for n in wheel.namelist() if not n.endswith("/")]
    info = [n for n in names if ".dist-info/" in n]
    package = sorted(n for n in names if n not in info)
    files = [f for f in tracked_files() if f.startswith("src/takeiteasy/")]
    # every tracked file of the package: modules, weights, layouts, presets, the web page's files, py.typed
    assert package == sorted(f.removeprefix("src/") for f in files)
    assert any(n.startswith("takeiteasy/data/weights/") and n.endswith(".npz") for n in package)
    assert {"takeiteasy/server/static/index.html", "takeiteasy/py.typed"} <= set(package)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in info)
    weights = sum(wheel.getinfo(n).file_size for n in package if n.endswith(".npz"))
    assert weights <= 20_000_000  # issue 6: the weights ship inside the package, 20 MB at most
    assert sum(wheel.getinfo(n).file_size for n in package) - weights < 2_000_000  # no stray bulk besides


def test_the_wheel_says_what_it_needs_and_what_it_is(wheel):
    [metadata_name] = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["Name"] == "takeiteasy" and metadata["Requires-Python"] == ">=3.11"
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert set(metadata.get_all("Provides-Extra")) == {"rl", "ray", "postgres", "dev"}
    classifiers = metadata.get_all("Classifier") or []
    assert {"Typing :: Typed", "Topic :: Games/Entertainment :: Board Games",
            "Programming Language :: Python :: 3.11"} <= set(classifiers)
    [entry_points] = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "takeiteasy = takeiteasy.cli:main" in wheel.read(entry_points).decode()
