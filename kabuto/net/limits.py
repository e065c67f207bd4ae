"""Quotas that keep one client - or one address - from crowding out everybody else.

``kabuto serve`` answers anyone who connects, so it budgets what each one may cost (docs/protocol.md,
"Quotas", states the same figures for client authors):

* **per connection** - a message rate (:attr:`Limits.rate`, :attr:`Limits.burst`): past it the server
  stops reading that connection until the rate allows, so a flood only slows its own sender; a
  bounded send queue (:attr:`Limits.send_queue`): a client that does not read what it is sent is
  dropped, and what was waiting for it is thrown away; and refused messages
  (:attr:`Limits.strikes`, each forgotten after :attr:`Limits.strike_drain` seconds; an accepted
  message does not wipe the slate, so padding garbage with pings gains nothing);
* **per address** (:func:`quota_address`: an IPv6 peer by its /64) - a message rate shared by all
  its connections (many connections do not multiply what one address may send), new connections
  a second, open connections, rooms being set up, rooms held, and wrong room codes or seat tokens
  (:attr:`Limits.misses`: past a few typos, a guess at a room's code costs half a minute).

Everything here is plain bookkeeping: :class:`Bucket` is a token bucket on a monotonic clock, and
:class:`AddressBook` counts per address. The server decides what a refusal looks like.
"""
from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kabuto.net.protocol import MAX_STRIKES


@dataclass(frozen=True)
class Limits:
    """What one connection and one address may cost the server (see the module docstring)."""

    #: Messages a second one connection may send, on average ...
    rate: float = 20.0
    #: ... and at once, after a quiet spell.
    burst: int = 40
    #: Bytes queued for one connection that it has not read; one more message and it is dropped.
    send_queue: int = 2 * 1024 * 1024
    #: Refused messages a connection may send before it is closed (1008) ...
    strikes: int = MAX_STRIKES
    #: ... each one forgotten after this many seconds.
    strike_drain: float = 5.0
    #: Messages a second all the connections of one address may send together, on average ...
    address_rate: float = 200.0
    #: ... and at once.
    address_burst: int = 400
    #: New connections a second one address may open, on average ...
    connect_rate: float = 20.0
    #: ... and at once.
    connect_burst: int = 200
    #: Connections open at once from one address.
    connections: int = 128
    #: Rooms waiting for players in which one address holds a seat.
    setting_up: int = 8
    #: Rooms waiting or playing in which one address holds a seat.
    held: int = 64
    #: Wrong room codes and seat tokens one address may try at once ...
    misses: int = 20
    #: ... each one forgotten after this many seconds (a steady 2 guesses a minute).
    miss_drain: float = 30.0
    #: Room files of games that ended or were closed kept in ``<data>/rooms/``, the newest first
    #: (the games' records in ``replays/`` are never deleted).
    keep_room_files: int = 1000


def quota_address(peer: str) -> str:
    """The address a peer's quotas are counted by: an IPv4 address as it is, an IPv6 address by
    its /64 network (one subscriber's line is given a whole /64, every address of it alike)."""
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Bucket:
    """A token bucket: ``size`` tokens, refilled at ``rate`` a second. :meth:`take` spends one (or
    ``n``) and says how long to wait until the bucket is out of debt (0: no wait)."""

    def __init__(self, rate: float, size: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.size = size
        self.clock = clock
        self.level = float(size)
        self.at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.size, self.level + (now - self.at) * self.rate)
        self.at = now

    def take(self, n: float = 1.0) -> float:
        self._refill()
        self.level -= n
        return 0.0 if self.level >= 0 else -self.level / self.rate

    def empty(self) -> bool:
        """No whole token left (after the last :meth:`take`)."""
        self._refill()
        return self.level < 1.0

    def full(self) -> bool:
        self._refill()
        return self.level >= self.size


@dataclass(eq=False)
class Guard:
    """One connection's budgets."""

    host: str
    limits: Limits
    rate: Bucket = field(init=False)
    strikes: Bucket = field(init=False)
    #: Set once the server dropped the connection: nothing more is read from it or sent to it.
    dropped: bool = False

    def __post_init__(self) -> None:
        self.rate = Bucket(self.limits.rate, self.limits.burst)
        self.strikes = Bucket(1.0 / self.limits.strike_drain, self.limits.strikes)

    def strike(self) -> bool:
        """One refused message; True when the connection has used up its refusals."""
        self.strikes.take()
        return self.strikes.empty()


