"""Why a step or a placement is refused, in words: "b3 is occupied", not "b4 cannot step to b3".

Pure: given the position and the cells a person typed (bit indexes of the position's
board), say the first rule the request breaks. The service puts the line in its error
(with the moves that are allowed); the adapters word it in each person's language.
"""

from __future__ import annotations

from bot.explain import Line
from bot.explain.passes import nth_line
from engine import Position


def step_refusal(position: Position, src: int, dst: int, in_chain: bool) -> Line:
    """Why the piece on ``src`` may not step to ``dst`` now (the step is known to be illegal)."""
    names = position.geo.names
    n = position.geo.n
    a, t = names[src], names[dst]
    (ar, af), (tr, tf) = divmod(src, n), divmod(dst, n)
    if src == dst:
        return ("explain.refuse.same_cell_step", {"cell": a})
    if abs(ar - tr) == 1 and abs(af - tf) == 1:
        return ("explain.refuse.diagonal", {"src": a, "dst": t})
    if abs(ar - tr) + abs(af - tf) > 1:
        return ("explain.refuse.too_far", {"src": a, "dst": t})
    owner = position.piece_at(dst)
    if owner is not None:
        key = "explain.refuse.occupied_own" if owner == position.side else "explain.refuse.occupied_enemy"
        return (key, {"cell": t})
    if in_chain:
        return ("explain.refuse.chain_needs_capture", {"src": a, "dst": t})
    rules = position.rules
    hist = position.hist.get(src)
    if rules.max_shuttles and hist is not None and hist[0] == dst and hist[1] >= 2 * rules.max_shuttles:
        return ("explain.refuse.shuttle", {"src": a, "dst": t, "nth": nth_line(rules.max_shuttles + 1)})
    return ("explain.refuse.step_rule", {"src": a, "dst": t})


def same_cells_refusal(cell: str) -> Line:
    """``/place a1 a1``: the two cells of a pair must differ."""
    return ("explain.refuse.same_cells", {"cell": cell})
