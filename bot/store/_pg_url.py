"""A PostgreSQL ``DATABASE_URL``: told from a file path, checked before anything connects,
and described without its user and password."""

from __future__ import annotations

from urllib.parse import urlsplit

from bot.store._health import DatabaseUnusable

SCHEMES = ("postgresql", "postgres")


def is_database_url(database: str) -> bool:
    """Is ``database`` a URL (``scheme://...``) rather than a file path?"""
    return "://" in database


def describe_url(url: str) -> str:
    """host:port/database of a URL, without the user and password (for messages)."""
    try:
        parts = urlsplit(url)
        where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        return f"{where}{parts.path or '/'}"
    except ValueError:
        return "(unparsable URL)"


def check_database_url(url: str) -> None:
    """Raise :class:`DatabaseUnusable` (one line) unless ``url`` is a postgresql:// URL."""
    scheme = url.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise DatabaseUnusable(
            f"DATABASE_URL must start with postgresql:// (not {scheme[:20]!r}://): "
            f"postgresql://user:password@host:5432/database, or leave it empty to use "
            f"SQLite at DATABASE_PATH.")
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise DatabaseUnusable(
            f"DATABASE_URL cannot be read ({exc}): write it as "
            f"postgresql://user:password@host:5432/database.") from None
    if not parts.path.strip("/") and not parts.query:
        raise DatabaseUnusable(
            "DATABASE_URL names no database: write it as "
            "postgresql://user:password@host:5432/database.")

