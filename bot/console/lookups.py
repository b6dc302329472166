"""The console's lookups: moves, rules, history, records, ratings, stats and settings (a
mixin of :class:`bot.console.commands.ConsoleTable`, whose table lists them)."""

from __future__ import annotations

from bot import wording
from bot.console.coach import CoachArgs, CoachConsole, _game_number
from bot.console.output import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, rules_text
from bot.i18n import t
from bot.results import BadInputError, Moderator, Player, score_words, variant_words
from bot.service import catalog


class LookupsConsole(CoachConsole):
    """Looking things up at the table (nothing here changes a game but the settings)."""

    def moderator(self) -> Moderator:
        """Whoever sits at the console runs their own table: they moderate it."""
        return Moderator(CONSOLE_GUILD, LOCAL_PLAYERS[0].user_id, own_table=True)

    @staticmethod
    def _size(args: CoachArgs) -> int:
        value = args.opts.get("size", str(catalog.DEFAULT_SIZE)).lower().split("x")[0]
        if not value.isdigit() or len(value) > 2:
            raise BadInputError("bad_board_size", size=args.opts.get("size"), sizes=[f"{n}×{n}" for n in catalog.SIZES])
        return catalog.check_size(int(value))

    async def moves(self, args: CoachArgs) -> None:
        # game:N as record and review take it (moves game:1 was refused as an unknown option)
        number = _game_number(args.get("game"))
        game, lines = await self.service.moves(CONSOLE_CHANNEL, number, CONSOLE_GUILD)
        self.say(t(self.lang, "console.moves_title", id=game.id))
        for line in lines or [t(self.lang, "console.moves_none")]:
            self.say(f"  {line}")
        if game.status != "active":  # a finished game: how it ended, in words
            you = LOCAL_PLAYERS[0] if game.black.is_bot != game.white.is_bot else None
            self.say(f"  {wording.ending_text(game, self.lang, you)}")

    async def rules(self, args: CoachArgs) -> None:
        named = args.get("variant") or (await self.service.get_settings(CONSOLE_GUILD)).default_variant
        self.say(rules_text(catalog.check_variant(named, catalog.RULES_VARIANTS), self.lang))

    async def history(self, args: CoachArgs) -> None:
        games = await self.service.history(CONSOLE_GUILD, None, 10)
        if not games:
            self.say(t(self.lang, "console.history_none"))
        for s in games:
            you = LOCAL_PLAYERS[0] if s.black.is_bot != s.white.is_bot else None  # "you resigned", as elsewhere
            how = wording.ending_text(s, self.lang, you)
            if s.result:
                how = t(
                    self.lang,
                    "console.history_result",
                    how=how,
                    result=score_words(s.result),
                )
            black, white = (wording.player_name(p, self.lang) for p in (s.black, s.white))
            self.say(
                t(
                    self.lang,
                    "console.history_line.one" if s.turns == 1 else "console.history_line",
                    id=s.id,
                    black=black,
                    white=white,
                    variant=variant_words(s.variant),
                    size=s.size,
                    turns=s.turns,
                    how=how,
                )
            )

    async def record(self, args: CoachArgs) -> None:
        game_id = args.get("game").lstrip("#")
        gid = int(game_id) if game_id.isdecimal() and len(game_id) <= 30 else None
        if game_id and gid is None:
            raise BadInputError("bad_number", value=game_id)
        rec = await self.service.record(CONSOLE_GUILD, gid, CONSOLE_CHANNEL, user_id=LOCAL_PLAYERS[0].user_id)
        self.say(rec.sgn.rstrip())
        if self.image_dir is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path = self.image_dir / rec.filename
            path.write_text(rec.sgn, encoding="utf-8")
            self.say(t(self.lang, "console.record_written", path=path))
            if rec.replay is not None and rec.replay_filename:
                replay = self.image_dir / rec.replay_filename
                replay.write_bytes(rec.replay)
                self.say(t(self.lang, "console.replay_written", path=replay))

    async def leaderboard(self, args: CoachArgs) -> None:
        size = self._size(args) if "size" in args.opts else await self.service.leaderboard_size(CONSOLE_GUILD)
        entries = await self.service.leaderboard(CONSOLE_GUILD, size)
        # the size named, 5x5 by default: "on this board size" and an untitled list named none
        self.say(t(self.lang, "console.leaderboard_title" if entries else "console.leaderboard_none", size=size))
        for e in entries:
            name = wording.player_name(Player(e.user_id, e.name), self.lang)
            rating, rd = f"{e.rating:.0f}", f"{e.rd:.0f}"
            tally = {"wins": e.wins, "losses": e.losses, "draws": e.draws}
            self.say(t(self.lang, "console.leaderboard_line", rank=e.rank, name=name, rating=rating, rd=rd, **tally))

    async def stats(self, args: CoachArgs) -> None:
        st = await self.service.stats(CONSOLE_GUILD, LOCAL_PLAYERS[0].user_id, LOCAL_PLAYERS[0].name)
        p = st.versus_people
        # "You", as the games and the review say it; the name too, as history lists it.
        me = wording.player_name(Player(st.user_id, st.name), self.lang)
        self.say(t(self.lang, "console.stats_people", name=me, wins=p.wins, losses=p.losses, draws=p.draws))
        # The ratings in words, per board size (newcomer finding: only the chart showed them)
        for r in st.ratings:
            said = {"size": r.size, "rating": f"{r.rating:.0f}", "rd": f"{r.rd:.0f}", "games": r.games}
            self.say("  " + t(self.lang, "console.stats_rating", **said))
        for level, tally in st.versus_bot.items():
            counts = {"wins": tally.wins, "losses": tally.losses, "draws": tally.draws}
            self.say("  " + t(self.lang, "console.stats_bot", level=t(self.lang, f"level.{level}"), **counts))
        await self.coach_stats()

    async def settings(self, args: CoachArgs) -> None:
        opts = args.opts
        settings = before = await self.service.get_settings(CONSOLE_GUILD)
        if opts:
            settings = await self.service.set_settings(
                CONSOLE_GUILD,
                opts.get("turn_timeout"),
                opts.get("challenge_timeout"),
                opts.get("default_variant"),
                hints=opts.get("hints"),
                moderator=self.moderator(),
            )
            # a change just echoed the settings, with no word that they had changed
            self.say(wording.settings_change_text(before, settings, self.lang))
        for label, value in wording.settings_items(settings, self.lang):
            self.say(f"  {label}: {value}")
