"""Python's wording of argument errors, shared by the program's functions and the builtins."""

from __future__ import annotations


def counted(n: int, word: str) -> str:
    """'1 positional argument', '2 positional arguments'."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def quoted_names(names: list[str]) -> str:
    """'a'; 'a' and 'b'; 'a', 'b', and 'c'."""
    quoted = [f"'{n}'" for n in names]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]


def missing_arguments(title: str, names: list[str],
                      kind: str = "required positional argument") -> str:
    """Python's message for a call without some required arguments."""
    return f"{title}() missing {counted(len(names), kind)}: {quoted_names(names)}"
