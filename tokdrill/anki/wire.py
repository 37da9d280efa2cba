"""The few values tokdrill needs from Anki's protobuf blobs, read from the wire format directly.

Current Anki packages state their format version in a ``meta`` member (a ``PackageMetadata``
message), keep each note type's kind (standard or cloze) in a ``Notetype.Config`` blob and each
card template's question and answer formats in a ``Notetype.Template.Config`` blob. All are
top-level varint or string fields, so a reader of the protobuf wire format (varints and the four
field shapes) is all it takes; generated classes from Anki's .proto files would add a
dependency for two integers and two strings.
"""

from __future__ import annotations


class WireError(ValueError):
    """The bytes are not a protobuf message."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise WireError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise WireError("varint longer than 10 bytes")


def varint_fields(data: bytes) -> dict[int, int]:
    """The top-level varint fields of a message, by field number (a repeated one keeps its last
    value, as protobuf does); other fields are skipped. ``WireError`` if ``data`` is malformed."""
    return {number: value for number, value in _fields(data) if isinstance(value, int)}


def string_fields(data: bytes) -> dict[int, str]:
    """The top-level length-delimited fields of a message as UTF-8 text (undecodable bytes
    replaced), by field number, the last of a repeated one kept; ``WireError`` if ``data`` is
    malformed."""
    return {number: value.decode("utf-8", "replace") for number, value in _fields(data) if isinstance(value, bytes)}


def _fields(data: bytes) -> list[tuple[int, int | bytes | None]]:
    """Every top-level field: a varint's value, a length-delimited field's bytes, or None for
    the fixed-size shapes (not needed here)."""
    found: list[tuple[int, int | bytes | None]] = []
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        value: int | bytes | None = None
        if wire_type == 0:
            value, pos = _varint(data, pos)
        elif wire_type == 1:
            pos += 8
        elif wire_type == 2:
            length, pos = _varint(data, pos)
            value = data[pos : pos + length]
            pos += length
        elif wire_type == 5:
            pos += 4
        else:
            raise WireError(f"unsupported wire type {wire_type}")
        if pos > len(data):
            raise WireError("field runs past the end")
        found.append((number, value))
    return found
