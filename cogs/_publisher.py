"""Channel output: the service's changes turned into Discord messages kept up to date.

The service reports changes as ``Update`` values (synchronously, under the table lock);
every message kept up to date is a key of a ``cogs._latest.Latest``: the newest version
waits until it is sent, within its budget, at most one send in flight per key, a failed send
retried. ``Publisher`` routes each change to the owner of each kind of message:

* ``cogs._table_message``: each table's public message, paced by its channel's budget
  (``cogs._channels``: Discord's per-channel limit, served in turn);
* ``cogs._posts``: each channel's posts (hand results and notices, in order, with the score
  sheet and the match summary), paced by the same budget;
* ``cogs._turn_pings``: the "your turn" messages of those who asked for them;
* ``cogs._hand_messages``: each player's ephemeral hand message, through its token.

Images (``cogs._images``) are rendered by those owners when their message is sent, never on
an interaction's acknowledgement path. Background steps hold a lane of ``cogs._lanes.Lanes``
so that interactions are answered first. A channel, a table or a hand without pending work
has neither state nor task here.
"""

from __future__ import annotations

import asyncio
import time

from bot.tables import Update
from cogs._channels import ChannelOf, Channels, Outlet
from cogs._hand_messages import HandMessages
from cogs._images import Images
from cogs._lanes import Lanes
from cogs._posts import Ping, Posts, Results, update_posts
from cogs._table_message import TableMessages
from cogs._turn_pings import TurnPings, WantsPing


class Publisher:
    """The bot's channel output. ``channel(id)`` gives a channel's partial messageable;
    ``results(table_id, match_no)`` a match's hand results (the sheet after a restart);
    ``wants_ping(user_id)`` whether a user asked to be told when his turn comes."""

    def __init__(self, channel: ChannelOf, lanes: Lanes, images: Images, results: Results, *,
                 limit: int = 5, per: float = 5.0, debounce: float = 0.25,
                 image_delay: float = 0.25, retries: int = 3, backoff: float = 0.5,
                 wants_ping: WantsPing | None = None) -> None:
        self.outlet = Outlet(channel, lanes, images)
        self.channels = Channels(limit, per)
        self.tables = TableMessages(self.outlet, self.channels, debounce=debounce,
                                    retries=retries, backoff=backoff)
        self.posts = Posts(self.outlet, self.channels, results,
                           posted=self._ping_posted,
                           debounce=debounce, retries=retries, backoff=backoff)
        self.pings = TurnPings(self.outlet, self.posts, wants_ping, retries=retries,
                               backoff=backoff)
        self.hands = HandMessages(self.outlet, image_delay=image_delay, retries=retries,
                                  backoff=backoff)
        self._closed = False

    @property
    def images(self) -> Images:
        """The renderer of every image the bot sends."""
        return self.outlet.images

    @property
    def sent(self) -> int:
        """Channel creates and edits made (for tests and the benchmark)."""
        return self.outlet.sent

    def _ping_posted(self, ping: Ping, message_id: int) -> None:
        # the posts are made before the pings (which queue posts): looked up when called
        self.pings.posted(ping, message_id)

    def __call__(self, update: Update) -> None:
        if self._closed:
            return
        table = update.table
        self.tables.refresh(table)
        self.pings.end(update)
        snap = self.images.note_events(table, update.events)
        posts = update_posts(update, snap)
        self.pings.start(update)
        if posts:
            self.posts.add(table.channel_id, posts)
        if update.closed:
            self.images.forget(table.id)
            self.hands.close_table(table.id)
        else:
            self.hands.refresh(table)

    def busy(self) -> bool:
        """Something is still to be sent."""
        return bool(len(self.tables) or len(self.posts) or len(self.hands) or len(self.pings))

    async def idle(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Wait until every queued edit and message went out (tests, benchmarks)."""
        end = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > end:
                raise TimeoutError("publisher still busy")
            await asyncio.sleep(0.01)

    async def close(self, *, unping: float = 2.0) -> None:
        """Stop: nothing more is sent, and no task of the publisher is left. The "your
        turn" messages standing are deleted first (within ``unping`` seconds): a restarted
        bot would not know them to delete them."""
        first, self._closed = not self._closed, True
        await self.pings.close(unping=unping if first else None)
        await asyncio.gather(self.tables.aclose(), self.posts.aclose(), self.hands.aclose(),
                             self.pings.aclose())
        self.channels.close()
        self.images.close()
