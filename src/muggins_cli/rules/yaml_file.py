"""The YAML of a rules file: one mapping, read safely, with the line of
every key (which ``yaml.safe_load`` forgets).

Imported by :mod:`muggins_cli.rules.loader` only when it reads YAML (a
rules file, a preset whose validated copy is out of date), so that a
record checked against a shipped preset does not load PyYAML.

What a rules file may not hold is refused as it is met, before anything is
built from it: anchors and aliases (an alias bomb takes gigabytes, and a
self-referring alias recurses past Python's limit), nesting past
:data:`MAX_DEPTH` levels (5,000 brackets do too), a number of more than 100
characters (Python refuses to convert more than 4,300 digits), and a field
given twice.
"""

from __future__ import annotations

from typing import TypeAlias

import yaml

from muggins_cli.notation.quoting import shorten

#: A field or entry of the document: the keys down to it, as strings all the
#: way down ("players", "2"), so a jsonschema error path can be looked up
#: after ``str()``.
Path: TypeAlias = tuple[str, ...]
#: Where each field or entry starts: path -> (key line, value line), 1-based.
Marks: TypeAlias = dict[Path, tuple[int, int]]

#: A rules file nests three deep (the document, ``target``, a number).
MAX_DEPTH = 16

_NO_ANCHORS = "is not allowed in a rules file; write the value out"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlProblem(Exception):
    """Why the text is no rules document, and on which line (None: the
    whole file)."""

    def __init__(self, line: int | None, problem: str) -> None:
        super().__init__(problem)
        self.line = line
        self.problem = problem


class _Refused(YamlProblem):
    """YAML that is valid but that a rules file may not hold, at ``mark``."""

    def __init__(self, mark: object, problem: str) -> None:
        line = getattr(mark, "line", None)
        super().__init__(line + 1 if isinstance(line, int) else None, problem)


class _RulesLoader(yaml.SafeLoader):
    """SafeLoader without what only an attacker needs in a rules file.

    Anchors and aliases are refused as they are met, before anything is
    built from them, and nesting is counted, so loading takes time and
    memory in proportion to the file and stays far from the recursion limit.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(event.start_mark, f"an alias (*{event.anchor}) {_NO_ANCHORS}")
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(event.start_mark, f"an anchor (&{anchor}) {_NO_ANCHORS}")
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Refused(event.start_mark, f"values nested more than {MAX_DEPTH} "
                                                 "deep; a rules file needs 3")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        # Python refuses to convert more than 4,300 digits; say so on its line.
        if len(node.value) > 100:
            raise _Refused(node.start_mark, f"a number of {len(node.value)} characters")
        return super().construct_yaml_int(node)


_RulesLoader.add_constructor("tag:yaml.org,2002:int", _RulesLoader.construct_yaml_int)


def parse(text: str) -> tuple[object, Marks]:
    """The document plus the line of every key; :class:`YamlProblem` when
    the text is no YAML a rules file may be.

    The node tree is walked before it is constructed because construction
    flattens ``<<`` merges in place, which would look like duplicate keys.
    """
    loader = _RulesLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise YamlProblem(None, "the file is empty; expected a mapping of rules fields")
        marks: Marks = {}
        _collect_marks(loader, node, (), marks)
        data: object = loader.construct_document(node)
    except YamlProblem:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "cannot be read"
        raise YamlProblem(line, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(None, f"YAML error: {exc}") from None
    finally:
        loader.dispose()
    return data, marks


def _collect_marks(loader: _RulesLoader, node: yaml.Node, path: Path, marks: Marks) -> None:
    # Keys are constructed one by one (``2`` -> "2", ``yes`` -> "True") so a
    # path matches the key that ``safe_load`` will produce.
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                continue  # a complex key (construction reports it) or a ``<<`` merge
            key = str(loader.construct_object(key_node, deep=True))
            child = (*path, key)
            line = key_node.start_mark.line + 1
            if child in marks:
                first = marks[child][0]
                raise YamlProblem(line, f"field {shorten('.'.join(child))!r} given twice "
                                        f"(first on line {first})")
            marks[child] = (line, value_node.start_mark.line + 1)
            _collect_marks(loader, value_node, child, marks)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            line = item.start_mark.line + 1
            marks[(*path, str(index))] = (line, line)
            _collect_marks(loader, item, (*path, str(index)), marks)


def dump(mapping: dict[str, object]) -> str:
    """A rules mapping as the YAML ``muggins rules`` prints."""
    return yaml.safe_dump(mapping, sort_keys=False, default_flow_style=None,
                          allow_unicode=True)
