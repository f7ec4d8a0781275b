"""The wire protocol (game.net.protocol): every message survives its round trip exactly, and no bytes
whatever raise anything but ProtocolError."""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.protocol import (CLIENT_MESSAGES, MAX_CHAT_CHARS, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION, Ack,
                               AckDelta, BlockEdit, BodyMove, Chat, ColumnData, Disconnect, ForgetColumn, FrameDecoder,
                               Hello, Input, PlayerState, ProtocolError, Say, Sound, TickUpdate, Welcome, decode,
                               encode)
from game.rules.hotbar import holdable
from game.rules.replay import (CLICK_BUTTONS, Click, KeyDown, KeyUp, Look, PutInSlot, Release, SetDayTime,
                               SetPeaceful)
from game.rules.sounds import SOUND_NAMES
from game.rules.tick_changes import BODY_KINDS
from physics.materials import Material
from game.world.blocks import SPECS

finite = st.floats(allow_nan=False, allow_infinity=False)
u32 = st.integers(0, 2 ** 32 - 1)
i32 = st.integers(-2 ** 31, 2 ** 31 - 1)
names = st.from_regex(r"[A-Za-z0-9_]{1,16}", fullmatch=True)
keys = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=20)
boxes = st.tuples(*[finite] * 6)
vectors = st.tuples(*[finite] * 3)
held_blocks = [spec.name for spec in SPECS if holdable(spec.name)]

events = st.one_of(
    st.builds(KeyDown, u32, keys), st.builds(KeyUp, u32, keys),
    st.builds(Look, u32, st.floats(0, 359.9), st.floats(-90, 90)),
    st.builds(Click, u32, st.sampled_from(CLICK_BUTTONS)), st.builds(Release, u32, st.sampled_from(CLICK_BUTTONS)),
    st.builds(PutInSlot, u32, st.integers(0, 8), st.sampled_from(held_blocks)),
    st.builds(SetDayTime, u32, st.integers(0, 23999)), st.builds(SetPeaceful, u32, st.booleans()))
states = st.builds(PlayerState, boxes, vectors, finite, finite, st.booleans(), st.booleans(), st.booleans(),
                   st.integers(0, 20), finite, st.floats(0, 1e9), st.booleans(), st.booleans(), st.booleans(),
                   st.booleans(), st.booleans(), st.integers(0, 65535), st.frozensets(st.sampled_from(list(Material))))
i8 = st.integers(-128, 127)
speeds = st.integers(-31200, 31200)
body_moves = st.one_of(
    st.builds(BodyMove, st.integers(0, 65535), st.just("appeared"), keys, st.sampled_from(BODY_KINDS),
              st.tuples(i32, i32, i32), st.tuples(st.integers(0, 65535), st.integers(0, 65535)),
              st.tuples(speeds, speeds, speeds)),
    st.builds(BodyMove, st.integers(0, 65535), st.just("moved"), at=st.tuples(i32, i32, i32),
              velocity=st.tuples(speeds, speeds, speeds)),
    st.builds(BodyMove, st.integers(0, 65535), st.just("stepped"), at=st.tuples(i8, i8, i8)),
    st.builds(BodyMove, st.integers(0, 65535), st.just("gone")))
near = st.floats(-1e6, 1e6)
messages = st.one_of(
    st.builds(Hello, st.integers(0, 65535), names),
    st.builds(Input, events),
    st.builds(Say, st.text(st.characters(codec="utf-8").filter(str.isprintable), min_size=1, max_size=MAX_CHAT_CHARS)
              .filter(str.isprintable)),
    st.builds(Welcome, st.integers(0, 65535), names, st.integers(-2 ** 63, 2 ** 63 - 1), u32, u32, st.booleans()),
    st.builds(Disconnect, st.text(max_size=200)),
    st.builds(ColumnData, i32, i32, st.binary(max_size=300), st.sampled_from(["ids16", "ids8"])),
    st.builds(ColumnData, i32, i32, st.binary(min_size=4, max_size=4), st.just("seed")),
    st.builds(ForgetColumn, i32, i32),
    st.builds(TickUpdate, u32, u32,
              st.lists(st.builds(BlockEdit, i32, st.integers(0, 255), i32, st.integers(0, 65535)), max_size=5)
              .map(tuple),
              st.lists(body_moves, max_size=4).map(tuple),
              st.lists(st.builds(Sound, st.sampled_from(SOUND_NAMES), st.tuples(near, near, near), st.floats(0, 4),
                                 st.floats(0.1, 2)), max_size=3).map(tuple)),
    st.builds(Ack, u32, st.integers(-1, 2 ** 32 - 2), states),
    st.builds(AckDelta.between, u32, st.integers(-1, 2 ** 32 - 2), states, states),
    st.builds(Chat, st.one_of(st.just(""), names), st.text(max_size=200)))


