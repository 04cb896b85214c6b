"""muggins-cli: check, analyse and solve recorded Muggins matches.

The package is layered so that each layer knows only the ones below it:
``tiles`` → ``notation`` (text ⇄ record, no rules) → ``rules`` (presets) →
``engine`` (state, legal moves, scoring; no text) → ``replay`` (record +
engine → diagnostics) → ``analysis``, ``solver`` → ``report`` → ``cli``.
"""

__version__ = "0.1.0"
