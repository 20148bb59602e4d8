"""REST routers (docs/protocol.md "REST"): games, players, rooms, matches; deps and schemas."""
