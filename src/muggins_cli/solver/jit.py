"""How the solver's search is compiled: with Numba, cached on disk where
that is safe, and over the engine's own rule functions.

The search (:mod:`.kernel_run`, :mod:`.kernel_frame`, :mod:`.kernel_table`)
compiles the engine's functions (:mod:`muggins_cli.engine.keys` and
:mod:`muggins_cli.engine.turn`) as they stand (:func:`_compile`). Numba
keeps compiled code per machine in a folder named by the sources it
depends on (:func:`_sources`), chosen by :func:`cache_folder`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

import numba

from muggins_cli.engine import keys as _keys
from muggins_cli.engine import turn as _turn


def _sources() -> str:
    """Numba keeps compiled code per machine; the kernels call the engine's
    functions, whose changes Numba's cache would not notice, so the folder
    is named by the sources it depends on and Numba's version."""
    digest = hashlib.sha256(numba.__version__.encode())
    here = Path(__file__)
    search = sorted(here.parent.glob("kernel*.py"))
    for path in (here, *search, Path(_keys.__file__), Path(_turn.__file__)):
        digest.update(path.read_bytes())
    return f"numba-{digest.hexdigest()[:16]}"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def cache_folder(name: str, usual: Path | None, temp: Path | None
                 ) -> tuple[Path, bool] | None:
    """Where the compiled code ``name`` is kept, and whether that is not
    the usual place: ``usual/muggins-cli/name`` if it can be written, else
    ``name`` in a folder of this user's own in ``temp``
    (``muggins-cli-UID``), else None (nowhere: compile in memory). Numba
    runs the code it loads from there, so the folder in ``temp``, where
    anyone may make files, is used only if it is a real folder this user
    owns and no one else may write."""
    if usual is not None and _writable(usual / "muggins-cli" / name):
        return usual / "muggins-cli" / name, False
    if temp is None:
        return None
    own = temp / f"muggins-cli-{os.geteuid()}"
    with contextlib.suppress(OSError):  # there already, or not to be made: seen below
        os.mkdir(own, 0o700)
    try:
        st = os.lstat(own)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
        return None
    return (own / name, True) if _writable(own / name) else None


def _usual_cache() -> Path | None:
    found = os.environ.get("XDG_CACHE_HOME")
    if found:
        return Path(found)
    try:
        return Path.home() / ".cache"
    except RuntimeError:  # no HOME, and no entry in the password file
        return None


def _temporary() -> Path | None:
    try:
        return Path(tempfile.gettempdir())
    except OSError:  # not one of the places it tries can be written
        return None


#: Set once the note on where the code is kept was said, so that a worker
#: process that imports this module again does not say it again.
_NOTED = "MUGGINS_CLI_CACHE_NOTED"


def _say_where(found: tuple[Path, bool] | None, usual: Path | None) -> None:
    """One line on stderr, once, when the code is not kept in the usual place."""
    if (found is not None and not found[1]) or os.environ.get(_NOTED):
        return
    os.environ[_NOTED] = "1"
    tried = _shown(str(usual)) if usual is not None else "a cache folder (there is no home)"
    if found is None:
        where = (f"{tried} nor in a folder of your own in the temporary folder; it is "
                 "compiled in memory for this run")
    else:
        where = f"{tried}; it is kept in {_shown(str(found[0].parent))}"
    stream = sys.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"muggins: note: the solver's compiled code cannot be kept in {where}\n")
            stream.flush()


def _shown(text: str) -> str:
    """A path from the environment, what a terminal would act on escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)



_USUAL = _usual_cache()
_FOLDER = cache_folder(_sources(), _USUAL, _temporary())
_say_where(_FOLDER, _USUAL)
#: Whether the compiled code is kept between runs (else every run compiles it).
KEPT = _FOLDER is not None


#: The engine's functions a search calls at every node, compiled into the
#: kernel's own code (about twice the nodes a second); the rest are calls,
#: which keeps the first compilation short.
_INLINE = frozenset({"open_pip", "ends_of", "fit_mask", "drawable", "draw_faults", "turn_options",
                     "_spinner", "end_code",
                     "blocked", "after_placement", "after_pass", "pass_fault"})


_F = TypeVar("_F", bound=Callable[..., Any])
#: How every function of the search is compiled: cached on disk, without
#: the GIL, and without Numba's reference counts (the search allocates
#: nothing; with them each array handed to a function cost two atomic
#: operations, a third of the search's time).
_FLAGS: dict[str, Any] = {"cache": _FOLDER is not None, "nogil": True, "_nrt": False}


def jit(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit`` with :data:`_FLAGS`, its cache in :data:`_FOLDER`
    (Numba reads the folder when a function is decorated; it is set for
    that moment only, so that no other code's cache moves)."""
    def decorate(f: _F) -> _F:
        saved = numba.config.CACHE_DIR  # type: ignore[attr-defined]
        if _FOLDER is not None:
            numba.config.CACHE_DIR = str(_FOLDER[0])  # type: ignore[attr-defined]
        try:
            compiled: _F = numba.njit(**_FLAGS, **options)(f)
        finally:
            numba.config.CACHE_DIR = saved  # type: ignore[attr-defined]
        return compiled
    return decorate


def _compile(*modules: types.ModuleType) -> types.SimpleNamespace:
    """Every function of ``modules`` compiled, calling one another compiled:
    each is rebuilt over one shared namespace in which the names of the
    others are their compiled forms, so the engine's source stays plain
    Python (it knows nothing of Numba) and is the code that runs here."""
    ns: dict[str, Any] = {}
    funcs: list[tuple[str, types.FunctionType]] = []
    for mod in modules:
        for name, value in vars(mod).items():
            if isinstance(value, types.FunctionType) and value.__module__ == mod.__name__:
                funcs.append((name, value))
            elif isinstance(value, int) and not name.startswith("__"):
                ns[name] = value
    out = types.SimpleNamespace()
    for name, f in funcs:
        g = types.FunctionType(f.__code__, ns, name, f.__defaults__)
        g.__module__ = f.__module__
        g.__qualname__ = f.__qualname__
        inline: Literal["always", "never"] = "always" if name in _INLINE else "never"
        compiled = jit(inline=inline)(g)
        ns[name] = compiled
        setattr(out, name, compiled)
    return out


_E = _compile(_keys, _turn)
fit_mask = _E.fit_mask
search_moves_into = _E.search_moves_into
drawable = _E.drawable
turn_options = _E.turn_options
after_placement = _E.after_placement
after_pass = _E.after_pass
settle = _E.settle
winner_at_settlement = _E.winner_at_settlement
