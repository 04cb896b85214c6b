"""muggins-cli: check, analyse and solve recorded Muggins matches.

The package is layered so that each layer knows only the ones below it:
``tiles`` → ``notation`` (text ⇄ record, no rules) → ``rules`` (presets) →
``engine`` (state, legal moves, scoring; no text) → ``replay`` (record +
engine → diagnostics) → ``analysis``, ``solver`` → ``report`` → ``cli``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    # pyproject.toml is the one place the version is written.
    __version__ = version("muggins-cli")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "unknown"
