"""``sheepsolve batch --scheduler``: checking that the address is a Dask scheduler, connecting, and running the
chunks there, with every failure of the connection, at any time, ending the batch with one line.

:func:`check_scheduler` completes a real handshake before the batch starts, each step under one deadline
(:data:`GREETING_SECONDS`): the scheduler's greeting is read whole (its length first, at most
:data:`MAX_GREETING` bytes) and decoded as Dask's protocol, then sheepsolve greets back and asks who it is
(Dask's ``identity``), which must be a scheduler. A service that is not one is refused saying what it did: sent
nothing, closed the connection, stopped in the middle of its greeting, sent something that is not a Dask
message (shown), or is a Dask worker.

>>> check_scheduler("nonsense")
Traceback (most recent call last):
...
sheepsolve.batch_output.BatchError: --scheduler: 'nonsense' is not an address like tcp://HOST:PORT (sheepsolve connects over plain TCP)
"""

from __future__ import annotations

import re
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

from .batch_output import BatchError
from .files import clip

__all__ = ["check_scheduler", "connect", "run_on_cluster", "GREETING_SECONDS", "MAX_GREETING"]

MAX_GREETING = 1 << 24
"""The longest first message taken from a scheduler when checking it (its handshake is about 60 bytes)."""

GREETING_SECONDS = 10.0
"""How long a scheduler has for each step of the handshake (it answers within a millisecond)."""

_ADDRESS = re.compile(r"(?:tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?):([0-9]{1,5})")


def _shown_bytes(data: bytes) -> str:
    """The first bytes of an answer, as a reader can see them."""
    return clip(repr(bytes(data[:40]))[2:-1], 60) + ("..." if len(data) > 40 else "")


def _recv_exactly(sock: socket.socket, n: int, deadline: float, shown: str, what: str, before: int = 0) -> bytes:
    """``n`` bytes from ``sock`` before ``deadline``, else :class:`BatchError` saying what came instead
    (``before``: bytes of the same message already read)."""
    got = bytearray()
    while len(got) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            piece = sock.recv(min(n - len(got), 1 << 20))
        except TimeoutError:
            break
        except OSError as e:
            raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: the connection failed during "
                             f"{what}: {e.strerror or e}") from None
        if not piece:
            if not got and not before and what == "its greeting":
                raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: it closed the connection without "
                                 f"a greeting")
            raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: it closed the connection after "
                             f"{before + len(got)} of the {before + n} bytes of {what}")
        got += piece
    if len(got) < n:
        if not got and not before:
            raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: it sent nothing within "
                             f"{GREETING_SECONDS:g} s (waiting for {what})")
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: {what} stopped after "
                         f"{before + len(got)} of {before + n} bytes (nothing more within {GREETING_SECONDS:g} s)")
    return bytes(got)


def _read_message(sock: socket.socket, shown: str, what: str) -> Any:
    """One message of Dask's TCP protocol (its length, its frames), decoded; each part within the deadline."""
    from distributed.protocol.core import loads
    from distributed.protocol.utils import unpack_frames

    deadline = time.monotonic() + GREETING_SECONDS
    head = _recv_exactly(sock, 8, deadline, shown, what)
    (length,) = struct.unpack("<Q", head)
    if not 0 < length <= MAX_GREETING:
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: it answered {_shown_bytes(head)!r}, not a "
                         f"Dask message (read as one, it would be {length:,} bytes long)")
    body = _recv_exactly(sock, length, deadline, shown, what, before=len(head))
    try:
        frames = unpack_frames(body)
        return loads(frames, deserialize=False)
    except Exception as e:  # noqa: BLE001 - any way its bytes fail to decode
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: {what} is not a Dask message "
                         f"({type(e).__name__}; it starts {_shown_bytes(head + body)!r})") from None


def _send_message(sock: socket.socket, msg: Any) -> None:
    from distributed.protocol.core import dumps
    from distributed.protocol.utils import pack_frames

    frames = dumps(msg)
    body = pack_frames(frames)
    sock.sendall(struct.pack("<Q", len(body)) + body)


