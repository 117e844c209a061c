"""The package's import graph has no cycle, and `scripts/import_graph.py` finds one where there is."""

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "scripts" / "import_graph.py"


def _script():
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_package_has_no_import_cycle() -> None:
    graph = _script().import_graph(ROOT / "src", "plausibility")
    assert "plausibility.scorers.registry" in graph and "plausibility.cli" in graph
    assert _script().find_cycle(graph) is None


def test_deferred_relative_and_type_checking_imports(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n",
            "b.py": "def f():\n    from . import a\n    import pkg.sub.c\n",
            "sub/__init__.py": "from .c import g\n",
            "sub/c.py": "from ..a import x\n",
        },
    )
    graph = _script().import_graph(root, "pkg")
    assert graph == {
        "pkg": set(),
        "pkg.a": set(),  # the TYPE_CHECKING import never runs
        "pkg.b": {"pkg.a", "pkg.sub.c"},  # `from . import a` reaches the submodule, not the package
        "pkg.sub": {"pkg.sub.c"},
        "pkg.sub.c": {"pkg.a"},
    }
    assert _script().find_cycle(graph) is None


def test_a_cycle_fails_with_its_modules_in_import_order(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {"__init__.py": "", "a.py": "from pkg.b import y\n", "b.py": "import pkg.c\n", "c.py": "from pkg import a\n"},
    )
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--src", str(root), "--package", "pkg"], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stdout == "pkg: -\npkg.a: pkg.b\npkg.b: pkg.c\npkg.c: pkg.a\n"
    assert done.stderr == (
        "import cycle: pkg.a -> pkg.b -> pkg.c -> pkg.a; break it by moving what they share into one module\n"
    )
