"""Which process holds which guild's tables: Discord's shard formula, in one place.

Discord sends a guild's events (its interactions too) to one shard of the bot,
``(guild_id >> 22) % shard_count``; direct messages go to shard 0. A process running some
of the shards therefore holds the tables of those shards' guilds, and only those: it
restores them after a restart and refuses to open a table elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

DM_SHARD = 0  # where Discord sends what belongs to no guild


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives the events of ``guild_id`` (None, a DM: shard 0)."""
    if guild_id is None or shard_count <= 1:
        return DM_SHARD
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards of this process: ``ids`` out of ``count`` (None: all of them)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process holds the tables of ``guild_id`` (None: a DM table)."""
        if self.count is None or self.ids is None:
            return True
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """"shards 0, 1 of 4" for the log; "all shards" when the process holds every one."""
        if self.count is None:
            return "all shards"
        if self.ids is None:
            return f"all {self.count} shards"
        return f"shard{'s' if len(self.ids) > 1 else ''} " \
               f"{', '.join(map(str, self.ids))} of {self.count}"


ALL_SHARDS = Shards()
