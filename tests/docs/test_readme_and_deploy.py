"""The README and the deploy files say what really happens."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from dotenv import dotenv_values

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_engine_example_prints_what_its_comments_say() -> None:
    """Run the README's engine snippet; every ``# ...`` output comment must match a printed line."""
    (block,) = _python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})  # our own README, run as written
    printed = out.getvalue().splitlines()
    claims = [line.split("#", 1)[1].strip() for line in block.splitlines() if line.startswith("print(")]
    assert len(claims) == len(printed) == 2
    for claim, line in zip(claims, printed, strict=True):
        assert claim.startswith(line), f"README says {claim!r} but the code prints {line!r}"


def test_quick_start_says_commands_need_publishing() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "seega-bot sync" in quick
    assert "DISCORD_GUILD_ID" in quick


def test_env_example_leaves_the_database_path_to_the_image() -> None:
    """``docker run --env-file .env`` sets every KEY=VALUE line, empty or not, over the
    image's ENV: the example must not set SEEGA_DB at all."""
    values = dotenv_values(ROOT / ".env.example")
    assert "SEEGA_DB" not in values
    # The image's value then stands, as the bot reads it.
    settings = Settings.from_mapping({**{k: v or "" for k, v in values.items()}, "SEEGA_DB": "/data/seega.db"})
    assert str(settings.db_path) == "/data/seega.db"


def test_dockerfile_keeps_the_database_in_the_volume_as_the_unprivileged_user() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    assert "ENV SEEGA_DB=/data/seega.db" in instructions
    assert 'VOLUME ["/data"]' in instructions
    user_at = instructions.index("USER seega")
    workdirs = [i for i, line in enumerate(instructions) if line.startswith("WORKDIR ")]
    # The last working directory is the volume, set after dropping root: a relative
    # SEEGA_DB resolves into /data, never into /app (owned by root).
    assert instructions[workdirs[-1]] == "WORKDIR /data" and workdirs[-1] > user_at
    assert any("--uid 10001 seega" in line for line in instructions)
    assert any("chown seega:seega /data" in line for line in instructions)


def test_systemd_guide_covers_clone_venv_owner_and_permissions() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    systemd = guide.split("### systemd", 1)[1].split("\n## ", 1)[0]
    for step in ("git clone", "python3 -m venv", "pip install -q -e .", "chown seega:seega .env", "chmod 600 .env"):
        assert step in systemd, step