class AddressBook:
    """Per-address counts: connections open, rooms in which the address holds a seat, and the
    wrong room codes and tokens it tried."""

    #: Addresses whose budgets are full again are forgotten once this many are known.
    MAX_TRACKED = 4096

    def __init__(self, limits: Limits):
        self.limits = limits
        self.connections: dict[str, int] = {}
        self.rooms: dict[str, dict[str, Any]] = {}
        self.misses: dict[str, Bucket] = {}
        #: Per address with connections open: the message rate its connections share.
        self.rates: dict[str, Bucket] = {}
        self.connects: dict[str, Bucket] = {}

    # ----- connections -------------------------------------------------------------------------------
    def connect(self, host: str) -> str | None:
        """Count a new connection from ``host``; why not (it is then not counted), or None."""
        n = self.connections.get(host, 0)
        if n >= self.limits.connections:
            return f"your address has {n} connections open already (the most one address may)"
        lim = self.limits
        if self._bucket(self.connects, host, lim.connect_rate, lim.connect_burst).take() > 0:
            return "your address opened too many connections lately: try again in a few seconds"
        self.connections[host] = n + 1
        self.rates.setdefault(host, Bucket(lim.address_rate, lim.address_burst))
        return None

    def disconnect(self, host: str) -> None:
        n = self.connections.get(host, 0) - 1
        if n > 0:
            self.connections[host] = n
        else:
            self.connections.pop(host, None)
            self.rates.pop(host, None)

    def pace(self, host: str, n: float = 1.0) -> float:
        """``n`` messages' worth from ``host``: how long its connections must wait (0: none)."""
        bucket = self.rates.get(host)
        return bucket.take(n) if bucket is not None else 0.0

    def _bucket(self, table: dict[str, Bucket], host: str, rate: float, size: float) -> Bucket:
        """``host``'s bucket in ``table``, made full if new; once :data:`MAX_TRACKED` addresses
        are known, those whose bucket is full again are forgotten."""
        bucket = table.get(host)
        if bucket is None:
            if len(table) >= self.MAX_TRACKED:
                for h in [h for h, b in table.items() if b.full()]:
                    del table[h]
            bucket = table[host] = Bucket(rate, size)
        return bucket

    # ----- rooms -------------------------------------------------------------------------------------
    def seat_refusal(self, host: str, rooms: Iterable[Any], waiting: str, open_: tuple[str, ...]) -> str | None:
        """Why ``host`` may not take a seat in a room being set up (None: it may). ``rooms`` are the
        server's rooms (with ``code`` and ``status``); a room is set up while its status is
        ``waiting``, and held while it is one of ``open_``."""
        live = {r.code for r in rooms if r.status in open_}
        mine = self.rooms.get(host, {})
        for code in [c for c in mine if c not in live]:
            del mine[code]
        if len(mine) >= self.limits.held:
            return f"your address holds seats in {len(mine)} rooms already (at most {self.limits.held})"
        setting_up = sum(1 for r in mine.values() if r.status == waiting)
        if setting_up >= self.limits.setting_up:
            return (f"your address is setting up {setting_up} rooms already (at most "
                    f"{self.limits.setting_up}): start or leave one first")
        return None

    def hold(self, host: str, room: Any) -> None:
        self.rooms.setdefault(host, {})[room.code] = room

    def unhold(self, host: str, room: Any) -> None:
        """``host`` gave its seat in ``room`` up."""
        mine, code = self.rooms.get(host, {}), room.code
        if mine.get(code) is room:
            del mine[code]

    def release(self, room: Any) -> None:
        """``room`` closed: nobody holds it any more."""
        code = room.code
        for host in [h for h, mine in self.rooms.items() if code in mine]:
            mine = self.rooms[host]
            if mine.get(code) is room:
                del mine[code]
            if not mine:
                del self.rooms[host]

    # ----- guessing ----------------------------------------------------------------------------------
    def miss(self, host: str) -> bool:
        """``host`` named a room or token that is not there; True when it has used up its misses."""
        bucket = self._bucket(self.misses, host, 1.0 / self.limits.miss_drain, self.limits.misses)
        bucket.take()
        return bucket.empty()


__all__ = ["AddressBook", "Bucket", "Guard", "Limits", "quota_address"]
