"""Network play: ``kabuto serve`` holds rooms of Kabuto Sumo and of the card games, and clients
(``kabuto join``, the app) play in them over WebSockets.

* :mod:`kabuto.net.protocol` - the versioned JSON messages and the checks each one passes
  (``docs/protocol.md`` documents them);
* :mod:`kabuto.net.tables` - the game a room holds, behind one interface for both engines: actions,
  per-seat views, results, records;
* :mod:`kabuto.net.rooms` - rooms, seats, seat tokens and the room files that survive a restart;
* :mod:`kabuto.net.server` - the asyncio server;
* :mod:`kabuto.net.limits` - the quotas per connection and per address that keep one client from
  crowding out the others; :mod:`kabuto.net.names` - players' names, none passing for another's;
* :mod:`kabuto.net.bots` - the server's and the clients' bots;
* :mod:`kabuto.net.client` - a connection, the room state it describes, a thread-driven client
  for front ends, and the headless bot player.

The package sits one layer below :mod:`kabuto.app` (whose "Play online" screens drive the client):
it uses the rules, replays, AI and card engines, and never pyglet, the app or the command line.
"""