@settings(max_examples=300)
@given(messages)
def test_every_message_decodes_to_the_message_it_was_encoded_from(message):
    frame = encode(message)
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert decode(frame[4:]) == message


@settings(max_examples=100)
@given(st.lists(messages, min_size=1, max_size=5), st.data())
def test_a_stream_of_frames_cut_anywhere_decodes_to_the_same_messages(sent, data):
    stream = b"".join(encode(message) for message in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    decoder = FrameDecoder()
    received = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)]):
        received.extend(decoder.feed(stream[start:end]))
    assert received == sent
    assert decoder.pending == 0


@settings(max_examples=500)
@given(st.binary(max_size=200))
def test_random_bytes_never_raise_anything_but_protocol_error(data):
    try:
        decode(data)
    except ProtocolError:
        pass
    try:
        FrameDecoder(MAX_CLIENT_FRAME_BYTES, CLIENT_MESSAGES).feed(data)
    except ProtocolError:
        pass


@settings(max_examples=300)
@given(messages, st.data())
def test_a_message_with_a_byte_changed_or_cut_short_decodes_or_raises_protocol_error(message, data):
    body = bytearray(encode(message)[4:])
    at = data.draw(st.integers(0, len(body) - 1))
    body[at] = data.draw(st.integers(0, 255))
    for broken in (bytes(body), bytes(body[:at])):
        try:
            decode(broken)
        except ProtocolError:
            pass


def test_a_frame_over_the_limit_is_refused_from_its_header_alone():
    with pytest.raises(ProtocolError, match="over the limit of 1024"):
        FrameDecoder(1024).feed(struct.pack(">I", 1025))


def test_a_truncated_message_is_refused_as_truncated():
    body = encode(Welcome(PROTOCOL_VERSION, "alice", 42, 7, 100))[4:]
    with pytest.raises(ProtocolError, match="truncated"):
        decode(body[:-1])


def test_bytes_after_a_whole_message_are_refused():
    body = encode(ForgetColumn(1, 2))[4:]
    with pytest.raises(ProtocolError, match="1 bytes left over"):
        decode(body + b"\0")


def test_an_unknown_message_type_is_refused_naming_it():
    with pytest.raises(ProtocolError, match="unknown message type 99"):
        decode(b"\x63")


def test_a_server_reading_client_messages_refuses_a_server_message():
    body = encode(Disconnect("bye"))[4:]
    with pytest.raises(ProtocolError, match="unknown message type 17"):
        decode(body, CLIENT_MESSAGES)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_on_the_wire_is_refused(bad):
    good = encode(Input(Look(3, 10.0, 20.0)))[4:]
    body = good[:-8] + struct.pack(">d", bad)
    with pytest.raises(ProtocolError, match="finite"):
        decode(body)


@pytest.mark.parametrize("name", ["", "a" * 17, "bad name", "tab\there", "\x07bell"])
def test_a_hello_with_a_name_beta_would_refuse_is_refused(name):
    body = b"\x01" + struct.pack(">HB", PROTOCOL_VERSION, len(name.encode())) + name.encode()
    with pytest.raises(ProtocolError, match="bad name"):
        decode(body)


def test_a_chat_line_longer_than_betas_hundred_characters_is_refused():
    with pytest.raises(ProtocolError, match=f"1..{MAX_CHAT_CHARS} characters"):
        Say("x" * (MAX_CHAT_CHARS + 1))
    body = b"\x03" + struct.pack(">H", MAX_CHAT_CHARS + 1) + b"x" * (MAX_CHAT_CHARS + 1)
    with pytest.raises(ProtocolError):
        decode(body)


def test_an_input_event_that_the_replay_rules_refuse_is_a_protocol_error():
    body = bytearray(encode(Input(PutInSlot(0, 3, "stone")))[4:])
    body[6] = 9  # slot 9: the hotbar has 0..8
    with pytest.raises(ProtocolError, match="bad PutInSlot event"):
        decode(bytes(body))


