"""Reports: the same findings as text, JSON, tables, GitHub and JUnit."""
