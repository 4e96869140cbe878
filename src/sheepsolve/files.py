"""Files in and out, and text echoed back to the user, made safe in one place.

- :func:`read_input_file` reads what a command is given: a regular file only (a FIFO, a device such as
  ``/dev/zero``, a folder are refused before anything is read) and at most :data:`MAX_INPUT_BYTES`.
- :func:`write_output_atomically` writes a report: into a temporary file in the same folder, then renamed into
  place, so a failure leaves the old file as it was; it refuses an empty name, an output that is a symbolic
  link or not a regular file, and an output that is one of the command's inputs.
- :func:`clip` makes any value the user gave safe to echo in a one-line message: control characters (newlines
  included) become escapes, and a long text is cut.

Every refusal raises :class:`FileError`, whose message starts with the (clipped) path.

>>> clip("Ann\\nerror: forged")
'Ann\\\\nerror: forged'
>>> clip("x" * 1000, 10)
'xxxxxxxxxx... (1000 characters)'
"""

from __future__ import annotations

import os
import secrets
import stat
import unicodedata
from collections.abc import Iterable
from typing import BinaryIO

__all__ = [
    "FileError",
    "about_file",
    "MAX_INPUT_BYTES",
    "CLIP_LENGTH",
    "read_input_file",
    "read_input_text",
    "open_input_file",
    "write_output_atomically",
    "check_output_path",
    "clip",
    "control_character",
    "invisible_character",
]

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The largest input file read (16 MiB): a hand record is a few kilobytes, a season of them well under this."""

CLIP_LENGTH = 80
"""Characters of a user's value echoed in a message before it is cut."""


class FileError(ValueError):
    """A file that cannot be read or written as asked. The message starts with the path."""


# --------------------------------------------------------------------------------------------------------------
# Echoed text.

# Line and paragraph separators and the bidirectional overrides can fake a line or reorder what is shown.
_INVISIBLE = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _unsafe(ch: str) -> bool:
    # Cc: control characters; Cf: format characters, invisible (zero-width spaces and joiners, the byte-order
    # mark, the soft hyphen, tags, the bidirectional marks): echoed as escapes, so that what is shown is there
    return ch in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Cf")


def invisible_character(text: str) -> str | None:
    """The first character of ``text`` that a name must not hold because it does not show as itself: a control
    or format character (zero-width space, joiner, word joiner, byte-order mark, soft hyphen, Mongolian vowel
    separator, tag characters, bidirectional marks), a line or paragraph separator, a space other than the plain
    one (a no-break space prints as a space), a private-use, unassigned or surrogate code point; or None.

    >>> invisible_character("Hias"), invisible_character("Hi\u200bas"), invisible_character("Hias\u00a0")
    (None, '\u200b', '\xa0')
    """
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _NOT_SHOWN or (cat == "Zs" and ch != " "):
            return ch
    return None


_NOT_SHOWN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def control_character(text: str) -> str | None:
    """The first character of ``text`` that must not be echoed as it is (a control character such as a newline or
    escape, a line separator, a bidirectional override), or None.

    >>> control_character("Ann"), control_character("Ann\\x1b[31m")
    (None, '\\x1b')
    """
    for ch in text:
        if _unsafe(ch):
            return ch
    return None


def _escape(ch: str) -> str:
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if ch == "\t":
        return "\\t"
    o = ord(ch)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def clip(value: object, limit: int = CLIP_LENGTH) -> str:
    """``value`` as text safe to echo on one line: control characters written as escapes (``\\n``, ``\\x1b``,
    ``\\u2028``), and a text longer than ``limit`` characters cut there with ``... (N characters)`` after it.

    Only the first ``limit`` characters are looked at, so a 10-million-character value costs nothing.

    >>> clip("Herz-Sau")
    'Herz-Sau'
    >>> clip("a\\u2028b")
    'a\\\\u2028b'
    """
    if isinstance(value, str):
        text = value
    elif isinstance(value, int) and value.bit_length() > 256:  # str() of a huge number is slow, or refused
        return f"a {value.bit_length()}-bit number"
    else:
        text = str(value)
    out: list[str] = []
    n = 0
    for ch in text[:limit]:
        piece = _escape(ch) if _unsafe(ch) else ch
        out.append(piece)
        n += len(piece)
        if n >= limit:
            break
    shown = "".join(out)
    used = len(out)
    if used < len(text):
        return f"{shown}... ({len(text)} characters)"
    return shown


