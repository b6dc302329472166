"""Each variant's rules, generated from its :class:`~engine.Ruleset`.

One source for ``/seega rules`` and the console's ``rules``: every sentence follows an
option of the ruleset, so a variant without a movement phase (five-in-a-row) never reads
about steps or passing, and the sizes named are the ones the bot offers for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.explain import Line
from engine import Ruleset
from engine.rules import PRESETS


def sizes_text(sizes: Sequence[int]) -> list[str]:
    """``["5×5", "7×7", "9×9"]``: a list, joined with each language's comma when worded."""
    return [f"{s}×{s}" for s in sizes]


def rules_lines(rules: Ruleset, sizes: Sequence[int]) -> list[Line]:
    """The rules of ``rules``' variant as lines, for a board of any of ``sizes``.

    Args:
        rules: the variant on one of its sizes (options included).
        sizes: the sizes the bot offers this variant on (the catalogue's list).
    """
    lines: list[Line] = []
    if len(sizes) == 1:
        lines.append(("explain.rules.board_one", {"sizes": sizes_text(sizes), "pieces": rules.pieces}))
    else:
        counts = [f"{Ruleset.make(rules.variant, s).pieces} ({s}×{s})" for s in sizes]
        lines.append(("explain.rules.board_many", {"sizes": sizes_text(sizes), "pieces": counts}))
    lines.extend(_placement(rules))
    if rules.after_placement == "replace":
        lines.append(("explain.rules.replace", {"count": rules.win_line or rules.size}))
        lines.append(("explain.rules.no_movement", {}))
    else:
        lines.extend(_movement(rules))
    lines.extend(_ends(rules))
    lines.append(_commands(rules))
    return lines


def _placement(rules: Ruleset) -> list[Line]:
    where = "explain.rules.anywhere" if rules.place_centre else "explain.rules.not_centre"
    key = {
        "pairs": "explain.rules.place_pairs",
        "singles": "explain.rules.place_singles",
        "pairs-then-singles": "explain.rules.place_pair_then_singles",
    }[rules.placement]
    if rules.opening == "lane":
        # not "any empty cell" and then the lane: the first turn's cells are the lane's
        # (newcomer play-test: the two lines contradicted each other); a sentence of its
        # own, the lane first (console play-test: "places two pieces on the lane's cells
        # on each player's first turn (below), then ..." read garbled); the lane said
        # first, so the placement line needs no "(below)", which pointed at nothing once
        # /seega rules showed the differences and the full list apart (Discord play-test)
        lane = {
            "pairs": "explain.rules.place_pairs_lane",
            "singles": "explain.rules.place_singles_lane",
            "pairs-then-singles": "explain.rules.place_pair_then_singles_lane",
        }[rules.placement]
        return [("explain.rules.opening_lane", {}), (lane, {"where": (where, {})})]
    return [(key, {"where": (where, {})})]


def _movement(rules: Ruleset) -> list[Line]:
    first = "explain.rules.first_white" if rules.first_mover == "white" else "explain.rules.first_black"
    if rules.place_centre:  # the centre may be taken: the first step goes anywhere
        first += "_free"
    lines: list[Line] = [(first, {}), ("explain.rules.step", {})]
    if not rules.captures:  # modern-3x3: said, not left for the reader to infer
        lines.append(("explain.rules.no_capture", {}))
    if rules.captures:
        lines.append(("explain.rules.capture", {}))
        if rules.line_capture:
            lines.append(("explain.rules.line_capture", {}))
        lines.append(("explain.rules.safe_centre" if rules.safe_centre else "explain.rules.unsafe_centre", {}))
        lines.append((f"explain.rules.chain_{rules.chain}", {}))
    if rules.max_shuttles:
        lines.append(("explain.rules.shuttle", {"count": rules.max_shuttles, "next": rules.max_shuttles + 1}))
    lines.append((f"explain.rules.blocked_{rules.blocked}", {}))
    if rules.blocked == "pass" and rules.max_shuttles:
        lines.append(("explain.rules.blocked_both", {}))
    return lines


def _ends(rules: Ruleset) -> list[Line]:
    lines: list[Line] = []
    if rules.win_line:
        lines.append(("explain.rules.win_line", {"count": rules.win_line}))
    moving = rules.after_placement != "replace"
    if moving and rules.captures:
        if rules.lose_at == 0:
            lines.append(("explain.rules.win_capture_all", {}))
        elif rules.lose_at == 1:
            lines.append(("explain.rules.lose_at_one", {}))
        else:
            lines.append(("explain.rules.lose_at_many", {"count": rules.lose_at}))
    if moving and rules.move_limit:
        lines.append(("explain.rules.move_limit", {"count": rules.move_limit}))
    if rules.turn_limit:
        lines.append(("explain.rules.turn_limit", {"count": rules.turn_limit}))
    if rules.after_placement == "replace":
        lines.append(("explain.rules.no_line_draw", {}))
    return lines


def _commands(rules: Ruleset) -> Line:
    if rules.after_placement == "replace":
        return ("explain.rules.commands_replace", {})
    # /seega end-turn is named only where a chain can happen: a pass that is the only
    # choice is played for the player, so without chains there is nothing to end.
    chains = rules.captures and rules.chain != "none"
    # A removal is asked for by every blocked rule but "pass", and under "pass" when the
    # shuttle limit blocks both players.
    if rules.captures and (rules.blocked != "pass" or rules.max_shuttles):
        return ("explain.rules.commands_remove" if chains else "explain.rules.commands_remove_plain", {})
    return ("explain.rules.commands" if chains else "explain.rules.commands_plain", {})


def differences(rules: Ruleset, sizes: Sequence[int]) -> list[Line]:
    """How ``rules``' variant differs from standard, as lines of its own rules text, so it
    never drifts from the engine: the variant's lines that standard at the same size does
    not have, then (for a variant that moves and captures as standard does) "not in this
    variant" for standard's rules it drops with nothing in their place (ludii's shuttle
    and no-capture limits). The commands line is left out: it is not a rule. Empty for
    standard itself.
    """
    if rules.variant == "standard":
        return []
    standard_sizes = [s for s in sizes if s in PRESETS["standard"][0]] or list(PRESETS["standard"][0])
    size = rules.size if rules.size in standard_sizes else standard_sizes[0]
    base = rules_lines(Ruleset.make("standard", size), standard_sizes)[:-1]
    own = rules_lines(rules, sizes)[:-1]
    lines = [line for line in own if line not in base]
    if rules.captures and rules.after_placement == "move":
        kept = {_family(key) for key, _ in own}
        lines += [("explain.rules.not_here", {"line": line}) for line in base if _family(line[0]) not in kept]
    return lines


def _family(key: str) -> str:
    """The rule a rules line speaks of (``blocked_pass`` and ``blocked_lose``: ``blocked``)."""
    name = key.rsplit(".", 1)[-1].split("_")[0]
    return {"unsafe": "safe", "lose": "win"}.get(name, name)
