"""Prints the names a Python SDK must not shadow, sorted, one per line: the
list codemode-core keeps in src/ident/py_reserved.txt (builtins, typing,
keywords), plus names that later Pythons add."""
import builtins
import keyword
import typing

LATER = {
    "PythonFinalizationError", "_IncompleteInputError", "TypeAliasType", "ReadOnly", "TypeIs",
    "NoDefault", "get_protocol_members", "is_protocol", "override", "Buffer",
    "evaluate_forward_ref", "Format", "get_original_bases", "TypeForm", "annotations",
    "__future__",
}
names = set(dir(builtins)) | set(typing.__all__) | set(keyword.kwlist) | set(keyword.softkwlist) | LATER
print("\n".join(sorted(names)))