# --------------------------------------------------------------------------------------------------------------
# Reading.


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _path_text(path: object) -> str:
    try:
        p = os.fspath(path)  # type: ignore[arg-type]
    except TypeError:
        raise FileError(f"a path must be a string, not {type(path).__name__}") from None
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    return p


def _open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result, str]:
    """A descriptor of ``path`` opened for reading, with its status and its name as error messages show it; a
    FIFO, a device, a folder or a socket is refused without waiting for it (opened non-blocking, looked at before
    anything is read)."""
    p = _path_text(path)
    if not p:
        raise FileError("the file name is empty")
    shown = clip(p, 200)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as e:
        raise FileError(f"{shown}: cannot read the file: {getattr(e, 'strerror', None) or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{shown}: not a file that can be read as input: it is {_kind(info.st_mode)}")
    except BaseException:
        os.close(fd)
        raise
    return fd, info, shown


def read_input_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes.

    A FIFO, a device, a folder or a socket is refused without waiting for it (it is opened non-blocking and
    looked at before anything is read); a file over the limit is refused without reading it all.

    >>> try:
    ...     read_input_file("/dev/zero")
    ... except FileError as e:
    ...     print(e)
    /dev/zero: not a file that can be read as input: it is a character device
    """
    fd, info, shown = _open_regular(path)
    try:
        if info.st_size > max_bytes:
            raise FileError(f"{shown}: the file is too large ({info.st_size} bytes; the limit is {max_bytes})")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            try:
                b = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            except OSError as e:
                raise FileError(f"{shown}: cannot read the file: {e.strerror or e}") from None
            if not b:
                break
            chunks.append(b)
            size += len(b)
        if size > max_bytes:  # it grew while being read
            raise FileError(f"{shown}: the file is too large (over {max_bytes} bytes, the limit)")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_input_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """:func:`read_input_file` decoded as UTF-8 (a bad byte is a :class:`FileError` giving its offset)."""
    raw = read_input_file(path, max_bytes=max_bytes)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileError(f"{clip(_path_text(path), 200)}: not UTF-8 text (bad byte at offset {e.start})") from None


def open_input_file(path: str | os.PathLike[str]) -> BinaryIO:
    """A regular file opened for reading as bytes, piece by piece and whatever its size (a season in JSON Lines):
    what :func:`read_input_file` refuses (a FIFO, a device, a folder, a socket) is refused the same way, without
    waiting for it.

    >>> try:
    ...     open_input_file("/dev/zero")
    ... except FileError as e:
    ...     print(e)
    /dev/zero: not a file that can be read as input: it is a character device
    """
    fd, _info, _shown = _open_regular(path)
    try:
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


# --------------------------------------------------------------------------------------------------------------
# Writing.


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def write_output_atomically(path: str | os.PathLike[str], text: str | bytes, *,
                            inputs: Iterable[str | os.PathLike[str]] = (), label: str | None = None,
                            page: bool = False) -> None:
    """Write ``text`` (UTF-8 if a str) to ``path`` all at once: into a new temporary file in the same folder,
    flushed to disk, then renamed over ``path``. A failure at any point leaves ``path`` as it was.

    Refused, before anything is written: an empty name; a path that is a symbolic link (the link would be
    replaced, not followed: give the real path), or that exists and is not a regular file (a folder, a device, a
    FIFO); a folder that does not exist; and a path that is one of ``inputs`` (the same file under any name, hard
    links included); the name ``-`` (standard output is not a file to write here); and with ``page`` (an HTML
    report) a file that exists, is not empty and is not an HTML page: a record named by mistake is never replaced
    by a page. ``label`` (say ``"--html"``) starts the message of a refusal; the path follows it.

    A file that existed keeps its permission bits; a new one gets the usual ones (0666 less the umask). A
    folder that cannot be written in is an error, as it would be for ``open``.
    """
    p = _path_text(path)
    lead = f"{label}: " if label else ""
    existing = _check_output(p, inputs, lead, page)
    shown = clip(p, 200)
    folder = os.path.dirname(p) or "."
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = _temporary(folder, os.path.basename(p), lead, shown)
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                if existing is not None:
                    os.fchmod(f.fileno(), stat.S_IMODE(existing.st_mode))
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, p)
        except OSError as e:
            raise FileError(f"{lead}{shown}: cannot write the file: {e.strerror or e}") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def check_output_path(path: str | os.PathLike[str], *, inputs: Iterable[str | os.PathLike[str]] = (),
                      label: str | None = None, page: bool = False) -> None:
    """Refuse an output path as :func:`write_output_atomically` would, without writing anything: call it before
    long work, so a bad name is reported at once (the writer checks again when it writes)."""
    _check_output(_path_text(path), inputs, f"{label}: " if label else "", page)


def _is_page(p: str) -> bool:
    """Whether the file ``p`` is empty or starts as an HTML page does (``<!DOCTYPE html`` or ``<html``, after
    white space or a byte-order mark)."""
    try:
        with open(p, "rb") as f:
            head = f.read(512)
    except OSError:
        return False
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return not head or head.startswith((b"<!doctype html", b"<html"))


def _check_output(p: str, inputs: Iterable[str | os.PathLike[str]], lead: str,
                  page: bool = False) -> os.stat_result | None:
    """The refusals of :func:`write_output_atomically`; the path's ``lstat`` when it exists."""
    if not p or not p.strip():
        raise FileError(f"{lead}the output file name is empty")
    shown = clip(p, 200)
    if p == "-":
        raise FileError(f"{lead}'-' is not a file to write (the output goes to a file here, not to standard output): "
                        "give a file name")
    if p.endswith(os.sep) or (os.altsep and p.endswith(os.altsep)):
        raise FileError(f"{lead}{shown}: names a folder, not a file")
    try:
        existing: os.stat_result | None = os.lstat(p)
    except FileNotFoundError:
        existing = None
    except OSError as e:
        raise FileError(f"{lead}{shown}: cannot write the file: {e.strerror or e}") from None
    if existing is not None:
        if stat.S_ISLNK(existing.st_mode):
            raise FileError(f"{lead}{shown}: is a symbolic link; give the real path (the link is not followed)")
        if not stat.S_ISREG(existing.st_mode):
            raise FileError(f"{lead}{shown}: is {_kind(existing.st_mode)}, not a regular file to write")
        for inp in inputs:
            try:
                same = _same_file(os.stat(_path_text(inp)), existing)
            except OSError:
                continue
            if same:
                raise FileError(f"{lead}{shown}: is one of the input files; give another name for the output")
        if page and not _is_page(p):
            raise FileError(f"{lead}{shown}: exists and is not an HTML page; it is not replaced: remove it or give "
                            "another name")
    folder = os.path.dirname(p) or "."
    if not os.path.isdir(folder):
        raise FileError(f"{lead}{shown}: the folder {clip(folder, 200)} does not exist")
    return existing


def _temporary(folder: str, base: str, lead: str, shown: str) -> tuple[int, str]:
    """A new file in ``folder`` for writing, created with mode 0666 less the umask (as ``open`` would)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(folder, f".{base[:100]}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:
            raise FileError(f"{lead}{shown}: cannot write the file: {e.strerror or e}") from None
    raise FileError(f"{lead}{shown}: cannot write the file: no free temporary name in its folder")


def about_file(message: str, file: Any) -> str:
    """``message`` led by the record file it is about (``FILE: ...``) unless it names it first already: an error
    found after the record was read (an incomplete record for annotate, a solver's refusal) names the file too;
    an option's error (``--at: ...``) names the option.

    >>> about_file("setup: the record is incomplete", "hand.toml"), about_file("hand.toml: play: trick 2", "hand.toml")
    ('hand.toml: setup: the record is incomplete', 'hand.toml: play: trick 2')
    """
    if not isinstance(file, str) or not file or message.startswith("--"):  # an option's error names the option
        return message
    label = clip(file, 200)
    return message if message.startswith(f"{label}: ") else f"{label}: {message}"
