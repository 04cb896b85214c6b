"""MGN notation: text ⇄ records. Nothing in this package knows the rules."""
