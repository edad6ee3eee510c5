"""The numba cache is dropped when any package source changes (numba alone checks only a kernel's own file)."""

from takeiteasy._jit import drop_stale_caches


def test_cache_files_dropped_only_when_sources_change(tmp_path):
    (tmp_path / "features.py").write_text("A = 1\n")
    cache = tmp_path / "sub" / "__pycache__"
    cache.mkdir(parents=True)
    (tmp_path / "sub" / "search.py").write_text("B = 2\n")
    stale = cache / "search.best-10.py311.nbi"
    stale.write_text("x")
    assert drop_stale_caches(tmp_path)  # no stamp yet: everything goes
    assert not stale.exists()

    fresh = cache / "search.best-10.py311.1.nbc"
    fresh.write_text("y")
    assert not drop_stale_caches(tmp_path)  # nothing changed: cache kept
    assert fresh.exists()

    (tmp_path / "features.py").write_text("A = 2\n")  # another module's edit
    assert drop_stale_caches(tmp_path)
    assert not fresh.exists()
    assert (tmp_path / "sub" / "search.py").exists()  # sources untouched


def test_cache_files_in_numba_cache_dir_are_dropped_too(tmp_path):
    import hashlib

    package = tmp_path / "pkg"
    (package / "ai").mkdir(parents=True)
    (package / "ai" / "search.py").write_text("B = 2\n")
    folder = package / "ai"
    mirror = tmp_path / "cache" / f"ai_{hashlib.sha1(str(folder).encode()).hexdigest()}"  # numba's naming
    mirror.mkdir(parents=True)
    other = tmp_path / "cache" / "elsewhere_0123"
    other.mkdir()
    (mirror / "search.best-3.py311.nbi").write_text("x")
    (other / "theirs-1.py311.nbi").write_text("x")
    assert drop_stale_caches(package, cache_dir=str(tmp_path / "cache"))
    assert not (mirror / "search.best-3.py311.nbi").exists()
    assert (other / "theirs-1.py311.nbi").exists()  # another project's cache is not ours to drop


def test_each_cache_folder_is_checked_against_the_sources_on_its_own(tmp_path):
    """Two cache folders (``NUMBA_CACHE_DIR``) used in turn: an edit seen while using one must still drop the
    other's files when it is used next, not only the first's."""
    import hashlib

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "search.py").write_text("B = 2\n")

    def cached_file(cache: str):
        mirror = tmp_path / cache / f"pkg_{hashlib.sha1(str(package).encode()).hexdigest()}"
        mirror.mkdir(parents=True, exist_ok=True)
        (mirror / "search.best-3.py311.nbi").write_text("x")
        return mirror / "search.best-3.py311.nbi"

    first, second = str(tmp_path / "a"), str(tmp_path / "b")
    drop_stale_caches(package, cache_dir=first)
    drop_stale_caches(package, cache_dir=second)
    in_first, in_second = cached_file("a"), cached_file("b")
    (package / "search.py").write_text("B = 3\n")
    assert drop_stale_caches(package, cache_dir=second) and not in_second.exists()
    assert in_first.exists()
    assert drop_stale_caches(package, cache_dir=first) and not in_first.exists()


def test_every_compiled_kernel_releases_the_gil():
    """A compiled kernel holding the GIL stops every other thread for the whole call: in the web server, an AI
    player's search stalled all rooms' requests for up to 0.7 s a call (docs/BENCHMARKS.md, "The server while
    AI players think").  Every kernel of the package is compiled with ``nogil``."""
    import importlib
    import pkgutil

    import pytest

    import takeiteasy
    from takeiteasy._jit import COMPILED

    if not COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")
    from numba.core.registry import CPUDispatcher

    kernels = {}
    for module_info in pkgutil.walk_packages(takeiteasy.__path__, "takeiteasy."):
        if module_info.name.startswith(("takeiteasy.envs", "takeiteasy.server")) or \
                module_info.name.endswith("__main__"):
            continue  # optional extras and the command line's entry point; they define no kernels
        module = importlib.import_module(module_info.name)
        kernels.update({f"{module.__name__}.{name}": value for name, value in vars(module).items()
                        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__})
    assert len(kernels) >= 20
    assert [name for name, dispatcher in kernels.items() if not dispatcher.targetoptions.get("nogil")] == []


def test_a_cache_folder_elsewhere_keeps_the_stamp_and_nothing_is_written_into_the_package(tmp_path):
    """With ``NUMBA_CACHE_DIR`` set, the digest of the sources goes in that folder: an installed package may be
    read-only, and a file written into it stays behind after ``pip uninstall``."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "search.py").write_text("B = 2\n")
    cache = tmp_path / "cache" / "not-made-yet"
    assert drop_stale_caches(package, cache_dir=str(cache))
    assert sorted(p.name for p in package.rglob("*")) == ["search.py"]
    assert len(list(cache.glob("numba-sources-*.sha256"))) == 1
    assert not drop_stale_caches(package, cache_dir=str(cache))  # the stamp there is read back


def add_one(x):
    return x + 1


def test_kernels_compile_without_a_cache_where_numba_has_no_folder_for_one(monkeypatch, capsys):
    """A read-only install run by a user with no writable home (a service account) and no ``NUMBA_CACHE_DIR``:
    numba found nowhere to cache and raised at import ("no locator available"), a traceback for every command.
    The kernels are then compiled uncached, and one line says how to keep them."""
    import pytest
    from numba.core.caching import FunctionCache

    from takeiteasy import _jit

    if not _jit.COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")
    # numba's own list of places to try (its in-tree folder, NUMBA_CACHE_DIR, the user's cache), emptied
    monkeypatch.setattr(FunctionCache._impl_class, "_locator_classes", [])
    monkeypatch.setattr(_jit._numba.config, "CACHE_LOCATOR_CLASSES", "", raising=False)
    monkeypatch.setattr(_jit, "CACHED", True, raising=False)
    compiled = _jit.kernel(add_one)
    assert compiled(41) == 42 and compiled.targetoptions.get("nogil")
    assert not _jit.CACHED
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "compiled again on every run" in err and "NUMBA_CACHE_DIR" in err
    assert _jit.kernel(add_one)(1) == 2 and capsys.readouterr().err == ""  # said once
