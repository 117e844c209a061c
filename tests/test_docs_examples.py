"""Every shell example of the README and the docs runs, and prints what the page says it prints.

An example is a ```console block: lines starting with `$ ` are commands (continued on lines starting with `> `,
as a shell shows a here-document), run in order by bash in a fresh folder (one per block, so a block's files
are its own), and the lines below each command are its standard output
(standard error only where the command says `2>&1`). In the expected output, a line `...` stands for any
number of lines and `...` inside a line for any text; trailing spaces and blank lines do not count. A figure
printed to k >= 2 decimals matches one printed to the same k decimals within one unit of its last place: float32
sums move with the machine's kernels and thread count, and a figure that sits on a rounding boundary can print
one unit apart on another machine (versions and counts, with fewer decimals, match exactly). A last
line `(exit N)` expects that exit code instead of 0. A block preceded by `<!-- not run: REASON -->` is not run (a GPU, a
cluster, an install); `tests/test_docs_examples.py::test_the_examples_not_run_are_few_and_say_why` lists them.

`pytest tests/test_docs_examples.py --record-examples` writes each command's actual output into the page
instead (review the diff, then put `...` where output varies from run to run).
"""

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"(?P<marker><!-- not run: (?P<reason>[^>]*) -->\n)?```console\n(?P<body>.*?)```", re.S)
_EXIT = re.compile(r"^\(exit (\d+)\)$")
SKIPPED_AT_MOST = 12


@dataclass
class Command:
    line: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Example:
    page: Path
    start: int  # offset of the block's body in the page
    body: str
    commands: list[Command]
    skipped: str | None

    @property
    def name(self) -> str:
        line = self.page.read_text(encoding="utf-8")[: self.start].count("\n") + 1
        return f"{self.page.relative_to(ROOT)}:{line}"


def _examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            commands: list[Command] = []
            for line in match.group("body").splitlines():
                if line.startswith("$ "):
                    commands.append(Command(line[2:]))
                elif line.startswith("> ") and commands and not commands[-1].expected:
                    commands[-1].line += "\n" + line[2:]
                elif commands:
                    commands[-1].expected.append(line)
            found.append(Example(page, match.start("body"), match.group("body"), commands, match.group("reason")))
    return found


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` lines fit `expected`, where `...` alone spans any lines and `...` in a line any text."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(_matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    return _line_matches(head, actual[0]) and _matches(rest, actual[1:])


# A figure printed to two or more decimals (not part of a version such as 0.2.0 or an address).
_FIGURE = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*\.(\d{2,})(?![\w]|\.\d)")


def _line_matches(expected: str, actual: str) -> bool:
    """One line: `...` stands for any text, and each figure of k >= 2 decimals for a figure of k decimals within
    one unit of its last place (the module docstring says why)."""
    pattern, figures = [], []
    for index, part in enumerate(expected.split("...")):
        if index:
            pattern.append(".*")
        last = 0
        for found in _FIGURE.finditer(part):
            pattern.append(re.escape(part[last : found.start()]))
            pattern.append(r"(-?\d+(?:,\d{3})*\.\d{" + str(len(found.group(1))) + "})")
            figures.append(found.group(0))
            last = found.end()
        pattern.append(re.escape(part[last:]))
    match = re.fullmatch("".join(pattern), actual)
    if match is None:
        return False
    for printed, written in zip(match.groups(), figures, strict=True):
        unit = 10.0 ** -len(written.split(".")[1])
        if abs(float(printed.replace(",", "")) - float(written.replace(",", ""))) > unit * 1.000001:
            return False
    return True


def _environment() -> dict[str, str]:
    """The user's environment with this interpreter's `plausibility` first, and a fixed terminal width."""
    bin_folder = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "110",  # rich tables lay out the same on every machine
        "PYTHONWARNINGS": "ignore",
        # the default's language model in float32 on every CPU: bfloat16's figures move with the CPU's kernels
        "PLAUSIBILITY_PRECISION": "float32",
    }


EXAMPLES = _examples()


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.skipped is None], ids=lambda e: e.name)
def test_each_example_prints_what_its_page_says(
    example: Example, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    recording = request.config.getoption("--record-examples")
    outputs = []
    for command in example.commands:
        expected_exit = 0
        expected = [line.rstrip() for line in command.expected]
        while expected and not expected[-1]:
            expected.pop()
        if expected and (code := _EXIT.match(expected[-1])):
            expected_exit = int(code.group(1))
            expected = expected[:-1]
        done = subprocess.run(
            ["bash", "-c", command.line],
            cwd=tmp_path,
            env=_environment(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        actual = [line.rstrip() for line in done.stdout.splitlines()]
        while actual and not actual[-1]:  # blank lines at the end do not count, as in the page
            actual.pop()
        if recording:
            outputs.append((command.line, actual, done.returncode))
            continue
        where = f"{example.name}: `{command.line}`"
        assert done.returncode == expected_exit, f"{where} exited {done.returncode}\n{done.stderr[-2000:]}"
        assert _matches(expected, actual), f"{where} printed:\n" + "\n".join(actual)
    if recording:
        _record(example, outputs)


def _record(example: Example, outputs: list[tuple[str, list[str], int]]) -> None:
    """Write the actual outputs into the page, in place of the block's body."""
    lines = []
    for command, actual, code in outputs:
        first, *more = command.split("\n")
        lines += [f"$ {first}", *(f"> {line}" for line in more), *actual, *([f"(exit {code})"] if code else [])]
    text = example.page.read_text(encoding="utf-8")  # earlier blocks of the page may have been rewritten
    example.page.write_text(text.replace(example.body, "\n".join(lines) + "\n", 1), encoding="utf-8")


def test_the_examples_not_run_are_few_and_say_why() -> None:
    skipped = [(e.name, e.skipped) for e in EXAMPLES if e.skipped is not None]
    assert len(skipped) <= SKIPPED_AT_MOST, skipped
    assert all(reason.strip() for _, reason in skipped)
    assert sum(len(e.commands) for e in EXAMPLES if e.skipped is None) >= 30  # the docs show what they say


def test_the_matcher_reads_ellipses_as_the_pages_mean_them() -> None:
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"]) and _matches(["a", "...", "b"], ["a", "b"])
    assert _matches(["score ... s"], ["score 0.25 s"]) and not _matches(["score ... s"], ["scores 0.25"])
    assert not _matches(["a"], ["a", "b"]) and not _matches(["a", "b"], ["a"])


def test_a_figure_matches_within_one_unit_of_its_last_printed_place() -> None:
    assert _matches(["  0.4735  person breathe helium"], ["  0.4734  person breathe helium"])
    assert _matches(["p 0.4735"], ["p 0.4736"]) and _matches(["auc 0.701 [0.67, 0.73]"], ["auc 0.700 [0.68, 0.73]"])
    assert not _matches(["p 0.4735"], ["p 0.4737"]) and not _matches(["p 0.4735"], ["p 0.473"])
    assert not _matches(["p 0.4735"], ["p 0.47350"]) and not _matches(["n 1,234.50"], ["n 1,234.52"])
    # versions and one-decimal figures stay exact; a figure inside `...` text is free
    assert not _matches(["default 1.0"], ["default 1.1"]) and not _matches(["v 0.2.0"], ["v 0.2.1"])
    assert _matches(["took ... s, p 0.25"], ["took 1.93 s, p 0.26"])
