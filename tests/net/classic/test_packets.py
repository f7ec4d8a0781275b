"""The Classic codec (`game.net.classic.packets`): sizes, round trips, and bad bytes as ClassicProtocolError."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.classic.packets import (CLIENT_PACKETS, SERVER_PACKETS, ClassicProtocolError, ExtAddEntity2,
                                      LevelDataChunk, Message, PacketReader, PlayerIdentification,
                                      PositionOrientation, SetBlockClient, SpawnPlayer, decode, encode, encode_for,
                                      packet_size)

PROTOCOL_7_SIZES = {"ServerIdentification": 131, "Ping": 1, "LevelInitialize": 1, "LevelDataChunk": 1028,
                    "LevelFinalize": 7, "SetBlock": 8, "SpawnPlayer": 74, "PositionOrientation": 10,
                    "PositionOrientationUpdate": 7, "PositionUpdate": 5, "OrientationUpdate": 4, "DespawnPlayer": 2,
                    "Message": 66, "DisconnectPlayer": 65, "UpdateUserType": 2, "PlayerIdentification": 131,
                    "SetBlockClient": 9}
CPE_SIZES = {"ExtInfo": 67, "ExtEntry": 69, "CustomBlockSupportLevel": 2, "HoldThis": 3, "ExtAddPlayerName": 196,
             "ExtRemovePlayerName": 3, "ExtAddEntity2": 138, "DefineBlock": 80, "TwoWayPing": 4}


def test_every_packet_has_the_size_the_classic_and_cpe_specifications_give():
    sizes = {cls.__name__: packet_size(cls) for cls in (*SERVER_PACKETS, *CLIENT_PACKETS)}
    assert sizes == {**PROTOCOL_7_SIZES, **CPE_SIZES}


def test_protocol_7_client_ids_are_0_5_8_13_and_the_server_uses_every_id_below_16_but_5():
    assert sorted(cls.ID for cls in CLIENT_PACKETS if cls.ID < 0x10) == [0x00, 0x05, 0x08, 0x0D]
    assert sorted(cls.ID for cls in SERVER_PACKETS if cls.ID < 0x10) == [i for i in range(16) if i != 0x05]


def test_ext_entity_positions_widens_the_coordinates_of_exactly_the_position_packets():
    assert packet_size(PositionOrientation, True) == 16
    assert packet_size(SpawnPlayer, True) == 80
    assert packet_size(ExtAddEntity2, True) == 144
    wide = PositionOrientation(255, 40000 * 32, 70 * 32, -50000 * 32, 0, 0)
    assert decode(PositionOrientation, encode_for(wide, True), True) == wide
    with pytest.raises(ClassicProtocolError):
        encode_for(wide, False)


def test_strings_are_64_bytes_of_space_padded_ascii():
    data = encode(Message(0xFF, "hi there"))
    assert data == b"\x0d\xff" + b"hi there".ljust(64, b" ")
    assert decode(Message, data) == Message(0xFF, "hi there")


def test_a_level_chunk_carries_its_length_then_1024_zero_padded_bytes():
    data = encode(LevelDataChunk(b"\x01\x02\x03", 50))
    assert len(data) == 1028 and data[1:3] == b"\x00\x03" and data[3:6] == b"\x01\x02\x03" and data[-1] == 50
    assert decode(LevelDataChunk, data) == LevelDataChunk(b"\x01\x02\x03", 50)


def test_a_value_its_field_cannot_carry_is_refused_when_encoding():
    with pytest.raises(ClassicProtocolError):
        encode(SetBlockClient(0, 0, 40000, 1, 1))
    with pytest.raises(ClassicProtocolError):
        encode(Message(0, "x" * 65))
    with pytest.raises(ClassicProtocolError):
        encode(Message(0, "caf\u00e9"))


def test_the_reader_takes_packets_fed_a_byte_at_a_time():
    stream = encode(PlayerIdentification(7, "alice", "", 0x42)) + encode(SetBlockClient(1, 2, 3, 1, 5))
    reader = PacketReader()
    got = []
    for byte in stream:
        reader.feed(bytes([byte]))
        got.extend(reader.packets())
    assert got == [PlayerIdentification(7, "alice", "", 0x42), SetBlockClient(1, 2, 3, 1, 5)]


def test_an_unknown_packet_id_is_a_protocol_error():
    reader = PacketReader()
    reader.feed(b"\x77" + bytes(20))
    with pytest.raises(ClassicProtocolError, match="unknown packet id 0x77"):
        list(reader.packets())


def test_a_string_with_control_characters_is_a_protocol_error():
    reader = PacketReader()
    reader.feed(b"\x0d\xff" + b"\x1b[2J".ljust(64, b" "))
    with pytest.raises(ClassicProtocolError):
        list(reader.packets())


def test_more_unread_bytes_than_the_limit_is_a_flood():
    reader = PacketReader(max_buffered=100)
    with pytest.raises(ClassicProtocolError):
        reader.feed(bytes(101))


def _values(cls):
    """A strategy of valid packets of kind `cls`."""
    ranges = {"B": (0, 255), "b": (-128, 127), "h": (-32768, 32767), "H": (0, 65535), "i": (-2 ** 31, 2 ** 31 - 1),
              "p": (-32768, 32767)}
    text = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=64)
    fields = {}
    for name, kind in cls.FIELDS:
        if kind == "s":
            fields[name] = text
        elif kind == "a":
            fields[name] = st.binary(max_size=1024)
        else:
            fields[name] = st.integers(*ranges[kind])
    return st.builds(cls, **fields)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SERVER_PACKETS + CLIENT_PACKETS).flatmap(_values))
def test_every_packet_survives_encoding_and_decoding(packet):
    assert decode(type(packet), encode(packet)) == packet


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.lists(st.integers(1, 50), max_size=20))
def test_random_bytes_give_packets_or_a_protocol_error_and_nothing_else(data, cuts):
    reader = PacketReader()
    pieces, start = [], 0
    for cut in cuts:
        pieces.append(data[start:start + cut])
        start += cut
    pieces.append(data[start:])
    try:
        for piece in pieces:
            reader.feed(piece)
            for packet in reader.packets():
                assert isinstance(packet, CLIENT_PACKETS)
                assert decode(type(packet), encode(packet)) == packet  # what was read is exactly a packet
    except ClassicProtocolError:
        pass


def test_packets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Message(0, "a").text = "b"
