"""Playing over a network: the wire protocol (`protocol`), the server's core (`hub`), its asyncio
transport (`server`) and a headless client (`client`).

Owns: everything between a `game.rules.session.Session` and a TCP socket. Never imports Ursina or
Panda3D (tests/test_import_graph.py's layers: game.net may import game.net, game.rules, game.world
and physics). Does not own: the command line (`game.frontends.server`, `game.frontends.cli`) or the rules.
"""
