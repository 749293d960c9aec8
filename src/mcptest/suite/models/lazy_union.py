"""A union whose member the value names, each member imported and built on first use.

pydantic builds every member of a union when the field holding it is built, though a suite uses
a few: a file of three evals would build the criteria, tree and Likert models of a rubric it
writes as a string, and a tool test every matcher kind. A subclass of `LazyUnion` names its
members as `module:Name` with their tags (in the order the published schema lists them) and
says which tag a raw value has; the value is validated by that member alone, with pydantic's
own errors (a value naming no member is the subclass's one error). The published schema still
offers every member (`json_schema`), and `member_for` tells `suite/validation.py` which member
an error's path runs through.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, ClassVar, cast

from pydantic import BaseModel, GetCoreSchemaHandler, GetJsonSchemaHandler, TypeAdapter
from pydantic_core import CoreSchema, PydanticCustomError, core_schema


@functools.cache
def _member(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


@functools.cache
def _adapter(target: str) -> TypeAdapter[Any]:
    return TypeAdapter(_member(target))


@functools.cache
def _validator(target: str) -> Any:
    """A model's own validator (built on this first use), else a type's adapter."""
    member = _member(target)
    if isinstance(member, type) and issubclass(member, BaseModel):
        member.model_rebuild()  # built now (`defer_build`), so the validator kept is the real one
        return member.__pydantic_validator__
    return _adapter(target)


class LazyUnion:
    """Base of a union type used as an annotation (`rubric: Rubric`); never instantiated."""

    members: ClassVar[tuple[tuple[str, str], ...]]
    """(tag, `module:Name`) of each member, in the published schema's order."""
    targets: ClassVar[dict[str, str]]
    """`members` by tag (made from them)."""
    error_type: ClassVar[str]
    error_message: ClassVar[str]
    """The error of a value that names no member (pydantic's custom error)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.targets = dict(cls.members)

    @staticmethod
    def tag(value: Any) -> str | None:
        """The tag a raw value (a mapping, a string) has; None when it names no member."""
        raise NotImplementedError

    @classmethod
    def tag_of(cls, value: Any) -> str | None:
        """The tag of a raw value, or of a member's model instance (by its `module:Class`,
        so no member is imported to ask)."""
        if isinstance(value, BaseModel):
            name = f"{type(value).__module__}:{type(value).__qualname__}"
            return next((tag for tag, target in cls.members if target == name), None)
        return cls.tag(value)

    @classmethod
    def member(cls, tag: str) -> Any:
        """The member of a tag, imported on first use."""
        return _member(cls.targets[tag])

    @classmethod
    def member_for(cls, value: Any) -> Any:
        """The member the value names (None: none), for placing an error in the file."""
        tag = cls.tag_of(value)
        return cls.member(tag) if tag is not None else None

    @classmethod
    def validate(cls, value: Any) -> Any:
        tag = cls.tag_of(value)
        if tag is None:
            raise PydanticCustomError(cls.error_type, cls.error_message)
        return _validator(cls.targets[tag]).validate_python(value)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls.validate, metadata={"pydantic_js_functions": [cls.json_schema]})

    @classmethod
    def json_schema(cls, _schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        """`oneOf` every member, in order (a model once in `$defs`: met again, as a matcher
        inside `not` is, it is a `$ref` to it)."""
        gen = cast(Any, handler).generate_json_schema  # pydantic's handler carries it
        out = []
        for _, target in cls.members:
            member = _member(target)
            if not (isinstance(member, type) and issubclass(member, BaseModel)):
                out.append(gen.generate_inner(_adapter(target).core_schema))
                continue
            schema: Any = member.__pydantic_core_schema__
            top = schema["schema"] if schema["type"] == "definitions" else schema
            ref = top.get("ref") or top["schema_ref"]
            if (ref, gen.mode) in gen.core_to_defs_refs:
                out.append(gen.definition_ref_schema({"type": "definition-ref", "schema_ref": ref}))
            else:
                gen.get_cache_defs_ref_schema(ref)  # taken: a member inside it refers to it
                out.append(gen.generate_inner(schema))
        return {"oneOf": out}
