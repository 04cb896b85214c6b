"""muggins-cli: check, analyse and solve recorded Muggins matches.

The package is layered so that each layer knows only the ones below it:
``tiles`` → ``notation`` (text ⇄ record, no rules) → ``rules`` (presets) →
``engine`` (state, legal moves, scoring; no text) → ``replay`` (record +
engine → diagnostics) → ``analysis``, ``solver`` → ``report`` → ``cli``.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # ``__version__``, read from the installed metadata when first asked for:
    # importlib.metadata costs more to import than ``muggins check FILE``
    # spends on checking, and only --version and Dask's version check need it.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            # pyproject.toml is the one place the version is written.
            found = version("muggins-cli")
        except PackageNotFoundError:  # a source tree that was never installed
            found = "unknown"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
