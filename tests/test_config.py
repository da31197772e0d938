"""Settings: one value, read once from .env and the environment (the environment wins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import RenderIn, SettingsError, load_settings


def write_env(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def test_tuning_variables_come_from_dotenv_too(tmp_path):
    env = write_env(tmp_path, "DISCORD_TOKEN=abc\nTYSIAC_AI_DELAY=0.5\nTYSIAC_LANES=8\n"
                              "TYSIAC_IMAGES=off\nTYSIAC_RENDER_IN=thread\nTYSIAC_SEED=7\n")
    s = load_settings({}, env)
    assert (s.token, s.ai_delay, s.lanes, s.images, s.render_in, s.seed) == (
        "abc", 0.5, 8, False, RenderIn.THREAD, 7)


def test_the_environment_wins_over_dotenv(tmp_path):
    env = write_env(tmp_path, "DISCORD_TOKEN=abc\nTYSIAC_LANES=8\nDATABASE_PATH=a.db\n")
    s = load_settings({"TYSIAC_LANES": "0", "DATABASE_PATH": "b.db"}, env)
    assert (s.token, s.lanes, s.database_path) == ("abc", 0, "b.db")


def test_defaults_without_any_tuning(tmp_path):
    s = load_settings({"DISCORD_TOKEN": "x"}, tmp_path / "missing.env")
    assert (s.ai_delay, s.lanes, s.images, s.render_in, s.seed, s.stall_ms) == (
        1.5, 256, True, RenderIn.PROCESS, None, 250)
    assert s.hand_pause == 8


def test_the_pause_between_hands_of_new_tables(tmp_path):
    for raw, seconds in (("0", 0), ("15", 15), ("600", 60)):
        s = load_settings({"DISCORD_TOKEN": "x", "TYSIAC_HAND_PAUSE": raw},
                          tmp_path / "missing.env")
        assert s.hand_pause == seconds


def test_no_token_says_where_to_get_one(tmp_path):
    with pytest.raises(SettingsError) as e:
        load_settings({}, tmp_path / "missing.env")
    assert "DISCORD_TOKEN" in str(e.value) and "Reset Token" in str(e.value)
    assert load_settings({}, tmp_path / "missing.env", need_token=False).token == ""


@pytest.mark.parametrize(("key", "value", "says"), [
    ("TYSIAC_AI_DELAY", "soon", "must be a number"),
    ("TYSIAC_IMAGES", "maybe", "must be 1 or 0"),
    ("TYSIAC_RENDER_IN", "gpu", "must be one of process, thread"),
    ("TYSIAC_SOLVER", "fast", "must be one of compiled, python"),
    ("WEB_PORT", "http", "must be a port number"),
    ("WEB_PORT", "70000", "must be a port number"),
])
def test_a_malformed_value_names_the_variable(tmp_path, key, value, says):
    with pytest.raises(SettingsError) as e:
        load_settings({"DISCORD_TOKEN": "x", key: value}, tmp_path / "missing.env")
    assert key in str(e.value) and says in str(e.value)


def test_shards_default_to_discord_deciding(tmp_path):
    s = load_settings({"DISCORD_TOKEN": "x"}, tmp_path / "missing.env")
    assert (s.shard_count, s.shard_ids) == (None, None)


def test_shards_from_the_environment(tmp_path):
    s = load_settings({"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": " 3, 1"},
                      tmp_path / "missing.env")
    assert (s.shard_count, s.shard_ids) == (4, (1, 3))
    s = load_settings({"DISCORD_TOKEN": "x", "SHARD_COUNT": "2"}, tmp_path / "missing.env")
    assert (s.shard_count, s.shard_ids) == (2, None)


@pytest.mark.parametrize(("count", "ids", "says"), [
    ("2", "0,2", "shard 2 does not exist; with SHARD_COUNT=2 the shards are 0 to 1"),
    ("2", "-1", "shard -1 does not exist"),
    ("3", "1,1", "names shard 1 twice"),
    ("", "0", "SHARD_IDS (--shard-ids) needs SHARD_COUNT"),
    ("0", "", "SHARD_COUNT (--shard-count) must be 1 or more, not 0"),
    ("two", "", "must be a whole number, not 'two'"),
    ("2", "0;1", "'0;1' is not a number"),
])
def test_wrong_shards_are_one_clear_line(tmp_path, count, ids, says):
    with pytest.raises(SettingsError) as e:
        load_settings({"DISCORD_TOKEN": "x", "SHARD_COUNT": count, "SHARD_IDS": ids},
                      tmp_path / "missing.env")
    assert says in str(e.value) and "\n" not in str(e.value)


def test_database_url_chooses_postgresql_over_the_file(tmp_path):
    env = write_env(tmp_path, "DISCORD_TOKEN=abc\nDATABASE_URL=postgresql://u@h/db\n")
    s = load_settings({}, env)
    assert (s.database_url, s.database) == ("postgresql://u@h/db", "postgresql://u@h/db")
    s = load_settings({"DISCORD_TOKEN": "x", "DATABASE_PATH": "b.db"}, tmp_path / "none.env")
    assert (s.database_url, s.database) == ("", "b.db")


def test_the_web_pages_are_off_unless_a_port_is_set(tmp_path):
    s = load_settings({"DISCORD_TOKEN": "x"}, tmp_path / "missing.env")
    assert (s.web_port, s.web_host, s.web_base_url) == (None, "127.0.0.1", "")
    s = load_settings({"DISCORD_TOKEN": "x", "WEB_PORT": "8080",
                       "WEB_BASE_URL": "https://cards.example.org/"}, tmp_path / "missing.env")
    assert (s.web_port, s.web_base_url) == (8080, "https://cards.example.org")
    assert (s.web_max_connections, s.web_head_timeout) == (256, 10.0)
    s = load_settings({"DISCORD_TOKEN": "x", "WEB_MAX_CONNECTIONS": "50",
                       "WEB_HEAD_TIMEOUT": "2.5"}, tmp_path / "missing.env")
    assert (s.web_max_connections, s.web_head_timeout) == (50, 2.5)


def test_the_solver_is_the_compiled_one_unless_told(tmp_path):
    from bot.ai.solver import Kind

    missing = tmp_path / "missing.env"
    assert load_settings({"DISCORD_TOKEN": "x"}, missing).solver is None  # where it loads
    for value, kind in (("python", Kind.PYTHON), (" Compiled ", Kind.COMPILED)):
        assert load_settings({"DISCORD_TOKEN": "x", "TYSIAC_SOLVER": value},
                             missing).solver is kind