def test_after_one_bad_frame_the_decoder_refuses_everything():
    decoder = FrameDecoder()
    with pytest.raises(ProtocolError):
        decoder.feed(struct.pack(">I", 1) + b"\xff")
    with pytest.raises(ProtocolError):
        decoder.feed(encode(ForgetColumn(0, 0)))


@settings(max_examples=200)
@given(states, states)
def test_a_state_rebuilt_from_its_delta_is_the_state_bit_for_bit(before, after):
    ack = decode(encode(AckDelta.between(7, 3, before, after))[4:]).applied_to(before)
    assert (ack.tick, ack.input_tick) == (7, 3)
    assert ack.state.wire() == after.wire()


def test_a_delta_of_a_walking_step_carries_only_the_numbers_that_changed():
    before = PlayerState((0.0, 64.0, 0.0, 0.6, 65.8, 0.6), (0.1, -0.0784, 0.0), 0.0, 0.0, True, False, False, 20)
    after = PlayerState((0.1, 64.0, 0.0, 0.7, 65.8, 0.6), (0.1, -0.0784, 0.0), 0.0, 0.0, True, False, False, 20)
    delta = AckDelta.between(5, 4, before, after)
    assert [index for index, _ in delta.changed] == [0, 3]
    assert len(encode(delta)) == 4 + 1 + 10 + 2 * 8 + 6


def test_a_negative_zero_is_a_change_to_the_bit():
    before = PlayerState((0.0,) * 3 + (0.6, 1.8, 0.6), (0.0, 0.0, 0.0), 0.0, 0.0, True, False, False, 20)
    after = PlayerState((0.0,) * 3 + (0.6, 1.8, 0.6), (-0.0, 0.0, 0.0), 0.0, 0.0, True, False, False, 20)
    assert [index for index, _ in AckDelta.between(1, 0, before, after).changed] == [6]


def test_a_step_beyond_a_signed_byte_is_refused():
    with pytest.raises(ProtocolError, match="position"):
        BodyMove(1, "stepped", at=(128, 0, 0))


@given(u32, st.integers(-1, 2 ** 32 - 2), states, states)
def test_a_delta_made_between_two_states_equals_the_checked_delta_of_the_same_fields(tick, input_tick, before, after):
    delta = AckDelta.between(tick, input_tick, before, after)
    checked = AckDelta(tick, input_tick, delta.changed, after.rest())
    assert delta == checked and encode(delta) == encode(checked)
    assert all(isinstance(pair, tuple) for pair in delta.changed) and isinstance(delta.rest, tuple)


@pytest.mark.parametrize("tick, input_tick", [(-1, 0), (2 ** 32, 0), (0, -2), (0, 2 ** 32)])
def test_a_delta_for_a_tick_the_wire_cannot_carry_is_refused(tick, input_tick):
    state = PlayerState((0.0, 0.0, 0.0, 0.6, 1.8, 0.6), (0.0, 0.0, 0.0), 0.0, 0.0, True, False, False, 20)
    with pytest.raises(ProtocolError):
        AckDelta.between(tick, input_tick, state, state)


@given(st.lists(st.builds(Sound, st.sampled_from(SOUND_NAMES), st.tuples(*[st.floats(-1e6, 1e6)] * 3),
                          st.floats(0, 4), st.floats(0.1, 2)), max_size=4))
def test_a_sound_encoded_once_and_kept_reads_back_as_the_sound(sounds):
    update = TickUpdate(5, 6, (), (), tuple(sounds))
    assert encode(update) == encode(update)  # the second from the kept bytes
    assert decode(encode(update)[4:]) == update


@given(u32, u32, st.lists(st.builds(BlockEdit, i32, st.integers(0, 255), i32, st.integers(0, 65535)), max_size=5),
       st.lists(body_moves, max_size=4), st.lists(st.builds(Sound, st.sampled_from(SOUND_NAMES),
                                                             st.tuples(near, near, near), st.floats(0, 4),
                                                             st.floats(0.1, 2)), max_size=3))
def test_an_update_made_of_its_parts_equals_the_checked_update(tick, day_time, blocks, bodies, sounds):
    made = TickUpdate.of_parts(tick, day_time, tuple(blocks), tuple(bodies), tuple(sounds))
    checked = TickUpdate(tick, day_time, tuple(blocks), tuple(bodies), tuple(sounds))
    assert made == checked and encode(made) == encode(checked)


def test_an_update_made_of_its_parts_still_refuses_a_tick_the_wire_cannot_carry():
    with pytest.raises(ProtocolError):
        TickUpdate.of_parts(2 ** 32, 0, (), (), ())
