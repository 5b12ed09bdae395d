"""Checks toolscout's tail formats against the vendors' own SDK request types (PyPI `openai`, `anthropic`,
`mcp`): what `?format=` returns must be something those APIs accept as is.

Reads a JSON list of {"format": F, "label": L, "value": V} on stdin; prints one line per item and exits 1 on
the first that does not type-check. Every TypedDict is checked strictly: required keys present, no key the
type does not declare (an API refuses unknown parameters), every value of its declared type. The same value
also goes through pydantic's TypeAdapter, the validation machinery the SDKs ship with.
"""

import json
import sys
import types as pytypes
import typing
from collections.abc import Iterable, Mapping

import pydantic
import typing_extensions as te
from anthropic.types import ToolResultBlockParam
from mcp_types import CallToolResult
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolMessageParam
from openai.types.responses import ResponseInputItemParam
from openai.types.responses.response_tool_search_output_item_param_param import (
    ResponseToolSearchOutputItemParamParam,
)

TYPES = {
    "openai_chat": (ChatCompletionToolMessageParam, ChatCompletionMessageParam),
    "openai_responses": (ResponseToolSearchOutputItemParamParam, ResponseInputItemParam),
    "anthropic": (ToolResultBlockParam, ToolResultBlockParam),
}


def is_typeddict(t) -> bool:
    return te.is_typeddict(t) or typing.is_typeddict(t)


def check(value, t, path: str) -> str | None:
    """None when `value` fits `t`, else why not (the first problem found)."""
    origin = te.get_origin(t)
    args = te.get_args(t)
    if t is typing.Any or t is object:
        return None
    if origin in (te.Required, te.NotRequired, typing.Required, typing.NotRequired):
        return check(value, args[0], path)
    if origin in (te.Annotated, typing.Annotated):
        return check(value, args[0], path)
    if origin is typing.Union or origin is pytypes.UnionType:
        problems = [check(value, a, path) for a in args]
        return None if any(p is None for p in problems) else f"{path}: fits no arm of {t}: {problems}"
    if origin in (te.Literal, typing.Literal):
        return None if value in args else f"{path}: {value!r} is not one of {args}"
    if t is type(None):
        return None if value is None else f"{path}: expected null"
    if t is str:
        return None if isinstance(value, str) else f"{path}: expected a string"
    if t is bool:
        return None if isinstance(value, bool) else f"{path}: expected a boolean"
    if t in (int, float):
        return None if isinstance(value, (int, float)) and not isinstance(value, bool) else f"{path}: expected a number"
    if is_typeddict(t):
        if not isinstance(value, dict):
            return f"{path}: expected an object ({t.__name__})"
        hints = te.get_type_hints(t, include_extras=True)
        unknown = set(value) - set(hints)
        if unknown:
            return f"{path}: {t.__name__} has no key(s) {sorted(unknown)}"
        # Computed from the hints: with postponed annotations `__required_keys__` misses `Required[...]`.
        def required(hint) -> bool:
            o = te.get_origin(hint)
            if o in (te.Required, typing.Required):
                return True
            if o in (te.NotRequired, typing.NotRequired):
                return False
            return bool(getattr(t, "__total__", True))

        missing = {k for k, h in hints.items() if required(h)} - set(value)
        if missing:
            return f"{path}: {t.__name__} needs key(s) {sorted(missing)}"
        for k, v in value.items():
            p = check(v, hints[k], f"{path}.{k}")
            if p:
                return p
        return None
    if origin in (dict, Mapping, typing.Dict) or t is dict:
        return None if isinstance(value, dict) else f"{path}: expected an object"
    if origin in (list, Iterable, typing.List, typing.Sequence, tuple) or t is list:
        if not isinstance(value, list):
            return f"{path}: expected an array"
        for i, v in enumerate(value):
            p = check(v, args[0] if args else object, f"{path}[{i}]")
            if p:
                return p
        return None
    if isinstance(t, type) and issubclass(t, pydantic.BaseModel):
        try:
            t.model_validate(value)
            return None
        except pydantic.ValidationError as e:
            return f"{path}: {e}"
    return f"{path}: no rule for {t!r}"


def main() -> int:
    items = json.load(sys.stdin)
    for item in items:
        fmt, label, value = item["format"], item["label"], item["value"]
        if fmt == "mcp":
            try:
                CallToolResult.model_validate(value)
            except pydantic.ValidationError as e:
                print(f"FAIL {fmt} {label}: {e}")
                return 1
            print(f"ok {fmt} {label}: mcp_types.CallToolResult")
            continue
        strict, sdk_union = TYPES[fmt]
        problem = check(value, strict, fmt)
        if problem:
            print(f"FAIL {fmt} {label}: {problem}")
            return 1
        try:
            pydantic.TypeAdapter(sdk_union).validate_python(value)
        except pydantic.ValidationError as e:
            print(f"FAIL {fmt} {label}: {e}")
            return 1
        print(f"ok {fmt} {label}: {strict.__name__}")
    return 0


sys.exit(main())
