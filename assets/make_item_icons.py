"""Paints the icons of items that are not blocks: `python -m assets.make_item_icons [--out DIR]`.

Owns: what each non-block item's icon looks like (16x16 pixel art from simple shapes and palettes,
drawn 2x to the icon grid's 32 pixels; nothing copied), the grid's order (ICON_NAMES) and writing
`item_icons.png` with its index `item_icons.json` ({"columns", "icon_pixels", "names"}), by default
into assets/textures/. Deterministic: the same code writes byte-identical files.
Does not own: block icons (`assets/make_atlas.py`, `icons.png`), which item a slot holds
(`game.rules.items`) or drawing a slot (`game.window.ui.item_icons` reads the index).

Doors and beds are items with their own icons here, as in Beta's inventory (their blocks are
placed in parts).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from PIL import Image

ART_PIXELS = 16
"""Edge of one drawing, in art pixels."""
ICON_PIXELS = 32
"""Edge of one icon in the image: the art drawn 2x with square pixels, the block icons' size."""
COLUMNS = 8
"""Icons in one row of the image."""
OUT_DIR = Path(__file__).resolve().parent / "textures"

TIER_COLOURS = {
    "wooden": ((104, 78, 42), (150, 116, 66), (188, 152, 96)),
    "stone": ((80, 80, 80), (124, 124, 124), (160, 160, 160)),
    "iron": ((150, 150, 150), (210, 210, 210), (250, 250, 250)),
    "golden": ((176, 128, 20), (236, 200, 50), (255, 246, 140)),
    "diamond": ((20, 130, 120), (60, 210, 190), (170, 255, 240)),
}
"""Each tier's dark, middle and light shade for a tool's head."""
HANDLE = ((74, 52, 24), (120, 88, 44))
OUTLINE = (32, 24, 16)

# Tool heads as art-pixel rows on the 16x16 grid ('#' middle, 'l' light, 'd' dark), the handle
# drawn under them from the bottom-left corner up to the head.
TOOL_HEADS = {
    "pickaxe": ("....dddddd......", "..dd######dd....", ".d##llllll##d...", "d#l......dl#d...",
                "dl.......d#ld...", "d........d#.d...", ".........dd..d..", "..........d...d."),
    "shovel": ("..........ddd...", ".........d###d..", "........d#lll#d.", "........d#ll##d.",
               ".........d###d..", "..........ddd...", "................", "................"),
    "axe": ("....ddd.........", "...d#lld.dd.....", "..d#ll##d##d....", "..d#l#####d.....",
            "..d#l###d.......", "...d##dd........", "....dd..........", "................"),
    "sword": ("..............dd", ".............d#d", "............d#ld", "...........d#ld.",
              "..........d#ld..", ".........d#ld...", "........d#ld....", ".......d#ld....."),
    "hoe": ("......dddddd....", ".....d####ldd...", ".........d#d....", "................",
            "................", "................", "................", "................"),
}


def _blank() -> list[list[tuple | None]]:
    return [[None] * ART_PIXELS for _ in range(ART_PIXELS)]


def _paint(art, rows: tuple[str, ...], colours: dict[str, tuple], top: int = 0, left: int = 0) -> None:
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            if letter != "." and 0 <= top + y < ART_PIXELS and 0 <= left + x < ART_PIXELS:
                art[top + y][left + x] = colours[letter]


def _handle(art, length: int = 11) -> None:
    """A stick from the bottom-left corner up and right, `length` art pixels long."""
    for k in range(length):
        x, y = 1 + k, ART_PIXELS - 2 - k
        art[y][x] = HANDLE[1]
        if y + 1 < ART_PIXELS:
            art[y + 1][x] = HANDLE[0]


def tool(tier: str, kind: str):
    art = _blank()
    dark, middle, light = TIER_COLOURS[tier]
    if kind == "sword":
        _paint(art, TOOL_HEADS[kind], {"d": dark, "#": middle, "l": light}, top=0, left=0)
        _paint(art, ("d#d.", "#dd.", "d..."), {"d": HANDLE[0], "#": (60, 44, 20)}, top=8, left=5)
        for k in range(4):
            art[11 + k][4 - k] = HANDLE[1]
            art[12 + k - 1][4 - k] = HANDLE[1]
        return art
    _handle(art, 12 if kind in ("pickaxe", "hoe") else 10)
    top, left = {"pickaxe": (1, 0), "shovel": (1, 0), "axe": (1, 2), "hoe": (2, 0)}[kind]
    _paint(art, TOOL_HEADS[kind], {"d": dark, "#": middle, "l": light}, top=top, left=left)
    return art


