"""What a project says of its records: ``[tool.muggins]`` in ``pyproject.toml``,
``--select``/``--ignore`` and ``--exclude``, and which files a folder gives.

The table is found the way ruff finds ``[tool.ruff]``: from the first path
on the command line (its folder, or the current one for standard input) up
to the root, the nearest ``pyproject.toml`` that has the table; a
``pyproject.toml`` without it is passed over. Its keys:

- ``select``, ``ignore``: codes or severities (``error``, ``warning``,
  ``info``), read before the command line's (:class:`~muggins_cli.check.Selection`);
- ``exclude``: patterns in ``.gitignore``'s syntax, matched against each
  file found below a folder given, from that folder, added to ``--exclude``;
- ``respect-gitignore`` (default true): leave out what ``.gitignore``
  files ignore.

Below a folder given, hidden files and folders (their names start with
``.``) are left out too. A file named on the command line is always read.
Matching ``.gitignore`` patterns is pathspec's (git's own rules, negations
included), imported only when there is a pattern to match.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from muggins_cli.check import SEVERITIES, STDIN, Keep, Selection
from muggins_cli.errors import InputError

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

PYPROJECT = "pyproject.toml"
TABLE = "[tool.muggins]"
#: Every key of the table, and what its value must be.
KEYS = {"select": "a list of codes or severities", "ignore": "a list of codes or severities",
        "exclude": "a list of patterns", "respect-gitignore": "true or false"}


@dataclass(frozen=True)
class Config:
    """The ``[tool.muggins]`` table that applies (empty when none does)."""

    path: Path | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True


def start_of(paths: Sequence[str]) -> Path:
    """Where the search for the table starts: the first path's folder."""
    first = paths[0] if paths else STDIN
    if first == STDIN:
        return Path.cwd()
    path = Path(os.path.abspath(first))
    # isdir, not Path.is_dir: a name too long for the system is no folder.
    return path if os.path.isdir(path) else path.parent


def find_config(start: Path) -> Config:
    """The nearest ``[tool.muggins]`` at or above ``start``."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        text = _read(candidate)
        if text is None or not _may_have_table(text):
            continue  # most pyproject.toml files: no need to parse them
        table = _table(candidate, text)
        if table is not None:
            return _config(candidate, table)
    return Config()


_BARE_TOOL = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\]", re.MULTILINE)


def _may_have_table(text: str) -> bool:
    """Whether the text may hold ``[tool.muggins]``, in any of TOML's ways
    of writing it (``[tool.muggins]``, ``tool.muggins.select = ...``, or a
    ``[tool]`` table with a ``muggins`` key): only such a text is parsed,
    not every pyproject.toml that names a muggins-cli script."""
    if "muggins" not in text:
        return False
    return any("tool" in line and "muggins" in line for line in text.splitlines()) \
        or _BARE_TOOL.search(text) is not None


#: The most of a pyproject.toml that is read, as of a rules file.
MOST_BYTES = 1 << 20


def _read(path: Path) -> str | None:
    """The text of a regular file (never a pipe, which could block for
    ever), or None when there is none to read; a file over
    :data:`MOST_BYTES` is refused rather than read whole."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            data = f.read(MOST_BYTES + 1)
    except OSError:
        return None  # none here, or not one we could read: on up, as ruff goes
    if len(data) > MOST_BYTES:
        raise InputError(f"{path}: over {MOST_BYTES // (1 << 20)} MB, not read")
    return data.decode("utf-8", errors="replace")


def _table(path: Path, text: str) -> dict[str, Any] | None:
    import tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: not valid TOML: {e}") from None
    tool = data.get("tool")
    found = tool.get("muggins") if isinstance(tool, dict) else None
    if found is None:
        return None
    if not isinstance(found, dict):
        raise InputError(f"{path} {TABLE} must be a table")
    return found


