"""A mapping that keeps only the most recently used entries, for per-channel memory in a process.

The Discord client remembers, per channel, the last message that showed the board (to
clear its buttons when a newer one is posted). Kept in a plain dict, that memory grew
by one entry for every channel that ever had a game, for the life of the process. A
forgotten entry costs little: the old message keeps its buttons, and pressing one is
answered "this button no longer applies" by the service's checks.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import ItemsView, Iterator, MutableMapping, ValuesView
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: Channels whose last board message is remembered (far more than are active at once).
BOARD_MESSAGES_LIMIT = 10_000


class Recent(MutableMapping[K, V]):
    """At most ``limit`` entries; reading or writing an entry makes it the newest, and the
    oldest is forgotten when a new key would pass the limit."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def __getitem__(self, key: K) -> V:
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    # Listing the entries is not using them: the mixins' views read every entry through
    # ``__getitem__``, which moved it to the end while the dict was being iterated
    # ("OrderedDict mutated during iteration").
    def items(self) -> ItemsView[K, V]:
        return self._items.items()

    def values(self) -> ValuesView[V]:
        return self._items.values()