def _disc(art, cx: float, cy: float, radius: float, colour, highlight=None) -> None:
    for y in range(ART_PIXELS):
        for x in range(ART_PIXELS):
            d = ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) ** 0.5
            if d <= radius:
                art[y][x] = colour
                if highlight and d <= radius * 0.45 and x < cx and y < cy:
                    art[y][x] = highlight


def _rows(rows: tuple[str, ...], colours: dict[str, tuple]):
    art = _blank()
    _paint(art, rows, colours)
    return art


INGOT = ("................", "................", "................", "................",
         "................", "......dddddd....", "....dllllll#d...", "..dllllll###d...",
         ".d#########dd...", ".d########dd....", ".dddddddddd.....", "................",
         "................", "................", "................", "................")
LUMP = ("................", "................", "................", ".....dd.........",
        "....d##dd.......", "...d#l###dd.....", "..d#ll#####d....", "..d#l######d....",
        "..d#########d...", "...d#######d....", "...dd#####dd....", ".....ddddd......",
        "................", "................", "................", "................")
GEM = ("................", "................", "................", "....dddddddd....",
       "...dlllll###d...", "..dlll#####l#d..", "..dddddddddddd..", "...d#l####l#d...",
       "....d#l##l#d....", ".....d#ll#d.....", "......d##d......", ".......dd.......",
       "................", "................", "................", "................")
STICK = tuple("." * (13 - k) + "dl" + "." * (1 + k) if 1 <= k <= 12 else "." * 16 for k in range(16))
BOWL = ("................", "................", "................", "................",
        "................", "................", "................", "dddddddddddddddd",
        "d#l############d", ".d###########dd.", ".d############d.", "..d##########d..",
        "...dd######dd...", ".....dddddd.....", "................", "................")
STEW = BOWL[:6] + ("..ccrcccccrccc..", "dddddddddddddddd") + BOWL[8:]
MEAT = ("................", "................", "................", "........ddd.....",
        "......dd###dd...", "....dd#l####d...", "...d#ll######d..", "..d#l########d..",
        "..d##########d..", "..d#########d...", "...d#######wd...", "....dd####ww....",
        "......dddwww....", "...........ww...", "................", "................")
FISH = ("................", "................", "................", "................",
        "......dddd......", "....dd####d...dd", "...d#l#####d.d#d", "..d#k#######d##d",
        "..d##########d#d", "...d########d.dd", "....dd#####d....", "......dddd......",
        "................", "................", "................", "................")
BREAD = ("................", "................", "................", "................",
         "................", "....dddddddd....", "..dd#l#l#l##dd..", ".d#l#l#l#l####d.",
         ".d############d.", ".dd##########dd.", "..dddddddddddd..", "................",
         "................", "................", "................", "................")
WHEAT = tuple(row.replace("x", "d") for row in (
    "........l.......", "......l.l.l.....", ".....l#l#l#l....", "......l#l#l.....",
    ".....l#l#l#l....", "......l#l#l.....", "......#.#.#.....", ".......###......",
    "........#.......", ".......d#d......", "........#.......", "........#.......",
    "........#.......", "........#.......", "................", "................"))
SEEDS = ("................", "................", "................", "................",
         "................", "......#.........", "...#......#.....", ".......l....#...",
         "....l.........#.", "..#.....#.......", "......#....l....", "....#.......#...",
         "..........#.....", "................", "................", "................")
STRING = tuple("." * k + "l" + "." * (15 - k) if k % 2 == 0 else "." * k + "#" + "." * (15 - k)
               for k in range(16))
APPLE = ("................", "........d.......", ".......d........", "....dd.d.dd.....",
         "...d##d#d##d....", "..d#l#######d...", "..d#l########d..", "..d##########d..",
         "..d##########d..", "..d##########d..", "...d########d...", "....d##dd##d....",
         ".....dd..dd.....", "................", "................", "................")
FLINT = ("................", "................", "................", "......dd........",
         ".....d#ld.......", "....d#lll#d.....", "...d##l####d....", "...d#######d....",
         "..d########d....", "..d#######d.....", "...d#####d......", "....ddddd.......",
         "................", "................", "................", "................")
BRICK = ("................", "................", "................", "................",
         "................", "....dddddddd....", "...d#l######d...", "..d#l######d#d..",
         "..d#######d##d..", "..ddddddddd#d...", "...d#######d....", "....dddddddd....",
         "................", "................", "................", "................")