def _config(path: Path, table: dict[str, Any]) -> Config:
    where = f"{path} {TABLE}"
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r} (the keys are "
                         f"{', '.join(sorted(KEYS))})")
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("select", "ignore", "exclude"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(f"{where}: {key} must be {KEYS[key]} (strings in [ ])")
        lists[key] = tuple(value)
    respect = table.get("respect-gitignore", True)
    if not isinstance(respect, bool):
        raise InputError(f"{where}: respect-gitignore must be {KEYS['respect-gitignore']}")
    return Config(path, lists["select"], lists["ignore"], lists["exclude"], respect)


def split_names(values: Sequence[str]) -> tuple[str, ...]:
    """``--select a,b --select c`` as ``(a, b, c)``, as ruff takes them."""
    return tuple(n.strip() for v in values for n in v.split(",") if n.strip())


def check_names(names: Sequence[str], where: str) -> None:
    """Refuse a name that is neither a code of docs/diagnostics.md nor a
    severity: a typo would otherwise select nothing, or ignore nothing."""
    if not names:
        return
    import difflib

    from muggins_cli.report.explain import entries

    known = [*entries(), *SEVERITIES]
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else \
                " (see muggins explain for the codes)"
            raise InputError(f"{where}: unknown code or severity {name!r}{hint}")


def selection(config: Config, select: Sequence[str], ignore: Sequence[str]) -> Selection:
    """The table's ``select``/``ignore``, then the command line's."""
    layers = []
    for chosen, left, where in ((config.select, config.ignore, f"{config.path} {TABLE}"),
                                (split_names(select), split_names(ignore), "")):
        check_names(chosen, f"{where} select" if where else "--select")
        check_names(left, f"{where} ignore" if where else "--ignore")
        if chosen or left:
            layers.append((frozenset(chosen), frozenset(left)))
    return Selection(tuple(layers))


@dataclass
class Walk:
    """Which files found below a folder given are read: not hidden, not
    excluded, and (``gitignore``) not ignored by a ``.gitignore`` of the
    repository they are in, from its root down (outside a repository,
    from the folder given down). Call it as ``keep(folder, file)``."""

    exclude: tuple[str, ...] = ()
    gitignore: bool = True
    _excluded: GitIgnoreSpec | None = field(default=None, repr=False)
    _ignores: dict[Path, GitIgnoreSpec | None] = field(default_factory=dict, repr=False)
    _tops: dict[Path, Path] = field(default_factory=dict, repr=False)

    def __call__(self, folder: str, file: str) -> bool:
        base = Path(os.path.abspath(folder))
        path = Path(os.path.abspath(file))
        if path == base:
            return True  # the folder given, which the walk could not list: named, so read
        below = path.relative_to(base)
        if any(part.startswith(".") for part in below.parts):
            return False
        if self.exclude:
            if self._excluded is None:
                self._excluded = _spec(self.exclude)
            if self._excluded.match_file(below.as_posix()):
                return False
        return not (self.gitignore and self._git_ignored(base, path))

    def _git_ignored(self, base: Path, path: Path) -> bool:
        top = self._top(base)
        ignored = False
        # Each .gitignore from the top down; a deeper one's decision wins.
        for folder in (top, *_between(top, path.parent)):
            spec = self._ignore_file(folder)
            if spec is not None:
                found = spec.check_file(path.relative_to(folder).as_posix())
                if found.include is not None:
                    ignored = found.include
        return ignored

    def _top(self, base: Path) -> Path:
        if base not in self._tops:
            repository = next((f for f in (base, *base.parents) if _has_git(f)), None)
            self._tops[base] = repository if repository is not None else base
        return self._tops[base]

    def _ignore_file(self, folder: Path) -> GitIgnoreSpec | None:
        if folder not in self._ignores:
            try:
                lines = (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                lines = []
            self._ignores[folder] = _spec(lines) if lines else None
        return self._ignores[folder]


def _has_git(folder: Path) -> bool:
    """Whether ``folder`` is a repository's top; a folder that cannot be
    searched (or a path past the system's limit) is not one we can read,
    and the walk reports it as unreadable, so the question never fails."""
    try:
        return (folder / ".git").exists()
    except OSError:
        return False


def _between(top: Path, folder: Path) -> list[Path]:
    """The folders from below ``top`` down to ``folder``."""
    return [top.joinpath(*folder.relative_to(top).parts[:i])
            for i in range(1, len(folder.relative_to(top).parts) + 1)]


def _spec(lines: Sequence[str]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)


@dataclass(frozen=True)
class Settings:
    """What a command that reads records takes from the project and its
    command line: the findings it shows, and the files a folder gives."""

    selection: Selection
    keep: Keep


def settings(paths: Sequence[str], *, select: Sequence[str] = (), ignore: Sequence[str] = (),
             exclude: Sequence[str] = ()) -> Settings:
    """Raises :class:`InputError` for a bad table or an unknown name."""
    config = find_config(start_of(paths))
    walk = Walk(exclude=(*config.exclude, *split_names(exclude)),
                gitignore=config.respect_gitignore)
    return Settings(selection(config, select, ignore), walk)
