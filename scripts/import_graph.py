"""The package's internal import graph, read from the source with `ast`; exits 1 if the graph has a cycle.

Every `import plausibility...` and `from plausibility... import ...` counts, at any depth (a function's
deferred import too, since it still runs), except those under `if TYPE_CHECKING:`, which never run.

    python scripts/import_graph.py [--src src] [--package plausibility] [--quiet]
"""

import argparse
import ast
import sys
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    """`plausibility.scoring.causal` for `root/plausibility/scoring/causal.py` (a package is its `__init__`)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """The absolute names each import statement of the module reaches, TYPE_CHECKING blocks left out."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the importing module's package
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            # `from package import name` reaches the submodule `package.name` when there is one, else the package:
            # both are kept here, and `import_graph` drops the package where every name is a submodule.
            found.add(f"{base}:" + ",".join(alias.name for alias in node.names))
        stack.extend(ast.iter_child_nodes(node))
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of `package` under `root`, with the modules of the package it imports."""
    files = {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}
    graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        reached = set()
        for name in _imports(tree, module, path.name == "__init__.py"):
            base, colon, names = name.partition(":")
            submodules = {f"{base}.{alias}" for alias in names.split(",")} if colon else set()
            reached |= submodules & files.keys()
            if not colon or submodules - files.keys():  # some name is not a submodule: it is the package's
                reached.add(base)
        graph[module] = {name for name in reached if name in files and name != module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as its modules in import order (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--package", default="plausibility")
    parser.add_argument("--quiet", action="store_true", help="print only a cycle, if there is one")
    args = parser.parse_args()
    graph = import_graph(args.src, args.package)
    if not graph:
        print(f"no modules of {args.package} under {args.src}; give --src the folder that holds it", file=sys.stderr)
        return 2
    if not args.quiet:
        for module in sorted(graph):
            print(f"{module}: {', '.join(sorted(graph[module])) or '-'}")
    edges = sum(len(targets) for targets in graph.values())
    cycle = find_cycle(graph)
    if cycle:
        message = f"import cycle: {' -> '.join(cycle)}; break it by moving what they share into one module"
        print(message, file=sys.stderr)
        return 1
    print(f"{len(graph)} modules, {edges} internal imports, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
