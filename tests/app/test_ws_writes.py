"""The socket write path per move: a ``Connection``'s frames go to its link in order, and
string-keyed frames are encoded without orjson's slower non-string-key option."""

from __future__ import annotations

import json

import orjson
import pytest

from app.realtime import fanout
from app.realtime.fanout import encode
from tests.app.links import RecordingLink


def test_string_keyed_frames_skip_the_non_string_key_option(monkeypatch):
    options = []
    dumps = orjson.dumps

    def recording_dumps(data, option=None):
        options.append(option)
        return dumps(data) if option is None else dumps(data, option=option)

    monkeypatch.setattr(fanout.orjson, "dumps", recording_dumps)
    plain = {"type": "update", "view": {"names": ["Zoë"]}, "clocks": {"0": 1.5}}
    assert encode(plain) == json.dumps(plain, separators=(",", ":"), ensure_ascii=False)
    assert options == [None]
    keyed = {"type": "update", "view": {"hp": {0: 3, 1: -2}}}
    assert encode(keyed) == '{"type":"update","view":{"hp":{"0":3,"1":-2}}}'
    assert options == [None, None, orjson.OPT_NON_STR_KEYS]  # refused, then encoded with it


def test_a_value_json_cannot_hold_is_still_a_type_error():
    with pytest.raises(TypeError):
        encode({"type": "update", "view": {1, 2}})


async def test_a_connections_frames_go_to_its_link_in_order_and_stop_once_it_closed():
    from app.realtime.hub import Connection
    from app.realtime.schemas import Pong
    from app.rooms.port import Follower, RoomPort

    link = RecordingLink()
    conn = Connection(link, RoomPort(None, "ROOM"), Follower(0))
    conn.send({"n": 1})
    conn.send('{"n":2}')
    conn.send(Pong())
    link.close(1000)
    conn.send({"n": 4})
    assert link.sent == [{"n": 1}, {"n": 2}, {"type": "pong"}]
