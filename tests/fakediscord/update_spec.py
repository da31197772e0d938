"""Refresh the vendored Discord OpenAPI specification (``openapi.json``).

    python -m tests.fakediscord.update_spec                 # from GitHub, branch main
    python -m tests.fakediscord.update_spec PATH            # a checkout (or a bare git
                                                            # directory) of discord-api-spec

It writes ``openapi.json``, records the commit in README.md (the line starting
``Vendored from commit``), and compiles every route's validator to be sure the emulator
still reads the new version.  Run the emulator's tests afterwards: a stricter
specification may refuse a body the bot sends.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from . import spec

REPO = "discord/discord-api-spec"
FILE = "specs/openapi.json"
README = Path(__file__).with_name("README.md")


def from_checkout(path: Path) -> tuple[bytes, str]:
    """The specification and commit of a local clone (work tree or bare git directory)."""
    git = ["git", "--git-dir", str(path)] if (path / "HEAD").is_file() and not (
        path / ".git").exists() else ["git", "-C", str(path)]
    data = subprocess.run([*git, "show", f"HEAD:{FILE}"], check=True,
                          capture_output=True).stdout
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    return data, commit


def from_github(branch: str = "main") -> tuple[bytes, str]:
    """The specification and commit of ``branch`` on GitHub."""
    api = f"https://api.github.com/repos/{REPO}/commits/{branch}"
    with urllib.request.urlopen(api, timeout=30) as resp:
        commit = json.load(resp)["sha"]
    raw = f"https://raw.githubusercontent.com/{REPO}/{commit}/{FILE}"
    with urllib.request.urlopen(raw, timeout=60) as resp:
        return resp.read(), commit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path,
                        help=f"a clone of {REPO} (default: download from GitHub)")
    args = parser.parse_args(argv)
    data, commit = from_checkout(args.checkout) if args.checkout else from_github()
    json.loads(data)  # a specification, not an error page
    old = spec.SPEC_PATH.read_bytes() if spec.SPEC_PATH.exists() else b""
    spec.SPEC_PATH.write_bytes(data)
    spec.specification.cache_clear()
    spec.validator.cache_clear()
    spec.accepts.cache_clear()
    try:
        for method, route in spec.ROUTES:
            spec.validator(method, route)
    except Exception:
        spec.SPEC_PATH.write_bytes(old)
        raise
    text = README.read_text(encoding="utf-8")
    text = re.sub(r"Vendored from commit `[0-9a-f]+`", f"Vendored from commit `{commit}`", text)
    README.write_text(text, encoding="utf-8")
    print(f"openapi.json: {REPO}@{commit} ({len(data):,} bytes"
          f"{', unchanged' if data == old else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
