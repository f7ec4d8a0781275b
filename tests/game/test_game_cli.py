"""Starting the game from the command line: options and worlds that are refused before any window opens
(exit status 2, a message naming the problem, nothing on disk changed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.frontends import cli
from game.frontends.cli import open_world, parse_options
from game.userdata.paths import default_world_path
from game.world.seed_text import is_blank, seed_from_text
from game.world import World
from game.world.noise import MAX_SEED, MIN_SEED

from .conftest import replace_window_app


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def refused(argv, capsys) -> str:
    """Run the command line; it must exit with status 2 without opening a window. Returns stderr."""
    try:
        status = cli.main(argv)
    except SystemExit as exit_info:  # argparse's usage errors
        status = exit_info.code
    assert status == cli.EXIT_USAGE
    return capsys.readouterr().err


@pytest.mark.parametrize("seed", ["", "   ", "\t"])
def test_a_blank_seed_is_a_usage_error_saying_to_leave_it_out_for_a_random_one(seed, capsys):
    message = refused(["--seed", seed], capsys)
    assert message.endswith("boxel: error: argument --seed: a blank seed: leave --seed out for a random one\n")


@pytest.mark.parametrize("text, seed", [("hello", 99162322), ("abc", 96354), ("1.5", 48568), ("42", 42),
                                        (" -7 ", -7), (str(2 ** 63), -1773151197), (str(-(2 ** 63)), -(2 ** 63))])
def test_a_seed_is_any_text_read_as_beta_reads_it(text, seed):
    assert parse_options(["--seed", text]).seed == seed


def test_a_text_seed_makes_a_new_world_with_its_hash_and_opens_it_again(tmp_path):
    path = tmp_path / "hello.boxel"
    with open_world(parse_options(["--world", str(path), "--seed", "hello"])) as world:
        assert world.seed == 99162322
    with open_world(parse_options(["--world", str(path), "--seed", "hello"])) as world:  # its own seed: accepted
        assert world.seed == 99162322


def test_the_help_says_what_seed_does_with_an_existing_world(capsys):
    with pytest.raises(SystemExit):
        parse_options(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "keeps its own" not in help_text
    assert ("An existing world opens only with its own seed or no --seed: a different seed is refused" in help_text)
    assert "any text, which stands for its Java hash as in Minecraft Beta (hello is 99162322)" in help_text


@pytest.mark.parametrize("option, value", [("--view-distance", "1"), ("--view-distance", "33"),
                                           ("--view-distance", "x"), ("--fov", "200"), ("--size", "0x10")])
def test_out_of_range_options_are_usage_errors(option, value, capsys):
    assert option in refused([option, value], capsys)


def test_realtime_needs_a_replay(capsys):
    assert "--realtime only applies to --replay" in refused(["--realtime"], capsys)


def test_offscreen_is_carried_into_the_options_and_refused_with_headless(capsys):
    assert parse_options(["--offscreen"]).offscreen and not parse_options([]).offscreen
    assert "--offscreen draws into a buffer" in refused(["--offscreen", "--headless", "--exit-after-ticks", "5"],
                                                         capsys)


def test_the_window_draws_on_its_own_thread_unless_no_draw_thread_is_given():
    assert parse_options([]).draw_thread and not parse_options(["--no-draw-thread"]).draw_thread
    assert "--no-draw-thread" in cli.build_parser().format_help()


def test_the_defaults_take_the_world_and_view_settings_from_the_user_folders():
    options = parse_options([])
    assert (options.world, options.seed, options.new, options.view_distance, options.fov) == (None, None, False,
                                                                                              None, None)
    world = open_world(options)
    try:
        assert world.path == default_world_path()
    finally:
        world.close()


def test_a_missing_world_is_created_with_the_given_seed(tmp_path):
    world = open_world(parse_options(["--world", str(tmp_path / "new.boxel"), "--seed", "-7"]))
    try:
        assert world.seed == -7
    finally:
        world.close()


def test_new_refuses_to_replace_an_existing_world(tmp_path, capsys):
    path = tmp_path / "old.boxel"
    World.create(path, 1).close()
    before = path.read_bytes()
    message = refused(["--world", str(path), "--new", "--seed", "2"], capsys)
    assert "already there" in message and "leave out --new" in message
    assert path.read_bytes() == before


def test_a_seed_that_differs_from_the_existing_worlds_is_refused(tmp_path, capsys):
    path = tmp_path / "old.boxel"
    World.create(path, 1).close()
    assert "has seed 1, not 2" in refused(["--world", str(path), "--seed", "2"], capsys)


def test_a_world_in_use_is_refused(tmp_path, capsys):
    path = tmp_path / "busy.boxel"
    with World.create(path, 1):
        assert "in use" in refused(["--world", str(path)], capsys)


@pytest.mark.parametrize("content", [b"", b"this is not a world" * 20, b"SQLite format 3\x00" + b"\x00" * 10])
def test_a_damaged_world_file_is_refused_and_left_untouched(tmp_path, capsys, content):
    path = tmp_path / "broken.boxel"
    path.write_bytes(content)
    message = refused(["--world", str(path)], capsys)
    assert str(path) in message
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.boxel"]


def test_a_world_with_an_unreadable_saved_player_opens_with_the_player_at_the_spawn_and_a_warning(tmp_path, capsys):
    path = tmp_path / "odd.boxel"
    with World.create(path, 1) as world:
        world.player_state = {"version": 1, "box": "here"}
    open_world(parse_options(["--world", str(path)])).close()  # not refused: no WorldOpenError
    assert cli.main(["--headless", "--world", str(path), "--exit-after-ticks", "1"]) == 0
    err = capsys.readouterr().err
    assert "boxel: warning: the saved player's 'box' must be 6 finite numbers" in err
    assert "the player starts at the spawn" in err
    with World.open(path) as world:
        assert world.player_state["version"] == 1 and len(world.player_state["box"]) == 6



@pytest.mark.parametrize("argv", [[], ["--size", "640x360"], ["--fov", "90", "--view-distance", "4"]])
def test_no_world_option_opens_the_title_screen(argv):
    assert cli.wants_title_screen(parse_options(argv))


@pytest.mark.parametrize("argv", [["--world", "w.boxel"], ["--seed", "3"], ["--new"], ["--lab"],
                                  ["--exit-after-ticks", "5"], ["--headless", "--exit-after-ticks", "5"],
                                  ["--time", "6000"], ["--record", "r.jsonl"]])
def test_any_world_or_script_option_plays_as_it_always_did_without_the_title_screen(argv):
    assert not cli.wants_title_screen(parse_options(argv))


def test_main_with_no_options_runs_the_title_screen_with_the_cli_opening_the_worlds(monkeypatch):
    seen = {}

    def run_title(options, open_session, stop=None, on_open=None):
        seen.update(options=options, open_session=open_session)
        return 0

    replace_window_app(monkeypatch, run_title=run_title, LaunchError=RuntimeError)
    assert cli.main([]) == 0
    assert seen["open_session"] is cli.title_session and seen["options"] == parse_options([])


def test_the_title_screen_opens_a_listed_world_as_world_does(tmp_path):
    path = tmp_path / "listed.boxel"
    World.create(path, 12).close()
    session = cli.title_session(path)
    try:
        assert session.world.seed == 12 and session.world.path == path
    finally:
        session.world.close()


def test_the_title_screen_refuses_a_world_removed_since_it_was_listed_and_makes_none(tmp_path):
    with pytest.raises(cli.WorldOpenError, match="no world at"):
        cli.title_session(tmp_path / "gone.boxel")
    assert list(tmp_path.iterdir()) == []


def test_the_title_screen_refuses_a_world_in_use_with_the_same_message_as_world(tmp_path):
    path = tmp_path / "busy.boxel"
    with World.create(path, 1):
        with pytest.raises(cli.WorldOpenError, match="in use"):
            cli.title_session(path)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40))
def test_any_seed_text_on_the_command_line_is_the_dialogs_seed_or_a_blank_seed_usage_error(text):
    try:
        options = parse_options([f"--seed={text}"])
    except SystemExit as exit_info:
        assert exit_info.code == cli.EXIT_USAGE and is_blank(text)
        return
    assert options.seed == seed_from_text(text) and MIN_SEED <= options.seed <= MAX_SEED
