"""Every tolerance, limit and iteration cap the physics uses, each with its unit and reason.

Owns: the numbers that decide "touching or overlapping" and "sane or absurd input".
Does not own: movement constants (gravity, friction...), which are settings in `settings.py`.
"""

CONTACT_TOLERANCE = 1e-7
"""[blocks] Overlap depth below which two boxes count as touching, not overlapping.

Why this value: box edges drift by a few ulps as boxes are moved by clipped deltas (an ulp at
coordinate 30,000,000 is ~4e-9), so the tolerance must be far above that drift; and it must
stay far below any real geometry (the thinnest shape, carpet, is 0.0625 tall) and below one
tick of the slowest real motion (sneaking ~0.065 blocks/tick). 1e-7 is what later Minecraft
versions use for the same purpose.
If it were 0 (Beta): a box that drifted 4e-15 into a wall ignores that wall and walks through
it (Beta's MC-2025). If it were large (say 1e-3): bodies visibly hover and could rest inside
thin gaps.
"""

MIN_BOX_SIZE = 4 * CONTACT_TOLERANCE
"""[blocks] Smallest extent a moving box (a body, or a box given to `sweep` or `cast`) may have.

Derived from CONTACT_TOLERANCE: an obstacle only counts when the moving box overlaps it by more
than the tolerance on the other axes. A box narrower than 2 x the tolerance could straddle the
seam between two blocks overlapping each by less than that, and fall between them; a point never
overlaps anything by more than the tolerance, so it could never hit. 4 x leaves a margin of 2.
Rays are cast as small cubes of at least this size (see game.targeting)."""

MAX_BODY_SIZE = 64.0
"""[blocks] Largest width or height a Body may have. Larger sizes are almost certainly unit
mistakes (pixels or centimetres for blocks) and make every query cover huge regions."""

SIZE_ROUNDING_ULPS = 2.0
"""[ulps of the box's largest corner, and at least of MAX_BODY_SIZE] How far a box's extent may
lie outside [MIN_BOX_SIZE, MAX_BODY_SIZE] and still count as a size within them.

Why: a box built from a position and a size (`AABB.around_feet`: x - width/2, y + height) rounds
each corner once, half an ulp of that corner each, and its extent (max - min) rounds once more,
half an ulp of at most 2 x MAX_BODY_SIZE: two ulps of the larger of the largest corner and
MAX_BODY_SIZE cover all three. Without it `Body.at_feet(0.5, 100.3, 0.5, 0.6, 64.0)` was refused:
its box is 64.00000000000001 tall. The slack never takes the smallest extent below
MIN_BOX_SIZE / 2 (2 x CONTACT_TOLERANCE, what MIN_BOX_SIZE's reason forbids): far beyond the
world (past ~1e9 blocks) a box that thin is no longer representable, and is refused."""

MAX_DISPLACEMENT = 1_000_000.0
"""[blocks] Largest |component| of one move or velocity. Larger values are rejected as bad
input: they are far beyond any game speed and would make the gathered region absurd."""

MAX_RESOLVE_ITERATIONS = 8
"""[casts] Default cap on the casts `resolve` makes for one move (each cast meets at most one contact).

Why: SLIDE removes one axis per contact, so it needs at most 4 casts (three contacts, then the
free rest); BOUNCE can ping-pong in a gap barely wider than the body, and each cast walks the
rest of the path, so the cap bounds one move's cost. When it is reached the rest of the
displacement is dropped: the body stays where its last contact left it, touching, never inside."""