DOOR = ("...dddddddddd...", "...d########d...", "...d#dd##dd#d...", "...d#dd##dd#d...",
        "...d########d...", "...d#dd##dd#d...", "...d#dd##dd#d...", "...d########d...",
        "...d######l#d...", "...d########d...", "...d#dd##dd#d...", "...d#dd##dd#d...",
        "...d########d...", "...d#dd##dd#d...", "...d#dd##dd#d...", "...dddddddddd...")
BED = ("................", "................", "................", "................",
       "................", "..wwww..........", ".wwwwwrrrrrrrrr.", ".dddddrrrrrrrrrr",
       ".lllllllllllllll", ".d############d.", ".d............d.", ".d............d.",
       "................", "................", "................", "................")


LEATHER = ("................", "................", "................", "...dddd..dddd...",
           "..d#l##dd###d...", "..d#l#######d...", "...d########d...", "...d#######d....",
           "..d#########d...", "..d##########d..", "..d##########d..", "...dd######dd...",
           ".....dddddd.....", "................", "................", "................")
FEATHER = ("................", "............dd..", "...........d#ld.", "..........d#ld..",
           ".........d#ld...", "........d#ld....", ".......d#ld.....", "......d#ld......",
           ".....d#ld.......", "....d#ld........", "...d#ld.........", "...dld..........",
           "..dd............", ".d..............", "................", "................")
BONE = ("................", "............dd..", "...........d#ld.", "...........d##d.",
        "..........d#d...", ".........d#d....", "........d#d.....", ".......d#d......",
        "......d#d.......", ".....d#d........", "....d#d.........", ".d##d...........",
        ".dl#d...........", "..dd............", "................", "................")
POWDER = ("................", "................", "................", "................",
          "................", "........#.......", "......#l#.......", ".....#####......",
          "....##l####.....", "...####l####....", "..#####l#####...", "..d##########d..",
          "...dddddddddd...", "................", "................", "................")
ARROW = ("................", "............ll..", "...........lll..", "..........#ll...",
         ".........#......", "........#.......", ".......#........", "......#.........",
         ".....#..........", "....#...........", "...#............", ".ww#............",
         ".wwd............", "..w.............", "................", "................")
EGG = ("................", "................", "................", "......dddd......",
       ".....d#ll#d.....", "....d#ll###d....", "....d#l####d....", "...d########d...",
       "...d########d...", "...d########d...", "...d########d...", "....d######d....",
       ".....dddddd.....", "................", "................", "................")


def _colours(dark, middle, light, **extra):
    return {"d": dark, "#": middle, "l": light, **extra}


