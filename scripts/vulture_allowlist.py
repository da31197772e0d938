"""Names `vulture` (in `make lint`) would take for dead code but that are used: discord.py,
a library or a template reads them by name, a value names them, or the tests drive the
product through them. Anything else vulture finds is dead and goes.

The slash commands and autocompletes are left out by their decorators (pyproject.toml)."""

# discord.py calls these by name: the client's and the tree's hooks, the cogs' load and
# unload, the persistent buttons (DynamicItem), the translator, the rows laid out as a View
_.setup_hook
_.on_ready
_.on_interaction
_.on_error
interaction_check
_.cog_load
_.cog_unload
_.from_custom_id
_.callback
_.translate
_.is_finished
_.is_dispatchable
_.has_components_v2
_.children
_.to_components
# discord.py reads these class attributes: where its REST and gateway are (the emulator)
_.BASE
_.DEFAULT_GATEWAY

# a library reads what is set: aiosqlite's row type, fontTools' strike size
_.row_factory
_.ppemY

# the web templates read these fields (bot/web/templates)
alt
middle_label
was_best
# the image labels are read by name: getattr(labels, f"follow_{suit}") and the like
phase_talon
phase_contract
end_played
end_rospisat
end_spisat
end_conceded
end_thrown_in
end_redeal
talon_prikup
talon_musik
talon_kitty
talon_talon
rank_J
rank_Q
rank_K
rank_A
follow_C
follow_D
follow_S

# values: the ranks and suits in order, enum members chosen by their value (an option's
# value, a scope), an event's and a record's fields
R7
R8
CLUBS
SPADES
TEN_ACE
CARD_POINTS_MARRIAGE
GLOBAL
next_dealer
updated_at
set_aside_at

# what the tests drive and check the product with: the engine's apply, the service's
# settle and the fake clock's advance, the privacy tests' known cards, the schema version,
# the fonts' missing glyphs, the readable letter size, the snapshots' names, the counters
# of requests sent (tests and benchmarks)
apply
_.known_cards
_.settle
_.advance
_.schema_version
missing_glyphs
MIN_LETTER_PX
POINTS
_.sends
_.sent
_.note_sent

# a tournament entrant's columns, read back by name in SQL (ORDER BY joined_at, final_rank)
_.joined_at
_.final_rank
# a standing's head-to-head count: part of the value the tests check (the order uses it)
_.head_to_head
# discord.py's own flag that an interaction was answered (set where the library would)
_._response_type
# the render processes' ids: the tests watch them start and end
_.pids