def _handshake(sock: socket.socket, shown: str) -> None:
    """Dask's handshake over ``sock``, then ``identity``: a scheduler, else :class:`BatchError`."""
    greeting = _read_message(sock, shown, "its greeting")
    if not isinstance(greeting, dict) or "compression" not in greeting:
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: its greeting is a Dask message but not "
                         f"a handshake ({clip(repr(greeting), 80)})")
    try:
        _send_message(sock, {"compression": None, "python": greeting.get("python"),
                             "pickle-protocol": greeting.get("pickle-protocol")})
        _send_message(sock, {"op": "identity", "reply": True})
    except OSError as e:
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: the connection failed as sheepsolve "
                         f"greeted it: {e.strerror or e}") from None
    who = _read_message(sock, shown, "its answer to identity")
    kind = who.get("type") if isinstance(who, dict) else None
    if kind != "Scheduler":
        said = f"a Dask {clip(kind, 40)}" if isinstance(kind, str) else f"something that answers {clip(repr(who), 80)}"
        raise BatchError(f"--scheduler: {shown} is not a Dask scheduler: it is {said}")


def check_scheduler(address: str, timeout: float = 30.0) -> tuple[str, int]:
    """``--scheduler``: ``tcp://HOST:PORT`` (or ``HOST:PORT``), the port 1 to 65535, and a Dask scheduler
    answering there (reached within ``timeout`` seconds, then the handshake of the module docstring); (host,
    port), else :class:`BatchError` at once. A malformed address made Dask's client fail and then wait 60 s in
    its clean-up with a traceback, ``tls://`` and ``ucx://`` gave a traceback, a port where nothing listens was
    retried for the whole ``timeout``, an HTTP server made the client wait forever, an SSH server made it fail
    with MemoryError, a plausible length followed by garbage gave a traceback after 62 s, and one that sent
    8 bytes and went silent made it wait for over 5 minutes."""
    shown = clip(address, 200)
    m = _ADDRESS.fullmatch(address.strip()) if isinstance(address, str) else None
    if m is None:
        raise BatchError(f"--scheduler: {shown!r} is not an address like tcp://HOST:PORT (sheepsolve connects over "
                         "plain TCP)")
    host, port = m.group(1).strip("[]"), int(m.group(2))
    if not 1 <= port <= 65535:
        raise BatchError(f"--scheduler: {shown}: the port must be 1 to 65535, not {port}")
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        raise BatchError(f"--scheduler: cannot connect to {shown}: no answer in {timeout:g} s") from None
    except OSError as e:
        raise BatchError(f"--scheduler: cannot connect to {shown}: {e.strerror or e}") from None
    with sock:
        _handshake(sock, shown)
    return host, port


def connect(scheduler: str | Any, connect_timeout: float) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (an address, or a client), and whether it is ours to close;
    any failure is one :class:`BatchError`."""
    try:
        from distributed import Client
    except ImportError:
        raise BatchError("--scheduler: running on a Dask cluster needs the cluster extra: "
                         "pip install 'sheepsolve[cluster]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=connect_timeout, set_as_default=False), True
    except Exception as e:  # noqa: BLE001 - whatever the connection does, one line
        raise BatchError(f"--scheduler: cannot connect to {clip(scheduler, 200)}: {clip(str(e) or type(e).__name__, 200)}") from None


def threads(client: Any) -> int:
    """The cluster's worker threads (1 when it cannot tell)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - an unusual cluster: size the chunks for one worker
        return 1


def run_on_cluster(client: Any, run_chunk: Any, command: str, options: dict[str, Any], chunks: Iterator[list[Any]],
                   window: int, shown: str) -> Iterator[list[tuple[str, bool]]]:
    """Chunks on a Dask distributed cluster, their lines given back in chunk order as they complete; at most
    ``window`` chunks submitted ahead of the one written. A failure of the cluster or of the connection to it
    (a task lost, the scheduler gone) ends the batch with one :class:`BatchError` (the lines written so far are
    kept)."""
    from distributed import as_completed

    pending = as_completed(loop=client.loop)
    index: dict[str, int] = {}
    ready: dict[int, list[tuple[str, bool]]] = {}
    submitted = written = 0

    def fill() -> None:
        nonlocal submitted
        while submitted - written < window:
            c = next(chunks, None)
            if c is None:
                return
            fut = client.submit(run_chunk, command, options, c, pure=False)
            index[fut.key] = submitted
            submitted += 1
            pending.add(fut)

    try:
        fill()
        for fut in pending:
            ready[index.pop(fut.key)] = fut.result()
            fut.release()
            while written in ready:
                lines = ready.pop(written)
                written += 1
                yield lines
            fill()
    except (BatchError, GeneratorExit):
        raise
    except Exception as e:  # noqa: BLE001 - a lost task, a closed connection, a scheduler gone: one line
        raise BatchError(f"--scheduler: {shown}: the cluster failed during the batch: {type(e).__name__}: "
                         f"{clip(str(e), 200)} (the lines written so far are kept; --resume goes on)") from None