DRAWINGS = {
    "stick": lambda: _rows(STICK, _colours(HANDLE[0], HANDLE[1], (150, 112, 60))),
    "coal": lambda: _rows(LUMP, _colours((20, 20, 20), (44, 44, 44), (96, 96, 96))),
    "charcoal": lambda: _rows(LUMP, _colours((30, 24, 18), (58, 48, 38), (104, 90, 72))),
    "iron_ingot": lambda: _rows(INGOT, _colours((110, 110, 110), (200, 200, 200), (245, 245, 245))),
    "gold_ingot": lambda: _rows(INGOT, _colours((150, 100, 10), (236, 200, 50), (255, 250, 160))),
    "diamond": lambda: _rows(GEM, _colours((14, 110, 100), (70, 220, 200), (200, 255, 248))),
    "flint": lambda: _rows(FLINT, _colours((20, 20, 24), (60, 60, 66), (120, 120, 130))),
    "clay_ball": lambda: _rows(LUMP, _colours((110, 114, 130), (160, 166, 182), (206, 210, 222))),
    "brick": lambda: _rows(BRICK, _colours((90, 36, 24), (170, 76, 52), (212, 120, 90))),
    "seeds": lambda: _rows(SEEDS, _colours((40, 90, 20), (70, 150, 40), (150, 200, 90))),
    "wheat": lambda: _rows(WHEAT, _colours((120, 90, 30), (200, 170, 70), (235, 215, 120))),
    "string": lambda: _rows(STRING, _colours((180, 180, 180), (230, 230, 230), (255, 255, 255))),
    "bowl": lambda: _rows(BOWL, _colours((70, 50, 24), (130, 96, 52), (170, 130, 76))),
    "mushroom_stew": lambda: _rows(STEW, _colours((70, 50, 24), (130, 96, 52), (170, 130, 76),
                                                  c=(150, 110, 70), r=(190, 40, 30))),
    "apple": lambda: _rows(APPLE, _colours((90, 10, 10), (210, 30, 30), (255, 140, 140))),
    "golden_apple": lambda: _rows(APPLE, _colours((140, 100, 10), (240, 200, 40), (255, 250, 170))),
    "bread": lambda: _rows(BREAD, _colours((100, 60, 20), (190, 130, 50), (230, 190, 110))),
    "porkchop": lambda: _rows(MEAT, _colours((150, 60, 60), (236, 130, 130), (255, 200, 200), w=(250, 240, 230))),
    "cooked_porkchop": lambda: _rows(MEAT, _colours((90, 50, 20), (170, 100, 50), (210, 150, 90), w=(240, 220, 190))),
    "raw_fish": lambda: _rows(FISH, _colours((60, 90, 110), (120, 170, 200), (200, 230, 250), k=(10, 10, 10))),
    "cooked_fish": lambda: _rows(FISH, _colours((90, 60, 30), (180, 130, 70), (225, 185, 120), k=(10, 10, 10))),
    "wooden_door": lambda: _rows(DOOR, _colours((80, 56, 26), (150, 112, 60), (220, 190, 60))),
    "leather": lambda: _rows(LEATHER, _colours((80, 40, 16), (150, 80, 40), (190, 120, 70))),
    "feather": lambda: _rows(FEATHER, _colours((150, 150, 150), (230, 230, 230), (255, 255, 255))),
    "bone": lambda: _rows(BONE, _colours((150, 150, 140), (225, 225, 210), (250, 250, 240))),
    "gunpowder": lambda: _rows(POWDER, _colours((40, 40, 40), (90, 90, 90), (150, 150, 150))),
    "arrow": lambda: _rows(ARROW, _colours((70, 50, 24), (150, 112, 60), (200, 200, 200), w=(240, 240, 240))),
    "egg": lambda: _rows(EGG, _colours((150, 120, 80), (230, 210, 170), (255, 245, 225))),
    "bed": lambda: _rows(BED, _colours((90, 64, 30), (150, 112, 60), (200, 200, 200),
                                       w=(240, 240, 240), r=(170, 20, 20))),
}
for _tier in TIER_COLOURS:
    for _kind in TOOL_HEADS:
        DRAWINGS[f"{_tier}_{_kind}"] = (lambda tier=_tier, kind=_kind: tool(tier, kind))

ICON_NAMES: tuple[str, ...] = tuple(DRAWINGS)
"""The items drawn, in the image's order (icon k at column k % COLUMNS, row k // COLUMNS)."""


def _outlined(art) -> list[list[tuple | None]]:
    """`art` with a dark outline on clear pixels next to a drawn one, so an icon reads on any slot."""
    out = [row[:] for row in art]
    for y in range(ART_PIXELS):
        for x in range(ART_PIXELS):
            if art[y][x] is None and any(
                    0 <= y + dy < ART_PIXELS and 0 <= x + dx < ART_PIXELS and art[y + dy][x + dx] is not None
                    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))):
                out[y][x] = OUTLINE
    return out


def icon_image(name: str) -> Image.Image:
    """One item's icon, ICON_PIXELS square, RGBA."""
    art = _outlined(DRAWINGS[name]())
    small = Image.new("RGBA", (ART_PIXELS, ART_PIXELS), (0, 0, 0, 0))
    for y, row in enumerate(art):
        for x, colour in enumerate(row):
            if colour is not None:
                small.putpixel((x, y), (*colour, 255))
    return small.resize((ICON_PIXELS, ICON_PIXELS), Image.NEAREST)


def sheet() -> Image.Image:
    """Every icon in ICON_NAMES order on one image, COLUMNS wide, its height a power of two."""
    rows = -(-len(ICON_NAMES) // COLUMNS)
    height = 1
    while height < rows:
        height *= 2
    image = Image.new("RGBA", (COLUMNS * ICON_PIXELS, height * ICON_PIXELS), (0, 0, 0, 0))
    for k, name in enumerate(ICON_NAMES):
        image.paste(icon_image(name), ((k % COLUMNS) * ICON_PIXELS, (k // COLUMNS) * ICON_PIXELS))
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assets.make_item_icons", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="folder to write item_icons.png/.json into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    sheet().save(args.out / "item_icons.png", optimize=True)
    index = {"columns": COLUMNS, "icon_pixels": ICON_PIXELS, "names": list(ICON_NAMES)}
    (args.out / "item_icons.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(ICON_NAMES)} item icons to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
