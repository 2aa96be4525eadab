"""Bounds on what a request may send, checked before the application reads it.

A body is read up to a limit (an uploaded spec's route allows more than the others) and
refused with 413 past it; a JSON body must be UTF-8 text that `rulings.specfile.parse_json`
reads (nesting at most 64 deep, no number too long to read), else 400 with the reason
and its place. The request then goes on with the body as it came.
"""
from __future__ import annotations

import json

from ..specfile import SpecErrors, parse_json
from .specs import MAX_UPLOAD

MAX_BODY = 256_000                       # bytes in a request body (a whole scenario is some 5 kB)
MAX_UPLOAD_BODY = MAX_UPLOAD + 16_000    # an uploaded spec, with the form around it
UPLOAD_PATHS = ("/upload", "/api/validate")
MAX_URL = 16_000                         # characters in a URL's query (a permalink of a situation is some 2 kB)


def refusal(status: int, message: str) -> tuple[dict, list, bytes]:
    body = json.dumps({"error": message, "exit": 2}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]}
    return start, [], body


def json_problem(raw: bytes) -> str | None:
    """Why a JSON body cannot be read, or None when it can."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"the body is not UTF-8 text: byte 0x{raw[e.start]:02x} at offset {e.start}"
    try:
        parse_json(text, "body")
    except SpecErrors as e:
        return str(e.errors[0])
    return None


class BodyLimits:
    """Pure ASGI middleware: bounded bodies, readable JSON, bounded query strings."""

    def __init__(self, app, max_body: int = MAX_BODY, max_upload: int = MAX_UPLOAD_BODY):
        self.app, self.max_body, self.max_upload = app, max_body, max_upload

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if len(scope.get("query_string", b"")) > MAX_URL:
            return await self._refuse(send, 414, f"the address is longer than {MAX_URL:,} characters")
        limit = self.max_upload if scope["path"] in UPLOAD_PATHS else self.max_body
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return await self._refuse(send, 413, f"the body is larger than {limit:,} bytes")
        chunks, size = [], 0
        if scope["method"] in ("POST", "PUT", "PATCH"):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    return await self._refuse(send, 413, f"the body is larger than {limit:,} bytes")
                chunks.append(chunk)
                if not message.get("more_body"):
                    break
        raw = b"".join(chunks)
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if raw and kind == b"application/json":
            problem = json_problem(raw)
            if problem:
                return await self._refuse(send, 400, problem)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send, status: int, message: str):
        start, _, body = refusal(status, message)
        await send(start)
        await send({"type": "http.response.body", "body": body})
